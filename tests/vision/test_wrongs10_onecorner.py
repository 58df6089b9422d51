"""vision.recognize.onecorner through reader.read_candidates: a card read at one
corner of an outline shorter than a card, seen whole, is not given (an outline
round two cards); an oblong card, or one partly covered, read at one corner is."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import CardCandidate
from vision.recognize.classifier import Calibration, Reading
from vision.recognize.overlap import quad_iou
from vision.recognize.reader import read_candidates
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, LightSpec, SceneSpec, TableStyle


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


def _cand(w: float, h: float, visible: float = 1.0, x0: float = 100.0) -> CardCandidate:
    y0 = 100.0
    corners = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
    return CardCandidate(corners, score=0.95, visible=visible, index_visible=(True, True))


IMAGE = np.full((480, 800, 3), 200, np.uint8)
#: Three sure cards beside, read 2C, 3C and 4C at both corners: they tell the
#: frame's squeeze (none), as a table's cards do.
OTHERS = [_cand(90, 126, x0=250.0 + 150 * k) for k in range(3)]
READ_OTHERS = ["2C", "2C", "3C", "3C", "4C", "4C"]


def _read(script: list[str | None], cand: CardCandidate) -> str | None:
    return read_candidates(_Scripted(script + READ_OTHERS), IMAGE, [cand] + OTHERS)[0].card


def test_a_near_square_outline_read_at_one_corner_is_not_given() -> None:
    # 110 x 120: no card's shape (a card is 1.4), both corners in view, one reads
    assert _read([None, "9H"], _cand(110, 120)) is None


def test_an_oblong_card_read_at_one_corner_is_given() -> None:
    assert _read([None, "9H"], _cand(90, 126)) == "9H"


def test_a_near_square_outline_read_at_both_corners_is_given() -> None:
    assert _read(["9H", "9H"], _cand(110, 120)) == "9H"


def test_a_covered_card_read_at_one_corner_is_given() -> None:
    # partly under another card: its silent corner may lie under that card
    assert _read([None, "9H"], _cand(110, 120, visible=0.8)) == "9H"


def test_a_lone_near_square_card_is_given() -> None:
    # no other card tells whether the photo is squeezed: a lone card may be
    s = read_candidates(_Scripted([None, "9H"]), IMAGE, [_cand(110, 120)])[0]
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


def _gnomangelo_pair() -> SceneSpec:
    """gnome/gnomangelo on a light cloth: the 10S laid over most of the 9H, turned
    alike (training decks, seed 20, scene 36): the detector outlines both as one,
    near square, whose one index corner shows the nine's index."""
    d = "gnome/gnomangelo"
    cards = (CardPlacement(d, "5S", 281.04, -62.36, 107.55, 0.0),
             CardPlacement(d, "JD", 268.32, -40.43, 105.54, 0.3),
             CardPlacement(d, "4S", 119.48, -98.40, -128.59, 0.0),
             CardPlacement(d, None, 97.22, -127.04, -131.18, 0.3),
             CardPlacement(d, "9H", -205.69, -291.99, -75.10, 0.0),
             CardPlacement(d, "KC", -167.26, -156.53, -45.07, 0.0),
             CardPlacement(d, "4C", -192.82, -134.21, -40.49, 0.3),
             CardPlacement(d, "10S", -220.66, -267.49, -74.39, 0.3))
    return SceneSpec(
        cards=cards, size=(1280, 720), table=TableStyle.CLOTH_LIGHT, table_seed=129134030,
        camera=CameraSpec(px_per_mm=1.8707, tilt_deg=28.746, roll_deg=22.207,
                          distance_mm=827.23, center_px=(607.89, 353.89)),
        light=LightSpec(warmth=-0.42, brightness=1.1588, gradient=0.319, gradient_deg=179.75,
                        vignette=0.311, glare=(), shadow=0.8555, shadow_deg=90.49),
        blur_sigma=0.2569, motion_px=0.0, motion_deg=61.44, noise_sigma=5.508,
        jpeg_quality=None, distractors=(), stretch_x=1.0)


@pytest.mark.parametrize("live", [False, True])
def test_an_outline_round_two_cards_gives_neither_card(live: bool) -> None:
    """Read as the referee's pipeline reads a frame (live) and as a still: every
    card given lies on that card."""
    from vision.evaluate import live_detector
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_candidates, read_image, without_doubles

    clf = IndexClassifier.load()
    image, truth = SceneRenderer().render(_gnomangelo_pair(), np.random.default_rng(0))
    read = (without_doubles(read_candidates(clf, image, live_detector()(image))) if live
            else read_image(clf, image))
    given = [s for s in read if s.card is not None]
    assert given
    for s in given:
        best = max(truth, key=lambda t: quad_iou(t.corners, s.corners))
        assert best.card == s.card and quad_iou(best.corners, s.corners) >= 0.5
