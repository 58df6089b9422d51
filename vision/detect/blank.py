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
    """True if the quad (work scale) holds no ink, in either index corner nor
    anywhere else on it, and no pattern either."""
    quad = order_quad(quad)
    card = _CARD @ quad
    if float(np.mean(sample(ev.bright, card) > 0)) < 0.8:
        return False  # not white paper: a back, whatever its pattern
    vals = np.concatenate([sample(ev.grey, card), sample(ev.grey, _INDEXES @ quad)])
    k = int(0.75 * (len(vals) - 1))
    paper = float(np.partition(vals, k)[k])
    if float(np.mean(vals < paper - INK_STEP)) >= 0.02:
        return False  # ink: an index, pips, a picture
    # No ink; a back's pattern may be faint, but it is a pattern: neighbouring
    # samples differ, where a sheet is smooth (at most a gentle light gradient).
    grid = vals[:_CARD_GRID * _CARD_GRID].reshape(_CARD_GRID, _CARD_GRID)
    rough = float(np.mean(np.abs(np.diff(grid, axis=0)))) + float(np.mean(np.abs(np.diff(grid, axis=1))))
    return rough < SMOOTH
