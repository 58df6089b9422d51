"""Snapping card hypotheses onto the card's true border.

Why a module of its own: guesses made from corners ignore perspective and outlines
from contours cut the rounded corners, so every quad the detector keeps is moved
side by side onto the strongest brightness step across it and the sides are
re-intersected. It runs on dozens of quads per frame, at work scale and once more at
full resolution, so it is vectorised over quads.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from vision.detect import kernels
from vision.detect.geometry import add_points, lengths, lerp_points


class Gradients(Protocol):
    """Anything with x and y gradient images (vision.detect.evidence.Evidence)."""

    @property
    def gx(self) -> np.ndarray: ...

    @property
    def gy(self) -> np.ndarray: ...


def refine_many(
    ev: Gradients, quads: np.ndarray, reach: float = 4.0, span: tuple[float, float] = (0.12, 0.88),
    step: float = 1.0, origin: tuple[int, int] = (0, 0),
) -> np.ndarray:
    """Move each side onto the strongest gradient across it within `reach` pixels
    (brighter inwards: the paper's own border, not the outer rim of its shadow),
    fit a line to those points, and intersect neighbouring sides. Sides with too
    little evidence (hidden under another card) stay where they are. Vectorised over
    quads (H, 4, 2): the detector polishes dozens of guesses per frame. `origin`: the
    image pixel (even x, even y) at which the gradient arrays start, when they
    cover only part of the image. `span`: the
    stretch of each side sampled (narrower keeps clear of indices printed near the
    corners, wider helps sides partly hidden under another card)."""
    q = np.asarray(quads, dtype=np.float32)
    h = len(q)
    if h == 0:
        return q
    n = 24
    t = np.linspace(span[0], span[1], n, dtype=np.float32)
    nxt = q[:, [1, 2, 3, 0]]
    pts = lerp_points(q, nxt, t)  # (H, 4, n, 2)
    d = nxt - q
    # Normals point into the card (clockwise quad, y down).
    normals = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    normals /= lengths(normals)[..., None] + 1e-9  # (H, 4, 2)
    # Whole-pixel steps at work scale (the full-resolution pass adds the precision).
    offs = np.linspace(-reach, reach, round(2 * reach / step) + 1, dtype=np.float32)
    cand = add_points(pts[:, :, :, None, :], offs[None, None, None, :, None] * normals[:, :, None, None, :])
    flat = np.ascontiguousarray(cand.reshape(h * 4, -1, 2), dtype=np.float32)
    if origin != (0, 0):
        # Exact shift (whole pixels); even, so remap's rounding of halves agrees.
        flat = np.stack([flat[..., 0] - np.float32(origin[0]), flat[..., 1] - np.float32(origin[1])], axis=-1)
    # cv2.remap as a fast nearest-pixel lookup; outside the image the gradient is 0.
    gxs = cv2.remap(ev.gx, flat, None, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0).reshape(cand.shape[:4]).astype(np.float32, copy=False)
    gys = cv2.remap(ev.gy, flat, None, cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=0).reshape(cand.shape[:4]).astype(np.float32, copy=False)
    # The strongest step across each side, two line fits and the corners
    # re-intersected: one compiled loop (kernels.polish_sides; numpy's per-call
    # overhead on these small arrays was most of the time).
    return kernels.polish_sides(gxs, gys, np.ascontiguousarray(normals, dtype=np.float32),
                                np.ascontiguousarray(cand, dtype=np.float32),
                                np.ascontiguousarray(q, dtype=np.float32), float(reach))

