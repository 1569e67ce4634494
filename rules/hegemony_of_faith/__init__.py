"""Hegemony of Faith: sects, believers and skills for 4–8 players (see docs/rules/hegemony_of_faith.md)."""

from .engine import ENGINE, HegemonyEngine

__all__ = ["ENGINE", "HegemonyEngine"]
