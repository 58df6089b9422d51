"""vision.detect.beside: the card under a card found whole, beside it at the end
of an outline holding both (a row of two, the second laid over most of the first).

The photo and hand-laid tests fail on the detector before vision/detect/beside.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip, matched_box_ious

from vision.detect import DetectorConfig, beside, detect_cards
from vision.detect import geometry as g
from vision.detect.tableau import Placement, lay
from vision.evaluate import REAL_PHOTOS

REAL = REAL_PHOTOS / "images"
real_only = pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(),
                               reason="real photos not present")
CARD_H = 170


@real_only
def test_strip_card_beside_a_card_found_whole_is_found() -> None:
    """IMG_2619: the Q of diamonds found whole, the 10 of spades under it showing
    a strip beside it (the two cards a few degrees apart, so their outline is no
    card); the strip card was lost. Both must be found, and no more."""
    ious, n = matched_box_ious("IMG_2619.JPG")
    assert min(ious) > 0.4, [round(v, 2) for v in ious]
    assert n == len(ious)


@real_only
def test_near_square_row_of_two_is_no_card() -> None:
    """IMG_2535: the 10 of hearts and a strip of the card under it, nearly square
    and backed all round, were chosen as one card (box IoU with the 10 under
    0.4). The 10 must be found."""
    ious, _ = matched_box_ious("IMG_2535.JPG")
    assert min(ious) > 0.4, [round(v, 2) for v in ious]


@real_only
def test_squeezed_row_of_two_is_no_card() -> None:
    """IMG_2650 resized 0.8 x 1: the A and the J laid half over it were reported
    as one quad (read as the Q lying beside them: a wrong reading). No quad may
    hold both cards' labelled boxes."""
    import cv2

    from vision.evaluate import real_labels, stretched

    img = stretched(cv2.imread(str(REAL / "train" / "IMG_2650.JPG")), 0.8, 1.0)
    boxes = {rank: (x0 * 0.8, y0, x1 * 0.8, y1)
             for rank, (x0, y0, x1, y1) in real_labels(REAL_PHOTOS, "train")["IMG_2650.JPG"]}
    found = [g.bounding_box(c.quad) for c in detect_cards(img, DetectorConfig(with_patches=False))]

    def holds(f: tuple[float, ...], b: tuple[float, ...]) -> bool:
        w = min(f[2], b[2]) - max(f[0], b[0])
        h = min(f[3], b[3]) - max(f[1], b[1])
        return w > 0 and h > 0 and w * h >= 0.8 * (b[2] - b[0]) * (b[3] - b[1])

    assert not any(holds(f, boxes["A"]) and holds(f, boxes["J"]) for f in found)


@pytest.mark.parametrize(("kind", "bottom", "top"), [("felt", "10H", "QD"), ("wood", "AH", "9D")])
def test_covered_card_of_a_row_of_two(kind: str, bottom: str, top: str) -> None:
    """Two cards side by side, the second laid over the first leaving 30% of it
    in view (its index corner): the covered card was found as the strip only
    (IoU 0.48 with the card) or not at all. It must be found whole (IoU >= 0.6),
    the top card too, and nothing more."""
    deck = deck_or_skip("gnome/anglo")
    w = CARD_H * 63 / 88
    place = [Placement(bottom, (640 + 0.15 * w, 360), 0.0), Placement(top, (640 - 0.35 * w, 360), 0.0)]
    img, laid = lay(deck, place, kind=kind, seed=3, card_height=CARD_H)
    quads = [c.quad for c in detect_cards(img, DetectorConfig(with_patches=False))]
    for x in laid:
        card = g.order_quad(x.corners)
        assert max((g.iou(q, card) for q in quads), default=0.0) >= 0.6, x.card
    assert len(quads) == 2


def test_guess_stands_on_the_rows_far_end() -> None:
    """A card 60 x 90 px and a row's outline 90 x 90 px holding it at its left
    end: the guess is a card 60 px wide standing on the row's right side; a row
    lower than the card (not one card high) gives none."""
    card = np.array([[0, 0], [60, 0], [60, 90], [0, 90]], np.float32)
    row = np.array([[0, 0], [90, 0], [90, 90], [0, 90]], np.float32)
    (guess,), _ = beside.beside_guesses([row], [card], [1.0])
    want = np.array([[30, 0], [90, 0], [90, 90], [30, 90]], np.float32)
    assert g.iou(guess, want) > 0.97
    low = np.array([[0, 10], [90, 10], [90, 70], [0, 70]], np.float32)
    assert beside.beside_guesses([low], [card], [1.0])[0] == []


def test_kernel_compiled_and_plain_agree() -> None:
    """kernels.beside_pairs and beside_quads, compiled at import, pick the same
    cards and give the same guesses as their plain Python loops (CARDTABLE_NO_JIT
    machines run those), on random cards and rows."""
    from vision.detect.kernels import COMPILED
    from vision.detect.kernels.beside import beside_pairs, beside_quads

    if not COMPILED:
        pytest.skip("numba missing or CARDTABLE_NO_JIT set")
    assert len(beside_pairs.signatures) == 1
    rng = np.random.default_rng(5)
    card = np.array([[0, 0], [60, 0], [60, 88], [0, 88]], np.float32)
    cards = np.stack([card + rng.uniform(0, 40, 2).astype(np.float32) for _ in range(30)])
    rows = np.stack([np.array([[0, 0], [w, 0], [w, 88], [0, 88]], np.float32)
                     + rng.uniform(0, 40, 2).astype(np.float32) for w in rng.uniform(60, 140, 60)])
    sup = rng.uniform(0.85, 1.0, 30)
    args = (1.15, 2.0, 1.2, 2.2, 0.12, 0.25, 1.05, 0.1)
    fast = np.empty((60, 2), np.int64)
    plain = np.empty((60, 2), np.int64)
    beside_pairs(cards, sup, rows, *args, fast)
    beside_pairs.py_func(cards, sup, rows, *args, plain)
    assert (fast >= 0).any()
    assert (fast == plain).all()
    assert len(beside_quads.signatures) == 1
    out_fast = np.zeros((120, 4, 2), np.float32)
    out_plain = np.zeros((120, 4, 2), np.float32)
    n = beside_quads(cards, rows, fast, out_fast)
    assert n == beside_quads.py_func(cards, rows, fast, out_plain) == int((fast >= 0).sum())
    np.testing.assert_allclose(out_fast[:n], out_plain[:n], atol=1e-3)
