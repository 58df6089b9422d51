"""Helpers shared by the vision tests (on pytest's pythonpath, see pyproject.toml)."""

from __future__ import annotations

import pytest

from vision import cardart


def deck_or_skip(name: str) -> cardart.DeckArt:
    """The deck `name`, rendered once; skips the test where its Debian package is missing."""
    try:
        deck = cardart.find_deck(name)
        cardart.render_card(deck, "AS", 60)
    except cardart.CardArtError as e:  # packages missing on this machine
        pytest.skip(f"card art unavailable: {e}")
    return deck
