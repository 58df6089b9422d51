"""Kernels of faces: how much of a card patch is plain paper, and how its top corners
differ (the face or back test)."""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner


@_compiled("float64(uint8[:, :, ::1])")
def paper_share_bgr(card: np.ndarray) -> float:
    """For faces.paper_share on a contiguous BGR patch: the same histogram
    percentile of the darkest channel and the same paper test, in two passes over the
    pixels instead of a dozen small OpenCV/numpy calls. Returns -1.0 where the inner
    area is empty (the caller then asks numpy, which gives NaN)."""
    h, w = card.shape[0], card.shape[1]
    hist = np.zeros(256, np.int64)
    for y in range(h):
        for x in range(w):
            b, g, r = card[y, x, 0], card[y, x, 1], card[y, x, 2]
            hist[min(min(b, g), r)] += 1
    need = 0.97 * (h * w)
    total = 0
    ref = 256
    for v in range(256):
        total += hist[v]
        if total >= need:
            ref = v
            break
    if ref < 40:
        return 0.0
    my, mx = max(1, int(h * 0.08)), max(1, int(w * 0.08))
    if h - my <= my or w - mx <= mx:
        return -1.0
    lo = 0.72 * ref
    top = 0.25 * ref + 12
    count = 0
    for y in range(my, h - my):
        for x in range(mx, w - mx):
            b, g, r = card[y, x, 0], card[y, x, 1], card[y, x, 2]
            dark = np.int64(min(min(b, g), r))
            light = np.int64(max(max(b, g), r))
            if dark >= lo and light - dark <= top:
                count += 1
    return count / ((h - 2 * my) * (w - 2 * mx))


@_inner
def _block32(a: np.ndarray, lo: int, n: int) -> np.float32:
    """numpy's single-precision pairwise sum of a[lo:lo + n], n <= 128: eight
    partial sums (a plain loop under 8)."""
    if n < 8:
        s = np.float32(0.0)
        for i in range(n):
            s += a[lo + i]
        return s
    r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
    r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
    i = 8
    while i < n - n % 8:
        r0 += a[lo + i]
        r1 += a[lo + i + 1]
        r2 += a[lo + i + 2]
        r3 += a[lo + i + 3]
        r4 += a[lo + i + 4]
        r5 += a[lo + i + 5]
        r6 += a[lo + i + 6]
        r7 += a[lo + i + 7]
        i += 8
    s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        s += a[lo + i]
        i += 1
    return s


@_inner
def _sum32(a: np.ndarray) -> np.float32:
    """numpy's single-precision sum of a contiguous row: blocks of up to 128
    (_block32), above that the two halves (the first a multiple of 8) summed apart
    and added. Worked without recursion (numba's cached helpers cannot call
    themselves): an explicit stack, left half first."""
    lo_s = np.empty(64, np.int64)
    n_s = np.empty(64, np.int64)
    state = np.zeros(64, np.int64)  # 0: to do, 1: left half pending, 2: right half pending
    left = np.empty(64, np.float32)
    top = 0
    lo_s[0], n_s[0] = 0, a.shape[0]
    while True:
        n = n_s[top]
        if n > 128:
            n2 = n // 2
            n2 -= n2 % 8
            state[top] = 1
            lo_s[top + 1], n_s[top + 1], state[top + 1] = lo_s[top], n2, 0
            top += 1
            continue
        v = _block32(a, lo_s[top], n)
        while True:  # hand v up to the frames waiting for it
            if top == 0:
                return v
            top -= 1
            if state[top] == 1:
                left[top] = v
                state[top] = 2
                n2 = n_s[top] // 2
                n2 -= n2 % 8
                lo_s[top + 1], n_s[top + 1], state[top + 1] = lo_s[top] + n2, n_s[top] - n2, 0
                top += 1
                break
            v = left[top] + v


@_inner
def _std32(x: np.ndarray) -> np.float32:
    """ndarray.std() of a contiguous float32 row, as numpy works it out (single
    precision: mean, squared deviations, their mean, square root)."""
    n = x.shape[0]
    m = _sum32(x) / np.float32(n)
    d = np.empty(n, np.float32)
    for i in range(n):
        v = x[i] - m
        d[i] = v * v
    return np.sqrt(_sum32(d) / np.float32(n))


@_compiled("float64(uint8[:, ::1])")
def corner_asymmetry(grey: np.ndarray) -> float:
    """faces.corner_asymmetry of a contiguous grey patch: the same single-precision
    figures (top-left corner, mirrored top-right one, their mean absolute
    difference over their mean spread + 8)."""
    h, w = grey.shape
    hh, ww = int(h * 0.31), int(w * 0.22)
    rows, cols = hh - 1, ww - 1
    if rows <= 0 or cols <= 0:
        return np.nan
    n = rows * cols
    tl = np.empty(n, np.float32)
    tr = np.empty(n, np.float32)
    ad = np.empty(n, np.float32)
    k = 0
    for y in range(1, hh):
        for x in range(cols):
            a = np.float32(grey[y, 1 + x])
            b = np.float32(grey[y, w - 2 - x])
            tl[k] = a
            tr[k] = b
            ad[k] = abs(a - b)
            k += 1
    diff = _sum32(ad) / np.float32(n)
    spread = np.float32(0.5) * (_std32(tl) + _std32(tr)) + np.float32(8.0)
    return np.float64(diff / spread)
