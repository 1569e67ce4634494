"""Hegemony: Alternate Histories presentation: board and hand images, texts, the deck builder and
the game's forms (the Discord commands are in ``cog.py``)."""
