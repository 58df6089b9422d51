"""How the second look at a squeezed frame is merged with the first
(vision.detect.squeeze_merge.merge_looks): a card the first look saw misshapen is
replaced by the second look's, a covered card's visible part is not.

The real-photo tests failed on the commit before merge_looks (a3db5d7): the
second look only added cards where the first had none, so the misshapen quad
stayed and its index corners were cut wrong (the card was not read)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import real_boxes

from vision.detect import detect_cards
from vision.detect import geometry as g
from vision.detect.squeeze_merge import NEW_IOU, SUPPORT_GAIN, merge_looks
from vision.evaluate import REAL_PHOTOS, best_matches, real_labels, stretched

REAL = REAL_PHOTOS / "images"


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


def test_a_card_alone_in_the_second_look_is_added() -> None:
    first = [_rect(0, 0, 60, 87)]
    second = [_rect(0, 0, 60, 87), _rect(200, 0, 260, 87)]
    out = merge_looks(first, [0.95], second, [0.95, 0.9])
    assert len(out) == 2 and out[0] is first[0] and out[1] is second[1]


def _turned(cx: float, cy: float, angle_deg: float) -> np.ndarray:
    """A 60 x 87 card turned by `angle_deg` about (cx, cy)."""
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return ((_rect(-30, -43.5, 30, 43.5) @ rot.T) + [cx, cy]).astype(np.float32)


def test_a_card_beside_a_tilted_one_is_added() -> None:
    """Two cards tilted alike, the second lying a little over the first: their
    boxes overlap by over NEW_IOU, the cards by far less; the second look's
    card is new (IMG_2628's covered queen, squeezed 1 x 0.8)."""
    a, b = _turned(100, 100, 40), _turned(140, 105, 40)
    assert g.box_iou(g.bounding_box(a), g.bounding_box(b)) > NEW_IOU > g.iou(a, b)
    out = merge_looks([a], [0.95], [a, b], [0.95, 0.8])
    assert len(out) == 2 and out[1] is b


def test_a_misshapen_card_and_its_piece_are_replaced() -> None:
    """The first look cut a squeezed card into a quad too short and a piece
    inside it; the second look's whole card, better backed by the edges,
    replaces both. At equal support the first look's quads stay."""
    card = _rect(100, 100, 160, 187)
    first = [_rect(100, 100, 160, 170), _rect(100, 110, 160, 150), _rect(0, 0, 60, 87)]
    out = merge_looks(first, [0.9, 0.85, 1.0], [card], [0.97])
    assert len(out) == 2 and out[0] is card and out[1] is first[2]
    same = merge_looks(first, [0.9, 0.85, 1.0], [card], [0.9 + SUPPORT_GAIN / 2])
    assert all(a is b for a, b in zip(same, first)) and len(same) == 3


def test_a_covered_cards_visible_part_does_not_replace_it() -> None:
    """A card half under another: the first look completed it under the top
    card; the second look's quad stops at the top card's border (its edges
    back it all round, so it scores better), which is no card: it stays."""
    top = _rect(0, 0, 60, 87)
    under = _rect(30, 20, 90, 107)
    visible = _rect(60, 20, 90, 107)
    out = merge_looks([top, under], [1.0, 0.8], [top, visible], [1.0, 0.98])
    assert out[1] is under


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
@pytest.mark.parametrize("name, sx, sy", [
    ("IMG_2464.JPG", 1.0, 0.8), ("IMG_2429.JPG", 1.0, 0.8), ("IMG_2498.JPG", 0.8, 1.0),
])
def test_squeezed_lone_card_is_read(name: str, sx: float, sy: float) -> None:
    """Real train photos of one card, squeezed to 80% of one side: the first
    look found the card misshapen (its index corners cut wrong: not read); the
    second look's quad replaces it and the card is read as labelled."""
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_candidates

    img = stretched(cv2.imread(str(REAL / "train" / name)), sx, sy)
    (rank, _), = real_labels(REAL_PHOTOS, "train")[name]
    boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy) for x0, y0, x1, y1 in real_boxes("train", name)]
    seen = read_candidates(IndexClassifier.load(), img, detect_cards(img))
    found = [g.bounding_box(np.asarray(s.corners, dtype=np.float32)) for s in seen]
    (j,) = best_matches([[g.box_iou(b, f) for f in found] for b in boxes], 0.4)
    assert j is not None
    card = seen[j].card
    assert card is not None and card[:-1] == rank, (card, rank)
