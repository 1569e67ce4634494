"""Petition presentation: board, hand and reveal images, texts and the card form."""
