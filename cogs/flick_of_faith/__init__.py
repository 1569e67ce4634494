"""Flick of Faith's presentation: board image, flick animation and aim preview (no Discord here)."""
