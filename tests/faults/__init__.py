"""Fault-injection tests."""
