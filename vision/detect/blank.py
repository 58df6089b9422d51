"""Telling a card from a blank sheet of card-sized paper.

Why: a note, a receipt or a business card lying on the table has a crisp,
right-angled, paper-white outline of card proportions, and nothing about its outline
tells it from a card. Its inside does: a card's face carries ink in both index
corners (and pips or a picture between them), a back carries its pattern; a blank
sheet carries neither. Only outlines seen whole are judged (a covered card may show
no index), and only when the sheet is plainly empty, so a pale or glary card is kept.
"""

from __future__ import annotations

import numpy as np

from vision.detect import kernels
from vision.detect.evidence import Evidence, sample
from vision.detect.geometry import order_quad

#: Samples across each index region and across the whole card (a grid).
_INDEX_GRID = 9
_CARD_GRID = 14
#: Ink: this many grey levels darker than the sheet's own paper.
INK_STEP = 45.0
#: Mean grey step between neighbouring grid samples (both ways) below which the
#: inside is smooth: a sheet, not a back's pattern.
SMOOTH = 6.0


def _weights(u0: float, u1: float, v0: float, v1: float, n: int) -> np.ndarray:
    """Bilinear weights (n*n, 4) of the corners for a grid over the part
    [u0, u1] x [v0, v1] of a quad (corner 0 at u = v = 0; u along edge 0-1, v
    along edge 0-3): points = weights @ quad."""
    uu, vv = (m.ravel() for m in np.meshgrid(np.linspace(u0, u1, n), np.linspace(v0, v1, n)))
    return np.stack([(1 - uu) * (1 - vv), uu * (1 - vv), uu * vv, (1 - uu) * vv], axis=1)


_CARD = _weights(0.06, 0.94, 0.06, 0.94, _CARD_GRID).astype(np.float32)
_INDEXES = np.concatenate([_weights(0.03, 0.24, 0.03, 0.36, _INDEX_GRID),
                           _weights(0.76, 0.97, 0.64, 0.97, _INDEX_GRID)]).astype(np.float32)


def looks_blank(ev: Evidence, quad: np.ndarray) -> bool:
    """True if the quad (work scale) is white paper holding no ink, in either
    index corner nor anywhere else on it, and no pattern either; or, seen big and
    whole, holding a little ink but none in one of its index corners."""
    if kernels.COMPILED:
        return _looks_blank_compiled(ev, quad)
    quad = order_quad(quad)
    card = _CARD @ quad
    if float(np.mean(sample(ev.bright, card) > 0)) < 0.8:
        return False  # not white paper: a back, whatever its pattern
    vals = np.concatenate([sample(ev.grey, card), sample(ev.grey, _INDEXES @ quad)])
    k = int(0.75 * (len(vals) - 1))
    paper = float(np.partition(vals, k)[k])
    ink = vals < paper - INK_STEP
    share = float(np.mean(ink))
    if share >= 0.02:
        # Ink: an index, pips, a picture; or a line of writing on a note, the
        # fold of an envelope. A card seen big and whole prints its index in both
        # corners: a little ink and one of them bare is a sheet.
        return (share < SPARSE and _short_side(quad) >= BIG_CARD and _in_view(ev, quad)
                and _bare_corner(ink[_CARD_GRID * _CARD_GRID:]))
    # No ink; a back's pattern may be faint, but it is a pattern: neighbouring
    # samples differ, where a sheet is smooth (at most a gentle light gradient).
    grid = vals[:_CARD_GRID * _CARD_GRID].reshape(_CARD_GRID, _CARD_GRID)
    rough = float(np.mean(np.abs(np.diff(grid, axis=0)))) + float(np.mean(np.abs(np.diff(grid, axis=1))))
    return rough < SMOOTH


def _looks_blank_compiled(ev: Evidence, quad: np.ndarray) -> bool:
    """looks_blank with the sampling and its figures in one compiled pass
    (kernels.blank_sheet, the same verdict): select asks it of every whole outline
    it takes, and numpy's version was mostly per-call overhead (about 0.3 ms a
    frame)."""
    q = np.empty((4, 2), dtype=np.float32)
    kernels.order_quad(np.ascontiguousarray(quad, dtype=np.float32), q)
    ink = np.empty(3, dtype=np.int64)
    verdict = kernels.blank_sheet(ev.bright, ev.grey, _CARD @ q, _INDEXES @ q, _CARD_GRID,
                                  INK_STEP, SMOOTH, ink)
    if verdict != 2:
        return verdict == 1  # 0: not paper; 1: smooth, no ink; 3: a faint pattern
    n = _INDEX_GRID * _INDEX_GRID
    share = int(ink[2]) / (_CARD_GRID * _CARD_GRID + 2 * n)
    return (share < SPARSE and _short_side(q) >= BIG_CARD and _in_view(ev, q)
            and min(int(ink[0]), int(ink[1])) <= BARE)


#: Below this share of ink samples a paper quad is "a little ink" (a line of
#: writing); a card's two indices alone make more once it is seen big.
SPARSE = 0.05
#: Short side (work pixels) from which an index shows crisply: on a smaller card
#: it is a few pixels that blur into the paper, and may read as bare.
BIG_CARD = 80.0
#: At most this many ink samples (of _INDEX_GRID ** 2) make an index corner bare.
BARE = 1


def _bare_corner(ink: np.ndarray) -> bool:
    """Is either index corner (ink flags of both, _INDEXES order) bare?"""
    n = _INDEX_GRID * _INDEX_GRID
    return int(ink[:n].sum()) <= BARE or int(ink[n:].sum()) <= BARE


def _short_side(quad: np.ndarray) -> float:
    """Mean of the two short sides of an ordered quad (edges 0-1 and 2-3)."""
    d = quad[[1, 2, 3, 0]] - quad
    e = np.sqrt((d * d).sum(axis=1))
    return float(min(e[0] + e[2], e[1] + e[3]) / 2)


def _in_view(ev: Evidence, quad: np.ndarray) -> bool:
    """Does the whole quad lie in the image (a card running out of it shows
    only one of its index corners)?"""
    h, w = ev.shape
    return bool(quad[:, 0].min() >= 0 and quad[:, 1].min() >= 0
                and quad[:, 0].max() <= w - 1 and quad[:, 1].max() <= h - 1)
