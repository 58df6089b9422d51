"""Real train photos resized non-uniformly through the detector's second look
(vision.detect.squeeze): a union of cards the look finds apart gives way to
them; a whole card does not give way to a piece of it and itself cut short;
and the looks guessed for a lone sure card add no quads of no card. The unions
failed before session 10's merge (reverted, taken again in session 11); the
queen at 0.75 x 1 and 1.25 x 1 and the lone-card photos' counts failed with
session 10's merge."""

from __future__ import annotations

import cv2
import pytest
from vision_helpers import real_boxes, squeezed_detections

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.evaluate import REAL_PHOTOS, stretched

REAL = REAL_PHOTOS / "images"
HAVE = (REAL / "train_labels.csv").is_file()


@pytest.mark.skipif(not HAVE, reason="real photos not present")
@pytest.mark.parametrize("name, sx, sy, cards", [
    # One sure quad round a nine and a ten told 1.67 (the squeeze is 1.25): the
    # guessed look at 1.25 finds the two apart, and they replace the union.
    ("IMG_2681.JPG", 1.0, 1.25, [0, 1]),
    # A quad round a fan of three told 1.32; the look there found the ten apart
    # from the two kings (found as one), but a union was only replaced one for one.
    ("IMG_2657.JPG", 0.8, 1.0, [0, 2]),
    # Two cards side by side under one quad, in both directions.
    ("IMG_2633.JPG", 0.8, 1.0, [0, 1]),
    ("IMG_2633.JPG", 1.0, 0.8, [0, 1]),
    ("IMG_2602.JPG", 0.75, 1.0, [0, 1]),
])
def test_squeezed_union_gives_its_cards(name: str, sx: float, sy: float,
                                        cards: list[int]) -> None:
    """The labelled cards `cards` (indices into the photo's labels) are found,
    and no more quads than labelled cards."""
    iou, match, n_found = squeezed_detections(name, sx, sy)
    assert all(match[i] is not None for i in cards), [[round(v, 2) for v in row] for row in iou]
    assert n_found <= len(match)


@pytest.mark.skipif(not HAVE, reason="real photos not present")
@pytest.mark.parametrize("sx, sy", [(0.75, 1.0), (1.25, 1.0)])
def test_whole_queen_is_no_union(sx: float, sy: float) -> None:
    """IMG_2576: a nine and a queen. The look at the told squeeze found the queen
    cut short above its lower index and a piece of its lower corner, together
    covering it; split, the queen went unread at 0.75 x 1 and a third quad was
    added. Unsqueezed the queen's quad has a card's shape and the two lie on
    each other: no union (squeeze_merge._card_not_union)."""
    iou, match, n_found = squeezed_detections("IMG_2576.JPG", sx, sy)
    assert all(m is not None for m in match), iou
    assert n_found == 2


@pytest.mark.skipif(not HAVE, reason="real photos not present")
@pytest.mark.parametrize("name, sx, sy, most", [
    # Detections before session 10's merge; its guessed looks for a lone sure
    # card added one quad of no card to each.
    ("IMG_2454.JPG", 1.0, 1.0, 6),
    ("IMG_2506.JPG", 0.8, 1.0, 2),
    ("IMG_2508.JPG", 1.25, 1.0, 3),
    ("IMG_2504.JPG", 1.0, 1.25, 3),
])
def test_lone_card_guesses_add_no_quads(name: str, sx: float, sy: float, most: int) -> None:
    iou, _match, n_found = squeezed_detections(name, sx, sy)
    assert n_found <= most, iou


@pytest.mark.skipif(not HAVE, reason="real photos not present")
def test_whole_card_is_not_cut_into_halves() -> None:
    """IMG_2489 at 0.75 x 1: a queen alone, its outline backed all round (1.0);
    the look at its squeeze finds the two halves of its picture, each about a
    card's shape. They are no cards of a union: the queen stays whole (with the
    union split unguarded it gave way to them and went unread)."""
    img = stretched(cv2.imread(str(REAL / "train" / "IMG_2489.JPG")), 0.75, 1.0)
    (x0, y0, x1, y1), = real_boxes("train", "IMG_2489.JPG")
    found = [g.bounding_box(c.quad) for c in detect_cards(img, DetectorConfig(with_patches=False))]
    assert len(found) == 1 and g.box_iou((x0 * 0.75, y0, x1 * 0.75, y1), found[0]) > 0.7
