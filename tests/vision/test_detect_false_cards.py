"""vision.detect must not report things that are not cards: a blank sheet of card
size, the pips and picture frames printed on a card, the cells of a checked cloth.

Each test fails on the detector before these rules (commit 163d595~1): it reported
the sheet, 50 prints in the sample of real photos, and 47 false cards on the four
checked-cloth scenes.
"""

from __future__ import annotations

import csv
from collections import defaultdict

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.detect.tableau import grid, lay
from vision.evaluate import REAL_PHOTOS

REAL = REAL_PHOTOS / "images"


@pytest.mark.parametrize("kind", ["felt", "dark", "wood"])
def test_blank_sheet_of_card_size_is_no_card(kind: str) -> None:
    """A note or a business card: crisp, white, card-shaped, and no index on it."""
    deck = deck_or_skip("gnome/anglo")
    img, truth = lay(deck, grid(["QH", "10S", "AD", "7C", "KS", "2H", "JD"], seed=3),
                     kind=kind, seed=3)
    sheet = cv2.boxPoints(((1100, 520), (120, 170), 20)).astype(np.float32)
    cv2.fillPoly(img, [np.rint(sheet).astype(np.int32)], (235, 238, 240), lineType=cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    cands = detect_cards(img)
    assert len(cands) == len(truth), cands
    for t in truth:
        assert max(g.iou(c.quad, g.order_quad(t.corners)) for c in cands) >= 0.85, t.card
    assert all(g.iou(c.quad, g.order_quad(sheet)) < 0.2 for c in cands)


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
def test_prints_on_real_cards_are_no_cards() -> None:
    """Phone photos (378x504) make a pip as big as the smallest card allowed: a
    detection lying inside a labelled card and under a third of its size is a
    print on it. Every third training photo (99); 10 such today."""
    boxes: dict[str, list[tuple[float, ...]]] = defaultdict(list)
    with (REAL / "train_labels.csv").open() as f:
        for row in csv.DictReader(f):
            boxes[row["filename"]].append(
                tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax")))
    prints = 0
    for name in sorted(boxes)[::3]:
        img = cv2.imread(str(REAL / "train" / name))
        assert img is not None, name
        for c in detect_cards(img, DetectorConfig(with_patches=False)):
            x0, y0, x1, y1 = g.bounding_box(c.quad)
            area = (x1 - x0) * (y1 - y0)
            prints += any(
                x0 >= b[0] - 3 and y0 >= b[1] - 3 and x1 <= b[2] + 3 and y1 <= b[3] + 3
                and area < (b[2] - b[0]) * (b[3] - b[1]) / 3
                for b in boxes[name])
    assert prints <= 20, prints


def test_checked_cloth_false_cards_stay_rare() -> None:
    """Light checked cloths, whose cells are card-sized, card-shaped and edged all
    round: 19 false cards on these four scenes today (the cloth's seams and
    colours give most away), never again the 47 of before."""
    from vision.scene import SceneRenderer, TableStyle, random_scene_spec, render_scene

    decks = [deck_or_skip(d) for d in ("gnome/anglo_poker", "kde/standard", "kde/jolly-royal",
                                "gnome/atlasnye")]
    r = SceneRenderer()
    false = 0
    for seed in (605, 606, 610, 611):
        rng = np.random.default_rng(seed)
        spec = random_scene_spec(rng, decks, 8, overlap=0.3, table=TableStyle.CLOTH_LIGHT)
        img, truth = render_scene(spec, rng, r)
        quads = [g.order_quad(np.asarray(t.corners, np.float32)) for t in truth]
        for c in detect_cards(img, DetectorConfig(with_patches=False)):
            false += max(g.iou(c.quad, q) for q in quads) < 0.5
    assert false <= 24, false
