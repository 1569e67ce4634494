"""Cult Wars presentation: board and hand images, texts (no discord import here)."""
