"""extend.extend_parts grows a card found as its half over the card it lies on.

A card lying on another was found as its half (a cut through its print), and the
card grown from it was refused for running over the card under it, so the
corner patches of the half showed no index (calibration seed 5 scene 52: a QD on
a 9C, outlined at IoU 0.51). A grown card nearly point-symmetric (OVER_SYMMETRY)
is a card lying on the other, and is kept. Fails without it: best IoU 0.51.
"""

from __future__ import annotations

import numpy as np
from vision_helpers import training_scene

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g


def test_a_half_found_on_another_card_is_grown_over_it() -> None:
    image, truth = training_scene(5, 52, calibration=True)
    found = detect_cards(image, DetectorConfig(with_patches=False))
    t = next(t for t in truth if t.card == "QD")
    best = max((g.iou(c.quad, np.asarray(t.corners, np.float32)) for c in found), default=0)
    assert best >= 0.85, best
