"""Kernel of splits.split_guesses: how much of each line across a card-shaped
outline runs along an edge.

Why compiled: every outline found whole is crossed by a few hundred lines (positions
times tilts, both ways) of 40 samples each; numpy's lookup of all those points and
the arrays built only to be counted cost far more than the look itself, and most
lines are given up after their first few samples. The loop works in double
precision only, so the compiled and the plain Python runs give the same counts.
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled

#: The two ways across a quad: from side (a0, a1) to the opposite side (b0, b1),
#: both walked the same way.
SPLIT_SIDES = ((0, 1, 3, 2), (1, 2, 0, 3))


@_compiled("void(uint8[:, ::1], float64[:, :, ::1], float64[::1], float64[::1], float64[::1], "
           "int64, int64, int64, int64, float64, float64, int64, int32[:, :, :, ::1])")
def split_scan(bits: np.ndarray, quads: np.ndarray, t: np.ndarray, tilts: np.ndarray,
               s: np.ndarray, k: int, need: int, bins: int, on: int, quiet_t: float,
               quiet_px: float, noisy: int, out: np.ndarray) -> None:
    """out[i, d, j, m]: of the samples at fractions `s` along the line across
    quads[i] (way d of SPLIT_SIDES) from t[j] along side a to t[j] + tilts[m]
    along side b, how many lie on an edge running the line's way (nearest pixel of
    `bits`, evidence.orientation_bits with `bins` orientation bins: the line's own
    bin and both neighbours). A line with fewer than `need` of its first or of its
    last `k` samples on such an edge is given up (0), and so is one with `on` or
    more on an edge but no quiet side: the line moved by max(quiet_t, quiet_px /
    the side's length) of the side, either way, must meet edges (any) at fewer
    than `noisy` of the samples between its first and last `k`. (A fanned card's
    border has its white margin along one side; a line of a card back's pattern
    has the pattern on both.)"""
    h, w = bits.shape
    n = s.shape[0]
    width = 180.0 / bins
    for i in range(quads.shape[0]):
        for d in range(2):
            if d == 0:
                a0, a1, b0, b1 = 0, 1, 3, 2
            else:
                a0, a1, b0, b1 = 1, 2, 0, 3
            for m in range(tilts.shape[0]):
                # The edge direction accepted: that of the line across the middle
                # (the lines of one tilt are all but parallel).
                dx = (quads[i, b0, 0] * (0.5 - tilts[m]) + quads[i, b1, 0] * (0.5 + tilts[m])
                      - quads[i, a0, 0] * 0.5 - quads[i, a1, 0] * 0.5)
                dy = (quads[i, b0, 1] * (0.5 - tilts[m]) + quads[i, b1, 1] * (0.5 + tilts[m])
                      - quads[i, a0, 1] * 0.5 - quads[i, a1, 1] * 0.5)
                ang = math.degrees(math.atan2(dy, dx))
                if ang < 0.0:
                    ang += 180.0
                if ang >= 180.0:
                    ang -= 180.0
                b = int(ang // width) % bins
                mask = (1 << b) | (1 << ((b + 1) % bins)) | (1 << ((b + bins - 1) % bins))
                for j in range(t.shape[0]):
                    ta = t[j]
                    tb = t[j] + tilts[m]
                    x0 = quads[i, a0, 0] * (1.0 - ta) + quads[i, a1, 0] * ta
                    y0 = quads[i, a0, 1] * (1.0 - ta) + quads[i, a1, 1] * ta
                    x1 = quads[i, b0, 0] * (1.0 - tb) + quads[i, b1, 0] * tb
                    y1 = quads[i, b0, 1] * (1.0 - tb) + quads[i, b1, 1] * tb
                    dx, dy = x1 - x0, y1 - y0
                    head = 0
                    tail = 0
                    total = 0
                    for q in range(n):
                        # Both ends first: most lines fail there.
                        if q < k:
                            idx = q
                        elif q < 2 * k:
                            idx = n - 1 - (q - k)
                        else:
                            idx = q - k
                        xi = int(math.floor(x0 + dx * s[idx] + 0.5))
                        yi = int(math.floor(y0 + dy * s[idx] + 0.5))
                        if 0 <= xi < w and 0 <= yi < h and (int(bits[yi, xi]) & mask) != 0:
                            total += 1
                            if q < k:
                                head += 1
                            elif q < 2 * k:
                                tail += 1
                        if (q == k - 1 and head < need) or (q == 2 * k - 1 and tail < need):
                            total = 0
                            break
                    if total >= on:
                        la = math.hypot(quads[i, a1, 0] - quads[i, a0, 0], quads[i, a1, 1] - quads[i, a0, 1])
                        shift = max(quiet_t, quiet_px / max(la, 1e-9))
                        quiet = False
                        for sign in (-1.0, 1.0):
                            ua = ta + sign * shift
                            ub = tb + sign * shift
                            u0 = quads[i, a0, 0] * (1.0 - ua) + quads[i, a1, 0] * ua
                            v0 = quads[i, a0, 1] * (1.0 - ua) + quads[i, a1, 1] * ua
                            du = quads[i, b0, 0] * (1.0 - ub) + quads[i, b1, 0] * ub - u0
                            dv = quads[i, b0, 1] * (1.0 - ub) + quads[i, b1, 1] * ub - v0
                            busy = 0
                            for idx in range(k, n - k):
                                xi = int(math.floor(u0 + du * s[idx] + 0.5))
                                yi = int(math.floor(v0 + dv * s[idx] + 0.5))
                                if 0 <= xi < w and 0 <= yi < h and bits[yi, xi] != 0:
                                    busy += 1
                            if busy < noisy:
                                quiet = True
                        if not quiet:
                            total = 0
                    out[i, d, j, m] = total
