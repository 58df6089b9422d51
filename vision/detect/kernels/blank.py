"""Kernel of blank: the samples of a card-sized quad that tell a blank sheet from a
card (paper share, ink, smoothness), in one pass.

Why: select asks blank.looks_blank of every whole outline it is about to take
(about six a frame); numpy's version is three remaps, a partition and a dozen small
reductions, mostly per-call overhead. The figures are integers (grey levels, counts)
until the last divisions, so the loops give numpy's results exactly: the sums of
grey steps stay below 2**24 and are exact in single precision in any order.
"""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled
from vision.detect.kernels.outline import _pixel


@_compiled("int64(uint8[:, ::1], uint8[:, ::1], float32[:, ::1], float32[:, ::1], int64, float64,"
           " float64, int64[::1])")
def blank_sheet(bright: np.ndarray, grey: np.ndarray, card: np.ndarray, index: np.ndarray,
                grid: int, ink_step: float, smooth: float, ink: np.ndarray) -> int:
    """For blank.looks_blank, at the grid x grid points `card` (row by row) and the
    index corners' points `index` (nearest pixel, 0 outside, as evidence.sample):
    0 if under 80% of the card points are paper (`bright`); else, with ink = the
    points `ink_step` darker than the paper's level (the value 3/4 of the way up)
    counted into `ink` (both index halves of `index`, then all points): 2 if ink
    makes 2% or more of the points, else 1 if neighbouring card points differ by
    less than `smooth` on average both ways (a smooth sheet), 3 if not."""
    nc = card.shape[0]
    n = nc + index.shape[0]
    vals = np.empty(n, np.float32)
    rows, cols = grey.shape
    paper = 0
    for i in range(n):
        x = card[i, 0] if i < nc else index[i - nc, 0]
        y = card[i, 1] if i < nc else index[i - nc, 1]
        r, c = _pixel(x, y, rows, cols)
        vals[i] = np.float32(grey[r, c]) if r >= 0 else np.float32(0.0)
        if i < nc:
            rb, cb = _pixel(x, y, bright.shape[0], bright.shape[1])
            if rb >= 0 and bright[rb, cb] > 0:
                paper += 1
    if paper / nc < 0.8:
        return 0  # not white paper: a back, whatever its pattern
    level = np.sort(vals)[int(0.75 * (n - 1))]
    cut = np.float64(level) - ink_step
    half = (n - nc) // 2
    ink[0] = 0
    ink[1] = 0
    ink[2] = 0
    for i in range(n):
        if vals[i] < cut:
            ink[2] += 1
            if i >= nc:
                ink[0 if i < nc + half else 1] += 1
    if ink[2] / n >= 0.02:
        return 2
    down = np.float32(0.0)
    across = np.float32(0.0)
    for i in range(grid):
        for j in range(grid):
            v = vals[i * grid + j]
            if i + 1 < grid:
                down += abs(vals[(i + 1) * grid + j] - v)
            if j + 1 < grid:
                across += abs(vals[i * grid + j + 1] - v)
    steps = np.float32(grid * (grid - 1))
    return 1 if np.float64(down / steps) + np.float64(across / steps) < smooth else 3
