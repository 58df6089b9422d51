"""Cards partly under a book or a board in phone-like photos (session 12): the part in
view is grown at the squeeze the cards read tell, not at its own shape's alone
(partsqueeze.py), and at each of its index corners lying in the outline (partial)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import training_photo

from vision.detect import CardCandidate
from vision.recognize.partial import grown_cards
from vision.recognize.partsqueeze import read_squeezes
from vision.types import CardSighting


def _rect(x0: float, y0: float, w: float, h: float) -> np.ndarray:
    return np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], np.float32)


def _cand(q: np.ndarray, score: float = 0.9) -> CardCandidate:
    return CardCandidate(tuple((float(x), float(y)) for x, y in q), score=score)


def test_an_unread_part_alone_is_grown_at_1_too() -> None:
    """A part in view of a near-square shape, alone and unread: it is grown at 1 as
    well as at the squeeze its own shape tells (far off 1: all it used to be grown
    at)."""
    from vision.detect.squeeze_estimate import told_squeeze

    part = _rect(100, 50, 70, 60)
    k, _ = told_squeeze([part], [0.9])
    assert k is not None and abs(np.log(k)) > 0.2
    got = read_squeezes([part], [_cand(part)], [CardSighting(corners=((0, 0),) * 4)])
    assert got == (1.0, k)


def test_cards_read_tell_the_squeeze() -> None:
    """Two cards read, one upright and one lying sideways, in a photo squeezed to 80%
    of its height, and the part unread: the squeeze is the cards' (about 0.8),
    whatever the part's shape."""
    cards = [_rect(10, 10, 63, 88 * 0.8), _rect(100, 10, 88, 63 * 0.8)]
    part = _rect(200, 10, 63, 30)
    quads = [*cards, part]
    sights = [CardSighting(corners=((0, 0),) * 4, card=c) for c in ("2S", "3H")] + [
        CardSighting(corners=((0, 0),) * 4)]
    (got,) = read_squeezes(quads, [_cand(q) for q in quads], sights)
    assert got == pytest.approx(0.8, abs=0.03)


def test_a_part_holding_both_index_corners_is_grown_at_each() -> None:
    """An outline reaching over the card's hidden end (both of the grown card's index
    corners inside it) is grown with either corner read: which one is in view the
    outline does not tell. (The detector's outline of the 3S of training photos seed
    31, photo 111, below.)"""
    part = np.array([[75, 205], [170, 137], [262, 249], [216, 280]], np.float32)
    ways = [g for g in grown_cards(part) if g.cut == 3]
    card = np.array([[86, 197], [170, 137], [262, 249], [176, 307]], np.float32)
    both = [g for g in ways if np.abs(g.quad - card).max() < 2.0]
    assert sorted(g.corner for g in both) == [0, 2]


@pytest.fixture(scope="module")
def clf():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier.load()


def _read(clf, image):  # type: ignore[no-untyped-def]
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    return [s for s in without_doubles(read_candidates(clf, image,
                                                       still_detector(clf)(image)))
            if s.card or s.rank]


@pytest.mark.parametrize(("photo", "card"), [(102, "4H"), (21, "AH")])
def test_a_lone_card_under_a_board_is_grown_at_no_squeeze(clf, photo: int, card: str
                                                          ) -> None:  # type: ignore[no-untyped-def]
    """Training decks seed 31, photos 102 (as taken) and 21 (resized 0.86 x 1): one
    card, part of it under a striped board or a plain block, its part in view the
    photo's only outline. That outline's own shape tells squeezes 1.45 and 1.67, its card grown
    so is askew and reads nothing; grown at 1 too, it reads surely."""
    from vision.recognize.overlap import quad_iou

    spec, image, truth = training_photo(31, photo)
    assert spec.occluded and [t.card for t in truth] == [card]
    assert truth[0].visible_fraction < 0.75
    read = _read(clf, image)
    assert [s.card for s in read] == [card]
    assert quad_iou(read[0].corners, truth[0].corners) > 0.5


def test_an_outline_over_the_hidden_end_reads_the_corner_in_view(clf) -> None:  # type: ignore[no-untyped-def]
    """Training decks seed 31, photo 111: a 3S under an AH and a board, its outline
    running on to the board's edge over its hidden end; of the grown card's two index
    corners inside the outline, the hidden one came first and read nothing."""
    spec, image, truth = training_photo(31, 111)
    assert spec.occluded and [t.card for t in truth] == ["3S", "AH"]
    assert "3S" in [s.card for s in _read(clf, image)]
