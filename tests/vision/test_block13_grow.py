"""Cards partly under a book or a board in phone-like photos (session 13): an outline
the reading rule finds too short for a card (onecorner.py) is grown across its side
at an object's edge, however little it must grow (partial.MIN_GROW)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import training_photo

from vision.recognize.onecorner import SHORTER_THAN_A_CARD
from vision.recognize.partial import CARD_ASPECT, grown_cards


def test_an_outline_too_short_for_a_card_may_be_grown() -> None:
    """A part 1.22 times as long as wide (onecorner refuses a card read at one corner
    of it: under 1.25) is grown across its short end to a card's 1.4: before, only
    parts under 1.4 / 1.2 = 1.17 were, and one of 1.17-1.25 was neither read nor
    grown."""
    wide, long = 100.0, 122.0
    assert long / wide < SHORTER_THAN_A_CARD
    part = np.array([(0, 0), (wide, 0), (wide, long), (0, long)], np.float32)
    ends = [g for g in grown_cards(part) if g.cut in (0, 2)]
    assert ends
    for g in ends:
        span = np.ptp(g.quad[:, 1])
        assert span == pytest.approx(CARD_ASPECT * wide, rel=0.01)


def test_a_whole_card_is_not_grown() -> None:
    """A part already a card's shape (1.4) is not grown across its ends."""
    part = np.array([(0, 0), (100, 0), (100, 140), (0, 140)], np.float32)
    assert not [g for g in grown_cards(part) if g.cut in (0, 2)]


@pytest.fixture(scope="module")
def clf():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier.load()


def test_a_card_whose_outline_stops_at_a_book_is_read(clf) -> None:  # type: ignore[no-untyped-def]
    """Training decks seed 31, photo 43: a JH whose far end lies under a book; its
    outline stops at the book's edge, 1.22 long over wide, reads JH surely at its
    index corner, and was given no card (onecorner: too short for a card seen whole;
    partial: too long to grow by 1.2)."""
    from vision.recognize.overlap import quad_iou
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    spec, image, truth = training_photo(31, 43)
    assert spec.occluded
    (jh,) = [t for t in truth if t.card == "JH"]
    assert jh.visible_fraction < 0.8
    read = [s for s in without_doubles(read_candidates(clf, image, still_detector(clf)(image)))
            if s.card]
    got = [s for s in read if s.card == "JH"]
    assert len(got) == 1 and quad_iou(got[0].corners, jh.corners) > 0.8
    assert all(s.card in {t.card for t in truth} for s in read)
