"""Kernels of refine and whole: outline points along a quad's sides, side
line fits (numpy's pairwise summation order) and the corners where fitted sides cross."""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner


@_compiled("int64(float32[:, ::1], float32[:, ::1], float32, float32[:, :, ::1], int64[::1])")
def select_side_points(pts: np.ndarray, q: np.ndarray, band: float, out: np.ndarray,
                       counts: np.ndarray) -> int:
    """For whole.fit_sides: copy the outline points (N, 2) lying along the middle
    70% of each side i of the quad q (4, 2), within `band` px across it, into
    out[i, :counts[i]]. Returns the smallest count. Single precision throughout, limits
    worked out in double and rounded, as the numpy version did."""
    n = pts.shape[0]
    least = n
    for i in range(4):
        j = (i + 1) % 4
        dx = q[j, 0] - q[i, 0]
        dy = q[j, 1] - q[i, 1]
        ln = np.float32(np.hypot(dx, dy))  # float32 hypot, as numpy's
        ux = dx / ln
        uy = dy / ln
        lo = np.float32(0.15 * np.float64(ln))
        hi = np.float32(0.85 * np.float64(ln))
        qx = q[i, 0]
        qy = q[i, 1]
        k = 0
        for m in range(n):
            rx = pts[m, 0] - qx
            ry = pts[m, 1] - qy
            al = rx * ux + ry * uy
            ac = rx * uy - ry * ux
            if al > lo and al < hi and abs(ac) <= band:
                out[i, k, 0] = pts[m, 0]
                out[i, k, 1] = pts[m, 1]
                k += 1
        counts[i] = k
        least = min(least, k)
    return least


@_compiled("boolean(float32[:, ::1], float32[:, ::1])")
def cross_sides(lines: np.ndarray, res: np.ndarray) -> bool:
    """For whole.fit_sides: corner i where fitted line i-1 meets line i (lines
    (4, 4) as cv2.fitLine gives them: vx, vy, x0, y0), into res (4, 2); False if two
    neighbouring lines are (nearly) parallel."""
    for i in range(4):
        h = (i + 3) % 4
        d2x, d2y, p2x, p2y = lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3]
        d1x, d1y, p1x, p1y = lines[h, 0], lines[h, 1], lines[h, 2], lines[h, 3]
        det = d1x * -d2y + d2x * d1y
        if abs(det) < 1e-6:
            return False
        t = ((p2x - p1x) * -d2y + d2x * (p2y - p1y)) / det
        res[i, 0] = p1x + d1x * t
        res[i, 1] = p1y + d1y * t
    return True


@_inner
def _pairwise_sum(a: np.ndarray) -> float:
    """numpy's float64 sum of a short contiguous row (eight partial sums): the same
    rounding as the `.sum(axis=-1)` it replaces."""
    n = a.shape[0]
    if n < 8:
        s = 0.0
        for i in range(n):
            s += a[i]
        return s
    r0, r1, r2, r3 = a[0], a[1], a[2], a[3]
    r4, r5, r6, r7 = a[4], a[5], a[6], a[7]
    i = 8
    while i < n - n % 8:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        s += a[i]
        i += 1
    return s


@_inner
def _fit_line(fx: np.ndarray, fy: np.ndarray, w: np.ndarray, lines: np.ndarray, k: int) -> None:
    """Weighted total-least-squares line through (fx, fy): centre and unit direction
    into lines[k] (as refine._fit_lines did for one side)."""
    n = fx.shape[0]
    sw = _pairwise_sum(w) + 1e-9
    cx = 0.0
    cy = 0.0
    for i in range(n):
        cx += fx[i] * w[i]
        cy += fy[i] * w[i]
    cx /= sw
    cy /= sw
    txx = np.empty(n)
    tyy = np.empty(n)
    txy = np.empty(n)
    for i in range(n):
        r0 = fx[i] - cx
        r1 = fy[i] - cy
        txx[i] = w[i] * (r0 * r0)
        tyy[i] = w[i] * (r1 * r1)
        txy[i] = (w[i] * r0) * r1
    sxx = _pairwise_sum(txx)
    syy = _pairwise_sum(tyy)
    sxy = _pairwise_sum(txy)
    ang = 0.5 * math.atan2(2 * sxy, sxx - syy)
    lines[k, 0] = cx
    lines[k, 1] = cy
    lines[k, 2] = math.cos(ang)
    lines[k, 3] = math.sin(ang)


@_inner
def _cross(p1x: float, p1y: float, d1x: float, d1y: float,
           p2x: float, p2y: float, d2x: float, d2y: float) -> tuple[float, float]:
    """Where lines p1 + s d1 and p2 + t d2 meet (nan if parallel)."""
    det = d1x * -d2y + d2x * d1y
    if abs(det) < 1e-6:
        return np.nan, np.nan
    t = ((p2x - p1x) * -d2y + d2x * (p2y - p1y)) / det
    return p1x + d1x * t, p1y + d1y * t


@_compiled("float32[:, :, ::1](float32[:, :, :, ::1], float32[:, :, :, ::1], float32[:, :, ::1],"
           " float32[:, :, :, :, ::1], float32[:, :, ::1], float64)")
def polish_sides(gxs: np.ndarray, gys: np.ndarray, normals: np.ndarray, cand: np.ndarray,
                 q: np.ndarray, reach: float) -> np.ndarray:
    """For refine.refine_many, everything after the gradient lookups: along each side
    (gradients gxs, gys sampled at the candidate points cand (H, 4, n, K, 2) across it)
    the strongest step into the card, two line fits (the second without points far
    from the first), and the corners re-intersected; a side with too little evidence
    stays, a corner that would move more than 3 * reach stays."""
    h, _, n, k = gxs.shape
    out = q.copy()
    fx = np.empty(n)
    fy = np.empty(n)
    w = np.zeros(n)
    w2 = np.zeros(n)
    lines = np.empty((4, 4))
    ok_side = np.zeros(4, np.bool_)
    for a in range(h):
        for b in range(4):
            nx = normals[a, b, 0]
            ny = normals[a, b, 1]
            for i in range(n):
                best = 0
                peak = np.float32(-1.0)
                for j in range(k):
                    m = gxs[a, b, i, j] * nx
                    m = m + gys[a, b, i, j] * ny
                    if m < 0:
                        m = np.float32(0.0)
                    if m > peak:
                        peak = m
                        best = j
                fx[i] = np.float64(cand[a, b, i, best, 0])
                fy[i] = np.float64(cand[a, b, i, best, 1])
                w[i] = 1.0 if peak > 20.0 else 0.0
            ok_side[b] = _pairwise_sum(w) >= n * 0.5
            _fit_line(fx, fy, w, lines, b)
            cx, cy, ux, uy = lines[b, 0], lines[b, 1], lines[b, 2], lines[b, 3]
            for i in range(n):
                res = abs((fx[i] - cx) * -uy + (fy[i] - cy) * ux)
                w2[i] = w[i] * (1.0 if res <= 1.5 else 0.0)
            if _pairwise_sum(w2) >= n * 0.4:
                _fit_line(fx, fy, w2, lines, b)
        for i in range(4):
            pv = (i + 3) % 4
            nx_ = (i + 1) % 4
            c0 = np.float64(q[a, i, 0])
            c1 = np.float64(q[a, i, 1])
            if ok_side[pv] and ok_side[i]:
                px, py = _cross(lines[pv, 0], lines[pv, 1], lines[pv, 2], lines[pv, 3],
                                lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3])
            elif ok_side[pv]:  # one side known: slide the corner onto it
                px, py = _cross(lines[pv, 0], lines[pv, 1], lines[pv, 2], lines[pv, 3], c0, c1,
                                np.float64(q[a, nx_, 0] - q[a, i, 0]),
                                np.float64(q[a, nx_, 1] - q[a, i, 1]))
            elif ok_side[i]:
                px, py = _cross(lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3], c0, c1,
                                np.float64(q[a, i, 0] - q[a, pv, 0]),
                                np.float64(q[a, i, 1] - q[a, pv, 1]))
            else:
                px, py = c0, c1
            if (math.isfinite(px) and math.isfinite(py)
                    and abs(px - c0) + abs(py - c1) <= reach * 3.0):
                out[a, i, 0] = np.float32(px)
                out[a, i, 1] = np.float32(py)
    return out
