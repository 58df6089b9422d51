"""Lloyd's k-means on one component's pixel positions (pipsplit._split's loop)."""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled

# (a copy of numpy.isclose's test for finite values: |a - b| <= atol + rtol * |b|)
_RTOL = 1e-05


@_compiled("Tuple((boolean, int32[:, :]))(int32[:, :], int64, int64, int64, float64, float64)")
def split_pixels(labels: np.ndarray, label: int, k: int, steps: int, atol: float,
                 spread: float) -> tuple[bool, np.ndarray]:
    """(parts alike, owner): each pixel of `labels == label` numbered 1..k by the
    nearest of k centres, 0 elsewhere; exactly pipsplit._split's numpy steps
    (farthest-first start from the first pixel in row order, at most `steps` Lloyd
    steps, stopping when no centre moves by more than `atol` as np.allclose
    judges it; not alike when a part empties or the largest part is more than
    `spread` times the smallest)."""
    h, w = labels.shape
    n = 0
    for y in range(h):
        for x in range(w):
            if labels[y, x] == label:
                n += 1
    px = np.empty(n, np.float64)
    py = np.empty(n, np.float64)
    j = 0
    for y in range(h):
        for x in range(w):
            if labels[y, x] == label:
                px[j] = x
                py[j] = y
                j += 1
    out = np.zeros((h, w), np.int32)
    if n == 0:
        return False, out
    cx = np.empty(k, np.float64)
    cy = np.empty(k, np.float64)
    cx[0] = px[0]
    cy[0] = py[0]
    for c in range(1, k):  # farthest first: the point farthest from all centres so far
        best = -1.0
        pick = 0
        for i in range(n):
            m = 0.0
            for e in range(c):
                dx = px[i] - cx[e]
                dy = py[i] - cy[e]
                v = dx * dx + dy * dy
                if e == 0 or v < m:
                    m = v
            if m > best:
                best = m
                pick = i
        cx[c] = px[pick]
        cy[c] = py[pick]
    owner = np.zeros(n, np.int64)
    sizes = np.zeros(k, np.int64)
    sx = np.empty(k, np.float64)
    sy = np.empty(k, np.float64)
    for _ in range(steps):
        sizes[:] = 0
        sx[:] = 0.0
        sy[:] = 0.0
        for i in range(n):
            best = 0.0
            pick = 0
            for e in range(k):
                dx = px[i] - cx[e]
                dy = py[i] - cy[e]
                v = dx * dx + dy * dy
                if e == 0 or v < best:
                    best = v
                    pick = e
            owner[i] = pick
            sizes[pick] += 1
            sx[pick] += px[i]
            sy[pick] += py[i]
        for e in range(k):
            if sizes[e] == 0:
                return False, out
        still = True
        for e in range(k):
            mx = sx[e] / sizes[e]
            my = sy[e] / sizes[e]
            if not (abs(mx - cx[e]) <= atol + _RTOL * abs(cx[e])
                    and abs(my - cy[e]) <= atol + _RTOL * abs(cy[e])):
                still = False
            sx[e] = mx
            sy[e] = my
        if still:
            break
        for e in range(k):
            cx[e] = sx[e]
            cy[e] = sy[e]
    small = sizes[0]
    large = sizes[0]
    for e in range(1, k):
        small = min(small, sizes[e])
        large = max(large, sizes[e])
    if large > spread * small:
        return False, out
    for i in range(n):
        out[int(py[i]), int(px[i])] = owner[i] + 1
    return True, out
