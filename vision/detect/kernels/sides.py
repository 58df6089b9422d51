"""Kernel of refine: the points across each side of each quad that refine_many
looks at, and the gradients there.

Why: refine_many worked these out as numpy arrays (H, 4, 24, 9, 2) of points, two
cv2.remap lookups over maps of that size, and copies between; at a few dozen quads
a frame (polishing at work scale, then the cards at full resolution) the arrays
and numpy's per-call cost were most of its time. This loop does the same
arithmetic in the same single precision, point by point (geometry.lerp_points:
a * (1 - t) + b * t; the offsets across: offset * normal added), and reads the
gradient at the pixel cv2.remap(INTER_NEAREST) reads (kernels.outline._pixel),
0 outside the image.
"""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled
from vision.detect.kernels.outline import _pixel

_SIG = ("void({g}[:, ::1], {g}[:, ::1], float32[:, :, ::1], float32[::1], float32[::1],"
        " float32, float32, float32[:, :, ::1], float32[:, :, :, :, ::1],"
        " float32[:, :, :, ::1], float32[:, :, :, ::1])")


@_compiled([_SIG.format(g="float32"), _SIG.format(g="int16")])
def side_samples(gx: np.ndarray, gy: np.ndarray, q: np.ndarray, t: np.ndarray,
                 offs: np.ndarray, ox: float, oy: float, normals: np.ndarray,
                 cand: np.ndarray, gxs: np.ndarray, gys: np.ndarray) -> None:
    """For refine.refine_many, quads q (H, 4, 2): the inward unit normal of each
    side (normals (H, 4, 2)), the points at fractions `t` along it moved by each of
    `offs` along the normal (cand (H, 4, n, K, 2)), and the gradients gx, gy at
    those points less the origin (ox, oy) of the gradient arrays (gxs, gys
    (H, 4, n, K), as float32)."""
    rows, cols = gx.shape
    one = np.float32(1.0)
    tiny = np.float32(1e-9)
    for a in range(q.shape[0]):
        for s in range(4):
            e = (s + 1) % 4
            ax, ay, bx, by = q[a, s, 0], q[a, s, 1], q[a, e, 0], q[a, e, 1]
            # Normals point into the card (clockwise quad, y down), as refine_many:
            # (-dy, dx) over its length (+1e-9, in single precision).
            nx = -(by - ay)
            ny = bx - ax
            ln = np.float32(np.sqrt(nx * nx + ny * ny)) + tiny
            nx = nx / ln
            ny = ny / ln
            normals[a, s, 0] = nx
            normals[a, s, 1] = ny
            for i in range(t.shape[0]):
                u = one - t[i]
                px = ax * u + bx * t[i]
                py = ay * u + by * t[i]
                for j in range(offs.shape[0]):
                    cx = px + offs[j] * nx
                    cy = py + offs[j] * ny
                    cand[a, s, i, j, 0] = cx
                    cand[a, s, i, j, 1] = cy
                    r, c = _pixel(cx - ox, cy - oy, rows, cols)
                    if r >= 0:
                        gxs[a, s, i, j] = np.float32(gx[r, c])
                        gys[a, s, i, j] = np.float32(gy[r, c])
                    else:
                        gxs[a, s, i, j] = np.float32(0.0)
                        gys[a, s, i, j] = np.float32(0.0)
