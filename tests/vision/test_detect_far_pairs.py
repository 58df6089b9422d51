"""prune.drop_small: a pair of far cards, one lying on the other, is no piece of a
card. A slanted camera sees far cards small; drop_small kept such a card only lying
apart from every other card chosen, so the pair was dropped whole, both cards
(calibration seed 5 scene 36: a 3C whole in view on a 2S, at 0.3 of the median
card's area; the detector returned nothing near either)."""

from __future__ import annotations

import numpy as np
from vision_helpers import training_scene

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.detect.perspective import far_pair


def test_a_far_pair_is_found_both_cards() -> None:
    image, truth = training_scene(5, 36, calibration=True)
    found = detect_cards(image, DetectorConfig(with_patches=False))
    for card in ("3C", "2S"):
        t = next(t for t in truth if t.card == card)
        best = max((g.iou(c.quad, np.asarray(t.corners, np.float32)) for c in found), default=0)
        assert best >= 0.85, (card, best)


def test_a_piece_of_a_card_is_no_pair_with_it() -> None:
    assert far_pair(1093.0, 1054.0)
    assert not far_pair(1000.0, 500.0)  # half a card on its card
