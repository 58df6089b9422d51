"""vision.detect finds white cards lying whole on a busy table: a light checked
cloth and wood grain, where the grey edges join the table's pattern to the
cards' borders and no outline of the card closes; and reports no dark streak of
wood grain as a card.

Two rendered scenes of the training decks (scene 25 of seed 6 and scene 8 of
seed 5 of the detector's development set), drawn again with a fixed noise seed. Both fail on
the detector before the darkest channel's outlines (commit 8558662): the cards
named were not found at all.
"""

from __future__ import annotations

import csv

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.evaluate import REAL_PHOTOS
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, Glare, LightSpec, SceneSpec, TableStyle


def _cards(deck: str, rows: list[tuple[str | None, float, float, float, float]]
           ) -> tuple[CardPlacement, ...]:
    return tuple(CardPlacement(deck, card, x, y, a, lift) for card, x, y, a, lift in rows)


CHECKED = SceneSpec(
    cards=_cards("gnome/tigullio", [
        (None, 174.25, -63.12, -11.71, 0.0), ("JD", 149.12, -39.61, -43.66, 0.3),
        ("7D", 40.59, 105.24, -92.16, 0.0), ("QS", -130.33, 91.06, 159.15, 0.0),
        ("9C", 285.57, -105.86, 99.24, 0.0), ("KC", 260.47, 38.59, 76.87, 0.0),
        ("QC", 23.99, -84.90, 0.61, 0.0), ("QH", -181.64, -51.94, 76.50, 0.0)]),
    table=TableStyle.CLOTH_LIGHT, table_seed=617858476,
    camera=CameraSpec(px_per_mm=1.9229, tilt_deg=5.218, roll_deg=-23.027, distance_mm=620.65,
                      center_px=(597.79, 394.39)),
    light=LightSpec(warmth=-0.4547, brightness=0.9373, gradient=0.3114, gradient_deg=31.27,
                    vignette=0.1095,
                    glare=(Glare(578.96, 189.68, 134.14, 0.6499, 2.549, 174.87),
                           Glare(500.14, 395.71, 126.26, 0.3540, 2.256, 118.65)),
                    shadow=0.2880, shadow_deg=264.34),
    blur_sigma=0.0, motion_px=0.0, noise_sigma=3.572, jpeg_quality=None,
)

WOOD = SceneSpec(
    cards=_cards("gnome/orell", [
        ("AD", -161.36, -231.29, -114.56, 0.0), ("AH", -152.01, -195.69, -118.27, 0.3),
        (None, -292.26, -114.73, 19.72, 0.0), ("AS", -256.24, -106.21, 26.53, 0.3),
        (None, -55.34, -288.74, 110.26, 0.0), ("7C", -42.51, -310.65, 116.19, 0.3),
        ("JC", 127.65, 39.07, 111.61, 0.0), ("KH", 144.91, 68.99, 86.62, 0.3)]),
    table=TableStyle.WOOD, table_seed=660646883,
    camera=CameraSpec(px_per_mm=1.7180, tilt_deg=33.65, roll_deg=15.24, distance_mm=725.6,
                      center_px=(690.40, 335.16)),
    light=LightSpec(warmth=0.0218, brightness=1.0875, gradient=0.3602, gradient_deg=151.52,
                    vignette=0.1606, glare=(), shadow=0.2815, shadow_deg=230.55),
    blur_sigma=1.273, motion_px=4.058, motion_deg=127.70, noise_sigma=1.775, jpeg_quality=None,
)

REAL = REAL_PHOTOS / "images"


@pytest.mark.parametrize(("spec", "lost"), [(CHECKED, ["JD", "QC"]), (WOOD, ["KH"])],
                         ids=["checked-cloth", "wood"])
def test_white_cards_on_a_busy_table_are_found(spec: SceneSpec, lost: list[str]) -> None:
    """The named cards lie whole and on top; each must be found (IoU >= 0.9), and
    nothing reported where no card lies (the table's pattern is no card)."""
    for deck in {c.deck for c in spec.cards}:
        deck_or_skip(deck)
    img, truth = SceneRenderer().render(spec, np.random.default_rng(0))
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    quads = {t.card: g.order_quad(np.asarray(t.corners, np.float32)) for t in truth}
    for card in lost:
        best = max((g.iou(c.quad, quads[card]) for c in cands), default=0.0)
        assert best >= 0.9, (card, round(best, 2))
    allq = [g.order_quad(np.asarray(t.corners, np.float32)) for t in truth]
    for c in cands:
        assert max(g.iou(c.quad, q) for q in allq) >= 0.3, "a card reported on the bare table"


@pytest.mark.skipif(not (REAL / "train" / "cam_image25.jpg").is_file(), reason="real photos not present")
def test_wood_grain_streaks_are_no_cards() -> None:
    """A real photo (training split) of one card on dark-streaked wood: the
    streaks close card-sized outlines in the darkest channel too, but they are
    darker inside than around, not paper; reported, they also pushed the card
    out (fails with darkest.PAPER_BRIGHTER at -inf: four streaks, no card).
    Only the card's part is checked, not its quad: today's is its top 60%
    (8558662's was whole)."""
    img = cv2.imread(str(REAL / "train" / "cam_image25.jpg"))
    assert img is not None
    with (REAL / "train_labels.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["filename"] == "cam_image25.jpg"]
    assert len(rows) == 1
    x0, y0, x1, y1 = (float(rows[0][k]) for k in ("xmin", "ymin", "xmax", "ymax"))
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    assert cands, "the card was lost"
    for c in cands:  # each on the card: most of its box inside the card's
        bx0, by0, bx1, by1 = g.bounding_box(c.quad)
        inter = max(0.0, min(x1, bx1) - max(x0, bx0)) * max(0.0, min(y1, by1) - max(y0, by0))
        assert inter >= 0.8 * (bx1 - bx0) * (by1 - by0), "a streak reported as a card"
