"""vision.detect.rows: cards laid in a row, each partly over the next (a player's
spread), on the real train photos and on a hand-laid table.

Each test fails on the detector before vision/detect/rows.py (commit 66ef17a).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip, matched_box_ious

from vision.detect import DetectorConfig, detect_cards, rows
from vision.detect import geometry as g
from vision.detect.evidence import gather
from vision.detect.tableau import Placement, lay
from vision.evaluate import REAL_PHOTOS

REAL = REAL_PHOTOS / "images"
real_only = pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(),
                               reason="real photos not present")
CARD_H = 170
CARD_W = CARD_H * 63 / 88


@real_only
@pytest.mark.parametrize("name", ["IMG_2623.JPG", "IMG_2653.JPG"])
def test_row_found_whole_is_split_at_its_faint_seam(name: str) -> None:
    """Two cards on wood, the second laid over the first's right half, ends in
    line: their outline is card-shaped and was found whole, one "card" over both
    (the covered card lost); the seam between the white cards is too faint for
    the edge map. Both cards must be found, and no more."""
    ious, n = matched_box_ious(name)
    assert min(ious) > 0.4, [round(v, 2) for v in ious]
    assert n == len(ious)


@real_only
def test_card_at_the_end_of_a_row_is_found() -> None:
    """A row of two among other cards (IMG_2616), its outline no card (the
    cards' ends not quite in line): the corners at the row's ends have a side
    running along the whole row, longer than a card, so no corner guess gave
    the card lying at either end. Every labelled card must be found."""
    ious, _ = matched_box_ious("IMG_2616.JPG")
    assert min(ious) > 0.4, [round(v, 2) for v in ious]


@pytest.mark.parametrize("kind", ["felt", "wood"])
def test_row_of_three_cards(kind: str) -> None:
    """Three cards laid left to right, each over the one before by 45% of a
    card's width, ends in line: the first card (its index corner in view) was
    lost, taken into the outline of the first two. Each card must be found
    (IoU >= 0.4 with the whole card: a covered card's quad may be what shows of
    it), and the row is not one card."""
    deck = deck_or_skip("gnome/anglo")
    place = [Placement(c, (450 + i * 0.55 * CARD_W, 360 + (i % 2) * 2), 0.0)
             for i, c in enumerate(("7D", "KS", "4H"))]
    img, laid = lay(deck, place, kind=kind, seed=3, card_height=CARD_H)
    quads = [c.quad for c in detect_cards(img, DetectorConfig(with_patches=False))]
    cards = [g.order_quad(x.corners) for x in laid]
    for p, card in zip(place, cards):
        assert max((g.iou(q, card) for q in quads), default=0.0) >= 0.4, p.card
    row = g.order_quad(np.array([cards[0][0], cards[2][1], cards[2][2], cards[0][3]], np.float32))
    assert max(g.iou(q, row) for q in quads) < 0.8


def _white_table(seam: bool, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """A light grey sheet 300 x 210 px on a dark table, and optionally a faint
    dark line across it 120 px from its left side (6 grey levels), running to
    `reach` of the way from its top and bottom borders."""
    img = np.full((400, 500, 3), 40, np.uint8)
    cv2.rectangle(img, (100, 100), (400, 310), (230, 230, 230), -1)
    if seam:
        y0, y1 = int(100 + 210 * reach), int(310 - 210 * reach)
        cv2.line(img, (220, y0), (220, y1), (200, 200, 200), 2)
    quad = np.array([[100, 100], [400, 100], [400, 310], [100, 310]], np.float32)
    return img, quad


@pytest.mark.parametrize(("seam", "reach", "found"), [
    (True, 0.0, True), (False, 0.0, False), (True, 0.1, False)])
def test_faint_seam_must_cross_from_border_to_border(seam: bool, reach: float, found: bool) -> None:
    """rows.row_seams finds a faint line across an outline only when it runs
    through both margins (a court picture's frame stops some 8% in)."""
    img, quad = _white_table(seam, reach)
    lines = rows.row_seams(gather(img), [quad])
    assert bool(lines) == found
    if found:
        assert all(abs(float(p[0]) - 220) <= 6 and abs(float(r[0]) - 220) <= 6 for _, p, r, _ in lines)
