"""Kernels of patch.py's quad arithmetic: a card quad normalised (clockwise, index
corner first) and its four edge lengths, in single precision as the numpy steps.

Why: patch.normalize_quad, mean_aspect and _index_scale run for every card of
every frame (cutting its index patches, the second look's scales, the reading
rules' turns: about 40 calls a bench frame); on a (4, 2) array each numpy step is
mostly per-call overhead, a dozen of them 40-50 us a quad. The loops below do the
same float32 arithmetic in the same order (products, differences and sums in
float32, numpy's left-to-right sum for fewer than eight terms, float32 sqrt), so
the quads and lengths are numpy's bit for bit.
"""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled


@_compiled("void(float32[:, ::1], float32[::1])")
def edge_lengths(q: np.ndarray, out: np.ndarray) -> None:
    """out[i] = |q[i+1] - q[i]| (edges 0-1, 1-2, 2-3, 3-0) as patch._lengths gives it:
    sqrt(dx * dx + dy * dy) in float32."""
    for i in range(4):
        j = (i + 1) % 4
        dx = q[j, 0] - q[i, 0]
        dy = q[j, 1] - q[i, 1]
        out[i] = np.sqrt(dx * dx + dy * dy)


@_compiled("float32[:, ::1](float32[:, ::1], float32)")
def normalized_quad(q: np.ndarray, ambiguous: float) -> np.ndarray:
    """patch.normalize_quad's steps on a float32 (4, 2) quad, into a new array:
    reversed (start kept) when counter-clockwise, started one corner on when its
    first edge is the long one (sums of opposite edges compared, the long ones
    against the short ones times `ambiguous`)."""
    area = np.float32(0.0)
    for i in range(4):
        j = (i + 1) % 4
        area += q[i, 0] * q[j, 1] - q[j, 0] * q[i, 1]
    o = np.empty((4, 2), dtype=np.float32)
    for k in range(4):
        src = (4 - k) % 4 if area < 0 else k  # [0, 3, 2, 1] when counter-clockwise
        o[k, 0] = q[src, 0]
        o[k, 1] = q[src, 1]
    e = np.empty(4, dtype=np.float32)
    edge_lengths(o, e)
    if e[0] + e[2] > (e[1] + e[3]) * ambiguous:
        out = np.empty((4, 2), dtype=np.float32)
        for k in range(4):
            out[k, 0] = o[(k + 1) % 4, 0]
            out[k, 1] = o[(k + 1) % 4, 1]
        return out
    return o
