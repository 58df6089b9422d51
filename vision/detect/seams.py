"""Seams: the border of one card running across an outline that spans two.

Why: two cards lying side by side, or one shifted along the other (a fan, a sloppy
stack), make one outline whose shape is card-like (card aspects run from 1.05 to 2
once the camera is tilted), fully backed by edges. What gives it away is the border
of the upper card (or the gap between the two) crossing it from side to side, parallel
to two of its sides. A real card has no such line: its pips, pictures and frames stop
at its white margin, short of its border.
"""

from __future__ import annotations

import numpy as np

from vision.detect.evidence import Evidence, sample, side_masks

#: Where across the quad seams are looked for (fractions of the width or height).
OFFSETS = np.linspace(0.12, 0.88, 26, dtype=np.float32)
#: Points sampled along each candidate seam, its two ends reaching into the margin.
ALONG = np.concatenate([[0.01, 0.025, 0.04], np.linspace(0.1, 0.9, 13), [0.96, 0.975, 0.99]])
ALONG = ALONG.astype(np.float32)


def has_seam(ev: Evidence, quads: np.ndarray, min_on: float = 0.8) -> np.ndarray:
    """Per quad (H, 4, 2, work scale): True if an edge runs straight across it,
    parallel to a pair of its sides, from one border to the opposite one (edges at
    both ends, in the margin where a card prints nothing, and along `min_on` of
    the way)."""
    q = np.asarray(quads, dtype=np.float32)
    h = len(q)
    if h == 0:
        return np.zeros(0, dtype=bool)
    out = np.zeros(h, dtype=bool)
    f = OFFSETS[None, :, None]
    t = ALONG[None, None, :, None]
    ends = np.r_[0:3, len(ALONG) - 3:len(ALONG)]
    for a, b, c, d in ((0, 3, 1, 2), (0, 1, 3, 2)):
        # Lines from side a-b to side c-d, at offsets f along those sides.
        start = q[:, None, a] * (1 - f) + q[:, None, b] * f  # (H, K, 2)
        end = q[:, None, c] * (1 - f) + q[:, None, d] * f
        pts = start[:, :, None, :] * (1 - t) + end[:, :, None, :] * t  # (H, K, M, 2)
        dv = end - start
        ang = np.degrees(np.arctan2(dv[..., 1], dv[..., 0]))  # (H, K)
        masks = side_masks(ang)[:, :, None]
        v = sample(ev.bits, pts.reshape(-1, 2)).reshape(pts.shape[:3]).astype(np.int64)
        on = (v & masks) != 0  # (H, K, M)
        end_ok = on[:, :, ends].reshape(h, len(OFFSETS), 2, 3).any(axis=3).all(axis=2)
        seam = end_ok & (on.mean(axis=2) >= min_on)
        out |= seam.any(axis=1)
    return out
