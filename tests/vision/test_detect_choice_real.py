"""Detector choice (vision.detect.select.choose): cards whose outline is among the
hypotheses but which the choice used to refuse.

Each test failed on the commit before its fix (08d7e27)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import best_box_iou, deck_or_skip, real_boxes

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.evaluate import REAL_PHOTOS
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, Glare, LightSpec, SceneSpec, TableStyle

REAL = REAL_PHOTOS / "images"




@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
def test_card_on_wrinkled_cloth_is_chosen() -> None:
    """IMG_2415: a nine of spades alone on navy cloth, its border fully backed and
    brighter inside all round, but cloth wrinkles run on past its corners
    (overshoot 0.375, over the 0.3 of a checked cloth's cell). It was refused and
    a pip of it chosen instead."""
    best = best_box_iou("IMG_2415.JPG")
    assert best >= 0.9, round(best, 2)


def _cards(deck: str, rows: list[tuple[str | None, float, float, float, float]]
           ) -> tuple[CardPlacement, ...]:
    return tuple(CardPlacement(deck, card, x, y, a, lift) for card, x, y, a, lift in rows)


#: Training decks, seed 13, the 28th scene on cloth (random_scene_spec, overlap 0.4).
CHECKED = SceneSpec(
    cards=_cards("gnome/berlin", [
        ("QS", -106.109, 93.444, 68.221, 0.0), (None, -142.950, 77.157, 109.020, 0.3),
        ("7H", 191.012, 71.330, -178.669, 0.0), ("5C", -218.840, -12.178, -12.381, 0.0),
        ("AS", 154.378, 69.071, -175.384, 0.3), ("AD", -179.937, -15.427, -22.259, 0.3),
        ("3H", 154.233, -140.010, -27.844, 0.0), ("KC", 191.669, -157.537, -22.972, 0.3)]),
    table=TableStyle.CLOTH_LIGHT, table_seed=1797382884,
    camera=CameraSpec(px_per_mm=2.402217, tilt_deg=29.64292, roll_deg=-6.224184,
                      distance_mm=802.15026, center_px=(604.47747, 348.16866)),
    light=LightSpec(warmth=0.893261, brightness=0.762219, gradient=0.0926585,
                    gradient_deg=180.3148, vignette=0.356834,
                    glare=(Glare(933.680, 449.477, 77.589, 0.498772, 2.663929, 139.687),
                           Glare(1020.688, 43.913, 141.633, 0.691272, 1.458246, 68.104)),
                    shadow=0.611801, shadow_deg=333.3418),
    blur_sigma=0.819241, motion_px=0.0, motion_deg=154.96, noise_sigma=1.084799,
    jpeg_quality=None,
)


def test_card_on_checked_cloth_with_lines_past_its_corners_is_chosen() -> None:
    """The ace of spades lies whole on a light checked cloth; the check lines run
    on past some of its corners (overshoot 0.375), not past all of them as past a
    cell's. It must be found (IoU >= 0.9), as the cards found before still are."""
    deck_or_skip("gnome/berlin")
    img, truth = SceneRenderer().render(CHECKED, np.random.default_rng(0))
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    quads = {t.card: g.order_quad(np.asarray(t.corners, np.float32)) for t in truth}
    for card in ("AS", "AD", "QS"):
        best = max((g.iou(c.quad, quads[card]) for c in cands), default=0.0)
        assert best >= 0.9, (card, round(best, 2))


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
def test_two_cards_side_by_side_slightly_askew_are_not_one_card() -> None:
    """IMG_2632: a nine of spades lying on the edge of a nine of diamonds, a few
    degrees out of line. Their joint outline is card-shaped and well backed; the
    spade's border crossing it runs at a slant to the outline's sides, so no seam
    parallel to them was found and the pair was taken for one card."""
    img = cv2.imread(str(REAL / "train" / "IMG_2632.JPG"))
    assert img is not None
    boxes = real_boxes("train", "IMG_2632.JPG")
    assert len(boxes) == 2
    for c in detect_cards(img, DetectorConfig(with_patches=False)):
        x0, y0, x1, y1 = g.bounding_box(c.quad)
        held = sum((min(x1, b[2]) - max(x0, b[0])) * (min(y1, b[3]) - max(y0, b[1]))
                   >= 0.6 * (b[2] - b[0]) * (b[3] - b[1])
                   for b in boxes if min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]))
        assert held < 2, "one detection holds both cards"
