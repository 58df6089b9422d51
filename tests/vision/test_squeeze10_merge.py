"""Squeezed frames (vision.detect.squeeze): a card's strip tells no squeeze, and
a quad the first look found round two or more cards gives way to the cards the
second look finds apart in it. Both failed before this file's commit."""

from __future__ import annotations

import math

import numpy as np

from vision.detect.squeeze import merge_looks, told_squeeze


def _card(cx: float, cy: float, angle_deg: float = 0.0, short: float = 60.0,
          aspect: float = 1.45, sx: float = 1.0, sy: float = 1.0) -> np.ndarray:
    """A card-sized rectangle turned by `angle_deg` about (cx, cy), then the
    frame resized by (sx, sy)."""
    a = math.radians(angle_deg)
    u = np.array([math.cos(a), math.sin(a)]) * short / 2
    v = np.array([-math.sin(a), math.cos(a)]) * short * aspect / 2
    c = np.array([cx, cy])
    q = np.array([c - u - v, c + u - v, c + u + v, c - u + v], dtype=np.float32)
    return (q * np.array([sx, sy], dtype=np.float32)).astype(np.float32)


def test_a_strip_tells_no_squeeze() -> None:
    """Two cards of a frame resized to 0.8 x 1 tell its squeeze (1.25); the strip
    of a third card showing past them (4.25 long, backed by edges all round) used
    to drag the estimate to the grid's end (1.67), and the look there found none."""
    cards = [_card(100, 150, 0, sx=0.8), _card(200, 150, 10, sx=0.8)]
    strip = _card(300, 150, 0, short=25, aspect=3.4, sx=0.8)
    k, sure = told_squeeze(cards + [strip], [0.9, 0.9, 0.96])
    assert sure and k is not None and abs(k - 1.25) < 0.03, k
    # A strip alone tells nothing (the frame is then looked at at the guesses).
    assert told_squeeze([strip], [0.96]) == (None, False)


def test_a_union_gives_way_to_its_cards() -> None:
    """Squeezed, two cards side by side made one outline of about a card's shape
    (real train photo IMG_2657 at 0.8 x 1); the second look, unsqueezed, found
    the two apart. Both replace the union; a card the first look had right stays,
    and two cards covering only part of a first card replace nothing."""
    left, right = _card(100, 200, sx=0.8), _card(160, 200, sx=0.8)
    union = np.array([left[0], right[1], right[2], left[3]], dtype=np.float32)
    other = _card(400, 200, 30)
    out = merge_looks([union, other], [0.9, 0.9], [left, right], [0.95, 0.82])
    assert len(out) == 3 and any(q is other for q in out)
    assert any(np.allclose(q, left) for q in out) and any(np.allclose(q, right) for q in out)
    # Cards found on a third of a big quad only: it is no union of them, and stays.
    big = _card(130, 200, short=240, aspect=1.2)
    out = merge_looks([big], [0.9], [left, right], [0.95, 0.82])
    assert any(q is big for q in out)
    # A look at a guessed squeeze (swap=False) splits a union too, but replaces
    # no card one for one.
    out = merge_looks([union], [0.9], [left, right], [0.95, 0.82], swap=False)
    assert len(out) == 2 and not any(q is union for q in out)
    one = _card(100, 200, sx=0.8) + np.float32([1.0, 0.0])
    assert merge_looks([one], [0.8], [left], [0.95], swap=False)[0] is one
    # Two quads of the same card (IoU over SAME_IOU) are no union.
    out = merge_looks([union], [0.9], [left, left + np.float32([2.0, 0.0])], [0.95, 0.9])
    assert any(q is union for q in out)


def test_a_card_found_again_with_a_piece_is_no_union() -> None:
    """The second look found a whole card again (IoU 0.99) and a piece of it
    (rendered training scene, seed 8 no. 59): no union, the card stays."""
    card = _card(100, 200, sx=0.8)
    again = card + np.float32([0.5, 0.0])
    piece = _card(100, 180, short=50, aspect=0.9, sx=0.8)
    out = merge_looks([card], [0.95], [again, piece], [0.96, 0.94])
    assert any(q is card for q in out)
