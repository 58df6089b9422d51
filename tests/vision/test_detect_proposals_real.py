"""Detector proposals (vision.detect.proposals) on real phone photos: cards that got
no quad at all among the hypotheses.

Each test failed on the commit before its fix (f60f437)."""

from __future__ import annotations

import cv2
import pytest
from vision_helpers import real_boxes

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.evaluate import REAL_PHOTOS, best_matches

REAL = REAL_PHOTOS / "images"
pytestmark = pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(),
                                reason="real photos not present")




def _matched(name: str) -> tuple[list[float], int]:
    """Box IoU of each labelled card with the detection matched to it as the real
    photo evaluation matches them (one each, above 0.4; 0 when none), and how many
    cards were detected."""
    img = cv2.imread(str(REAL / "train" / name))
    assert img is not None
    boxes = real_boxes("train", name)
    found = [g.bounding_box(c.quad) for c in detect_cards(img, DetectorConfig(with_patches=False))]
    iou = [[g.box_iou(b, f) for f in found] for b in boxes]
    return [iou[i][j] if j is not None else 0.0
            for i, j in enumerate(best_matches(iou, 0.4))], len(found)


@pytest.mark.parametrize("name", ["IMG_2618.JPG", "IMG_2599.JPG", "IMG_2620.JPG"])
def test_pair_lying_nearly_edge_to_edge_is_found(name: str) -> None:
    """Two cards on wood, the covered one showing 10-40 px past the top one along
    a side, the other sides nearly in line: their outlines merge into one whose
    notch the coarse simplification smoothed away, so the top card's side seemed
    to run on over the covered card, longer than a card of its width, and no
    corner guess fitted either card (IMG_2618: nothing found; 2599 and 2620: the
    covered card missed). Both must be found, and nothing else."""
    ious, n = _matched(name)
    assert min(ious) > 0.4, [round(v, 2) for v in ious]
    assert max(ious) >= 0.85, [round(v, 2) for v in ious]
    assert n == len(ious)


def test_top_card_of_a_fan_with_a_card_shaped_outline_is_found() -> None:
    """Three cards fanned out on wood, ends nearly in line: their joint outline is
    card-shaped and was found whole, one "card" over all three; the top card's
    border crosses it from side to side (T-junctions, no corner). The top card
    must be found (box IoU >= 0.9; it was 0.5), and no more cards than lie
    there (IMG_2648)."""
    ious, n = _matched("IMG_2648.JPG")
    assert max(ious) >= 0.9, [round(v, 2) for v in ious]
    assert n <= len(ious)
