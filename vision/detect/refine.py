"""Snapping card hypotheses onto the card's true border.

Why a module of its own: guesses made from corners ignore perspective and outlines
from contours cut the rounded corners, so every quad the detector keeps is moved
side by side onto the strongest brightness step across it and the sides are
re-intersected. It runs on dozens of quads per frame, at work scale and once more at
full resolution, so it is vectorised over quads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.detect import geometry as g
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
    # Whole-pixel steps at work scale (the full-resolution pass adds the precision).
    offs = np.linspace(-reach, reach, round(2 * reach / step) + 1, dtype=np.float32)
    if kernels.COMPILED and ev.gx.dtype in (np.float32, np.int16) and ev.gy.dtype == ev.gx.dtype:
        # The points and their gradients in one compiled pass (kernels.side_samples:
        # the same figures as the numpy steps below, without their big arrays).
        q = np.ascontiguousarray(q)
        normals = np.empty((h, 4, 2), dtype=np.float32)
        cand = np.empty((h, 4, n, len(offs), 2), dtype=np.float32)
        gxs = np.empty((h, 4, n, len(offs)), dtype=np.float32)
        gys = np.empty_like(gxs)
        kernels.side_samples(np.ascontiguousarray(ev.gx), np.ascontiguousarray(ev.gy), q, t, offs,
                             np.float32(origin[0]), np.float32(origin[1]), normals, cand, gxs, gys)
        return kernels.polish_sides(gxs, gys, normals, cand, q, float(reach))
    nxt = q[:, [1, 2, 3, 0]]
    pts = lerp_points(q, nxt, t)  # (H, 4, n, 2)
    d = nxt - q
    # Normals point into the card (clockwise quad, y down).
    normals = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    normals /= lengths(normals)[..., None] + 1e-9  # (H, 4, 2)
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


@dataclass(frozen=True, slots=True, eq=False)
class _Grad:
    """Gradients of an image (what refine.refine_many samples)."""

    gx: np.ndarray
    gy: np.ndarray


def refine_full(image: np.ndarray, quads: list[np.ndarray], scale: float) -> list[np.ndarray]:
    """Snap cards found at work scale onto their borders at full resolution.

    Why: the index crop is about a quarter of the card wide; a corner off by the
    couple of pixels that the work scale allows shifts the crop noticeably. Gradients
    (16-bit Sobel) only around the cards, and one vectorised refinement for all of
    them, keep this to a few milliseconds.
    """
    if scale >= 1.0 or not quads:
        return [q.copy() for q in quads]
    reach = max(2.0, 1.5 / scale)
    stack = np.stack(quads).astype(np.float32)
    grad, origin = card_gradients(image, stack, reach + 6.0)
    moved = g.order_quads(refine_many(
        grad, stack, reach=reach, span=(0.2, 0.8), step=0.5, origin=origin))
    shaped = g.card_shaped_many(moved, max_angle_dev=35.0)
    out = []
    for q, m, ok in zip(stack, moved, shaped):
        q = g.ordered(q)
        # Sobel on the 3x3-blurred grey image scales gradients like the work scale's
        # (about 4x the step); far moves mean the full-res edge is another one.
        out.append(m if ok and np.abs(m - q).max() <= 3.0 / scale else q)
    return out


def card_gradients(
    image: np.ndarray, quads: np.ndarray, margin: float
) -> tuple[_Grad, tuple[int, int]]:
    """Full-resolution gradients of the blurred grey image over the box holding
    `quads` (N, 4, 2) widened by `margin` pixels, and the box's top-left (even x
    and y; refinement looks only a few pixels either side of a card's border).
    One box for all cards: cheaper than a box per card, and no full-size arrays."""
    h, w = image.shape[:2]
    pad = 2  # blur and Sobel read one pixel each beyond the cards' boxes
    x0 = max(0, int(quads[..., 0].min() - margin) - pad)
    y0 = max(0, int(quads[..., 1].min() - margin) - pad)
    x0, y0 = x0 - x0 % 2, y0 - y0 % 2
    x1 = min(w, int(quads[..., 0].max() + margin) + 1 + pad)
    y1 = min(h, int(quads[..., 1].max() + margin) + 1 + pad)
    if x1 - x0 < 3 or y1 - y0 < 3:  # cards all but out of the image: nothing to snap to
        none = np.zeros((1, 1), dtype=np.int16)
        return _Grad(none, none), (0, 0)
    grey = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (3, 3), 0)
    # Both 3x3 Sobel derivatives in one pass (the same 16-bit values as two
    # cv2.Sobel calls, in about a third of the time).
    gx, gy = cv2.spatialGradient(grey, ksize=3)
    return _Grad(gx, gy), (x0, y0)
