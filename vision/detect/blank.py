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


def _grid(quad: np.ndarray, u0: float, u1: float, v0: float, v1: float, n: int) -> np.ndarray:
    """Points (n*n, 2) on a grid over the part [u0, u1] x [v0, v1] of the quad
    (corner 0 at u = v = 0; u along edge 0-1, v along edge 0-3)."""
    u = np.linspace(u0, u1, n, dtype=np.float32)
    uu, vv = (m.ravel()[:, None] for m in np.meshgrid(u, np.linspace(v0, v1, n, dtype=np.float32)))
    q = quad.astype(np.float32)
    return q[0] * (1 - uu) * (1 - vv) + q[1] * uu * (1 - vv) + q[2] * uu * vv + q[3] * (1 - uu) * vv


def looks_blank(ev: Evidence, quad: np.ndarray) -> bool:
    """True if the quad (work scale) holds no ink, in either index corner nor
    anywhere else on it, and no pattern either."""
    quad = order_quad(quad)
    boxes = [_grid(quad, 0.03, 0.24, 0.03, 0.36, _INDEX_GRID),
             _grid(quad, 0.76, 0.97, 0.64, 0.97, _INDEX_GRID),
             _grid(quad, 0.06, 0.94, 0.06, 0.94, _CARD_GRID)]
    pts = np.concatenate(boxes)
    if float(np.mean(sample(ev.bright, pts[-_CARD_GRID * _CARD_GRID:]) > 0)) < 0.8:
        return False  # not white paper: a back, whatever its pattern
    vals = sample(ev.grey, pts)
    paper = float(np.percentile(vals, 75))
    if float(np.mean(vals < paper - INK_STEP)) >= 0.02:
        return False  # ink: an index, pips, a picture
    # No ink; a back's pattern may be faint, but it is a pattern: neighbouring
    # samples differ, where a sheet is smooth (at most a gentle light gradient).
    card = vals[-_CARD_GRID * _CARD_GRID:].reshape(_CARD_GRID, _CARD_GRID)
    rough = float(np.mean(np.abs(np.diff(card, axis=0)))) + float(np.mean(np.abs(np.diff(card, axis=1))))
    return rough < SMOOTH
