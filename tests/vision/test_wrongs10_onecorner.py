"""vision.recognize.onecorner through reader.read_candidates: a card read at one
corner of an outline shorter than a card, seen whole, is not given (an outline
round two cards); an oblong card, or one partly covered, read at one corner is."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import CardCandidate
from vision.recognize.classifier import Calibration, Reading
from vision.recognize.reader import read_candidates


class _Scripted:
    """A stand-in recogniser: the first two patches of a call read as `script`
    (None: "not an index"), sure (0.999); any more patches (a near-square card's
    turned corners) read as no index."""

    deck = None

    def __init__(self, script: list[str | None]) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.script = script

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        cards = self.script + [None] * (len(patches) - len(self.script))
        return [_reading(c) for c in cards[:len(patches)]]


def _reading(card: str | None) -> Reading:
    if card is None:
        return Reading(None, None, 0.0, 0.0, 0.0, 1.0)
    return Reading(card[:-1], card[-1], 0.999, 0.999, 0.999, 0.0)


def _cand(w: float, h: float, visible: float = 1.0) -> CardCandidate:
    x0, y0 = 100.0, 100.0
    corners = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
    return CardCandidate(corners, score=0.95, visible=visible, index_visible=(True, True))


IMAGE = np.full((480, 640, 3), 200, np.uint8)


def test_a_near_square_outline_read_at_one_corner_is_not_given() -> None:
    # 110 x 120: no card's shape (a card is 1.4), both corners in view, one reads
    s = read_candidates(_Scripted([None, "9H"]), IMAGE, [_cand(110, 120)])[0]
    assert s.card is None and s.rank is None


def test_an_oblong_card_read_at_one_corner_is_given() -> None:
    s = read_candidates(_Scripted([None, "9H"]), IMAGE, [_cand(90, 126)])[0]
    assert s.card == "9H"


def test_a_near_square_outline_read_at_both_corners_is_given() -> None:
    s = read_candidates(_Scripted(["9H", "9H"]), IMAGE, [_cand(110, 120)])[0]
    assert s.card == "9H"


def test_a_covered_card_read_at_one_corner_is_given() -> None:
    # partly under another card: its silent corner may lie under that card
    s = read_candidates(_Scripted([None, "9H"]), IMAGE, [_cand(110, 120, visible=0.8)])[0]
    assert s.card == "9H"


def test_the_frames_squeeze_makes_a_squeezed_card_oblong() -> None:
    # a photo at 80% of its height: upright cards 90 x 101 (1.4 x 0.8), one of them
    # read at one corner; the others tell the squeeze
    others = [_cand(90, 101) for _ in range(3)]
    others = [CardCandidate(tuple((x + 150 * (k + 1), y) for x, y in c.corners),
                            score=0.95) for k, c in enumerate(others)]
    clf = _Scripted([None, "9H"] + ["2C", "2C", "3C", "3C", "4C", "4C"])
    s = read_candidates(clf, IMAGE, [_cand(90, 101)] + others)[0]
    assert s.card == "9H"


@pytest.mark.parametrize("name", ["IMG_2685.JPG"])
def test_a_real_outline_round_two_cards_reads_no_wrong_rank(name: str) -> None:
    """A real train photo stretched 1 x 1.2: an outline round two cards read at
    one corner, near square once unsqueezed, gave the other card's label (10 read KC)."""
    from vision import evaluate as E
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_image

    labels = E.real_labels(E.REAL_PHOTOS, "train")[name]
    image = E.stretched(load_image(E.REAL_PHOTOS / "images" / "train" / name), 1.0, 1.2)
    sightings = read_image(IndexClassifier.load(), image)
    boxes = [(x0, y0 * 1.2, x1, y1 * 1.2) for _, (x0, y0, x1, y1) in labels]
    match = E.match_real(boxes, [s.corners for s in sightings])
    for (rank, _), j in zip(labels, match):
        if j is not None and sightings[j].card is not None:
            assert sightings[j].card[:-1] == rank
