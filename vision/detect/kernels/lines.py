"""Kernel of whole.fit_sides: cv2.fitLine(points, cv2.DIST_HUBER, 0, reps, aeps)
for the four sides of a quad at once, the same figures bit for bit.

Why: fit_sides fits four sides of every outline quad (about 40 lines a bench frame,
0.8 ms), and OpenCV's robust fit restarts 20 times from random 10-point subsets
(its own generator, seeded alike on every call), iterating reweighted least
squares up to 30 times from each. The loops below are OpenCV's (imgproc
linefit.cpp, fitLine2D, its scalar path: single precision where it is single,
double where it is double; its multiply-with-carry generator), so every
restart gives the line OpenCV's gives. What it skips, exactly: a restart whose
subset was drawn before (always, for 10 points or fewer, where every subset is
all points) repeats an earlier restart's errors step for step, and OpenCV keeps
a line only on a strictly smaller error, so the repeat can change nothing.
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner

#: FLT_EPSILON, as OpenCV compares against it.
_FLT_EPS = 1.1920928955078125e-07
#: OpenCV's RNG multiplier (CV_RNG_COEFF) and a uint32 mask.
_RNG_COEFF = 4164903690
_LOW32 = 0xFFFFFFFF


@_inner
def _fit_weighted(p, n, w, line):  # type: ignore[no-untyped-def]
    """fitLine2D_wods with weights: moments in double of single-precision products."""
    x = 0.0
    y = 0.0
    x2 = 0.0
    y2 = 0.0
    xy = 0.0
    ws = 0.0
    for i in range(n):
        a = p[i, 0]
        b = p[i, 1]
        wi = w[i]
        x += wi * a
        y += wi * b
        x2 += wi * a * a
        y2 += wi * b * b
        xy += wi * a * b
        ws += wi
    x /= ws
    y /= ws
    x2 /= ws
    y2 /= ws
    xy /= ws
    dx2 = x2 - x * x
    dy2 = y2 - y * y
    dxy = xy - x * y
    t = np.float32(math.atan2(2.0 * dxy, dx2 - dy2)) / np.float32(2.0)
    line[0] = math.cos(t)  # single precision (cosf), as OpenCV's cos(float)
    line[1] = math.sin(t)
    line[2] = np.float32(x)
    line[3] = np.float32(y)


@_inner
def _distances(p, n, line, r):  # type: ignore[no-untyped-def]
    """calcDist2D: single-precision distances to the line, summed in double."""
    px = line[2]
    py = line[3]
    nx = line[1]
    ny = -line[0]
    s = 0.0
    for j in range(n):
        d = abs(nx * (p[j, 0] - px) + ny * (p[j, 1] - py))
        r[j] = d
        s += d
    return s


@_inner
def _fit_huber(p, n, reps, aeps, w, r, cur, prev, seen, line):  # type: ignore[no-untyped-def]
    """fitLine2D with DIST_HUBER (parameter 0: c = 1.345) for p[:n]; into line (4,)."""
    eps_err = n * _FLT_EPS
    rdelta = reps if reps != 0 else np.float32(1.0)
    adelta = aeps if aeps != 0 else np.float32(0.01)
    c = np.float32(1.345)
    min_err = np.inf
    err = 0.0
    state = np.uint64(0xFFFFFFFFFFFFFFFF)
    low = np.uint64(_LOW32)
    coeff = np.uint64(_RNG_COEFF)
    for q in range(4):
        line[q] = 0.0
    n_seen = 0
    for k in range(20):
        for i in range(n):
            w[i] = 0.0
        mask = np.uint64(0)
        i = 0
        while i < min(n, 10):
            state = (state & low) * coeff + (state >> np.uint64(32))
            j = np.int64((state & low) % np.uint64(n))
            if w[j] < _FLT_EPS:
                w[j] = 1.0
                if j < 64:
                    mask |= np.uint64(1) << np.uint64(j)
                i += 1
        if n <= 64:  # a subset drawn before: the same restart again (see module)
            again = False
            for m in range(n_seen):
                if seen[m] == mask:
                    again = True
            if again:
                continue
            seen[n_seen] = mask
            n_seen += 1
        _fit_weighted(p, n, w, cur)
        first = True
        for _ in range(30):
            if first:
                first = False
            else:
                t = np.float64(cur[0] * prev[0] + cur[1] * prev[1])
                t = min(max(t, -1.0), 1.0)
                if abs(math.acos(t)) < adelta:
                    dx = abs(cur[2] - prev[2])
                    dy = abs(cur[3] - prev[3])
                    if max(dy, dx) < rdelta:  # OpenCV: dx > dy ? dx : dy (NaN alike)
                        break
            err = _distances(p, n, cur, r)
            if err < min_err:
                min_err = err
                for q in range(4):
                    line[q] = cur[q]
                if err < eps_err:
                    break
            sw = 0.0
            for q in range(n):
                w[q] = np.float32(1.0) if r[q] < c else c / r[q]
                sw += w[q]
            if abs(sw) > _FLT_EPS:
                sw = 1.0 / sw
                for q in range(n):
                    w[q] = np.float32(w[q] * sw)
            else:
                for q in range(n):
                    w[q] = 1.0
            for q in range(4):
                prev[q] = cur[q]
            _fit_weighted(p, n, w, cur)
        if err < min_err:
            min_err = err
            for q in range(4):
                line[q] = cur[q]
            if err < eps_err:
                break


@_compiled("void(float32[:, :, ::1], int64[::1], float32, float32, float32[:, ::1])")
def huber_lines(sel: np.ndarray, counts: np.ndarray, reps: float, aeps: float,
                lines: np.ndarray) -> None:
    """lines[i] = cv2.fitLine(sel[i, :counts[i]], cv2.DIST_HUBER, 0, reps, aeps) for
    each side i (vx, vy, x0, y0), counts[i] >= 1."""
    m = sel.shape[1]
    w = np.empty(m, dtype=np.float32)
    r = np.empty(m, dtype=np.float32)
    cur = np.empty(4, dtype=np.float32)
    prev = np.empty(4, dtype=np.float32)
    seen = np.empty(20, dtype=np.uint64)
    for i in range(sel.shape[0]):
        _fit_huber(sel[i], counts[i], reps, aeps, w, r, cur, prev, seen, lines[i])
