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


def real_boxes(split: str, name: str) -> list[tuple[float, float, float, float]]:
    """The labelled boxes (the visible part of each card) of one real photo."""
    from vision.evaluate import REAL_PHOTOS, real_labels

    return [box for _, box in real_labels(REAL_PHOTOS, split)[name]]
