"""Kernel of printed: is a quad a shape printed on a card (paper all round its
outside, ink just inside its border)?

Why: printed_on_card asks this of every outline a frame proposes, four times a
frame (a few dozen quads each), through two rings of sample points, two colour
lookups and a dozen numpy steps on small arrays, mostly numpy's per-call cost. This
loop does the same arithmetic in the same single precision (printed.rings:
geometry.lerp_points along each side, the normal over its length + 1e-9, the
inset and outset at least 2 and 3 px; the pixel cv2.remap(INTER_NEAREST) reads,
black outside the image; the medians of 32 samples as np.median gives them).
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner
from vision.detect.kernels.outline import _pixel


@_inner
def _min_sat(color: np.ndarray, x: float, y: float) -> tuple[float, float]:
    """Darkest channel and saturation (max - min channel) of the pixel
    cv2.remap(INTER_NEAREST) reads at (x, y), as float32; 0, 0 outside."""
    r, c = _pixel(x, y, color.shape[0], color.shape[1])
    if r < 0:
        return np.float32(0.0), np.float32(0.0)
    b = np.float32(color[r, c, 0])
    g = np.float32(color[r, c, 1])
    rr = np.float32(color[r, c, 2])
    mn = min(min(b, g), rr)
    return mn, max(max(b, g), rr) - mn


@_inner
def _median(v: np.ndarray) -> float:
    """np.median of a float32 vector (sorted in place): the middle value, or the
    float32 mean of the middle two."""
    v.sort()
    n = v.shape[0]
    if n % 2 == 1:
        return v[n // 2]
    return (v[n // 2 - 1] + v[n // 2]) / np.float32(2.0)


@_compiled("void(uint8[:, :, ::1], float32[:, :, ::1], float32[::1], float32, float32, float32,"
           " float32, float64, float64, boolean[::1])")
def printed_flags(color: np.ndarray, quads: np.ndarray, t: np.ndarray, inset: float,
                  outset: float, sat_max: float, mn_min: float, outer_paper: float,
                  inner_ink: float, out: np.ndarray) -> None:
    """For printed.printed_on_card: out[a] when, of the ring of points `outset`
    times quad a's short side outside its border (at fractions `t` along each
    side), at least `outer_paper` are paper (saturation <= sat_max, darkest channel
    >= mn_min), and of the ring `inset` inside it at least `inner_ink` are ink
    (darkest channel 40 under the outer ring's median, or saturation 60 over its
    median)."""
    n = t.shape[0]
    m = 4 * n
    one = np.float32(1.0)
    tiny = np.float32(1e-9)
    two = np.float32(2.0)
    mn_i = np.empty(m, np.float32)
    sat_i = np.empty(m, np.float32)
    mn_o = np.empty(m, np.float32)
    sat_o = np.empty(m, np.float32)
    for a in range(quads.shape[0]):
        ln = np.empty(4, np.float32)
        for s in range(4):
            e = (s + 1) % 4
            dx, dy = quads[a, e, 0] - quads[a, s, 0], quads[a, e, 1] - quads[a, s, 1]
            ln[s] = np.float32(np.sqrt(dx * dx + dy * dy))
        short = min(ln[0] + ln[2], ln[1] + ln[3]) / two
        din = short * inset
        if not din > np.float32(2.0) and not math.isnan(din):  # np.maximum(2, x): NaN stays
            din = np.float32(2.0)
        dout = short * outset
        if not dout > np.float32(3.0) and not math.isnan(dout):
            dout = np.float32(3.0)
        paper = 0
        for s in range(4):
            e = (s + 1) % 4
            ax, ay, bx, by = quads[a, s, 0], quads[a, s, 1], quads[a, e, 0], quads[a, e, 1]
            dx, dy = bx - ax, by - ay
            ll = ln[s] + tiny
            nx, ny = -dy / ll, dx / ll  # inwards
            ix, iy = nx * din, ny * din
            ox, oy = -(nx * dout), -(ny * dout)
            for i in range(n):
                u = one - t[i]
                px = ax * u + bx * t[i]
                py = ay * u + by * t[i]
                k = s * n + i
                mn_i[k], sat_i[k] = _min_sat(color, px + ix, py + iy)
                mn, sat = _min_sat(color, px + ox, py + oy)
                mn_o[k], sat_o[k] = mn, sat
                if sat <= sat_max and mn >= mn_min:
                    paper += 1
        if not paper / m >= outer_paper:
            out[a] = False
            continue
        ref = _median(mn_o) - np.float32(40.0)
        ref_sat = _median(sat_o) + np.float32(60.0)
        ink = 0
        for k in range(m):
            if mn_i[k] <= ref or sat_i[k] >= ref_sat:
                ink += 1
        out[a] = ink / m >= inner_ink
