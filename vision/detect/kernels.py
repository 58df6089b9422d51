"""Compiled (numba) loops of the detector's hottest per-quad steps.

Why compiled: after every exact numpy speed-up, what was left of these steps was
numpy's per-call overhead on small arrays (a few dozen quads, sides of 24 points,
outlines of a few hundred points) and masks built only to be reduced again. Plain
loops compiled by numba do the same arithmetic in the same order, so the detector's
output is bit for bit what the numpy code gave (same single/double precision steps,
numpy's pairwise summation order where it summed in double precision).

Why eager signatures: every kernel is compiled (or loaded from numba's on-disk cache)
when this module is imported, never inside the first frame. The cache lives next to
this file (`__pycache__`, numba's default); where that is not writable numba uses the
user cache directory, and where no cache can be written at all the kernels are
compiled without one (slower start, same results). Without numba (no wheel for
32-bit Raspberry Pi OS) or with CARDTABLE_NO_JIT=1 the same loops run as plain Python:
same results, several times slower.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

import numpy as np

njit: Any = None
if not os.environ.get("CARDTABLE_NO_JIT"):  # set: the same loops uncompiled (slow, same)
    try:  # no numba wheel on some platforms (32-bit Raspberry Pi OS): plain Python then
        from numba import njit
    except ImportError:  # pragma: no cover - no numba on this machine
        pass

#: Whether the kernels are compiled (False: numba missing or CARDTABLE_NO_JIT set).
COMPILED = njit is not None


def _compiled(signature: str) -> Callable[[Callable[..., Any]], Any]:
    """njit with `signature`, cached on disk when some cache directory is writable."""

    def wrap(fn: Callable[..., Any]) -> Any:
        if njit is None:
            return fn
        try:
            return njit(signature, cache=True)(fn)
        except RuntimeError:  # numba: "cannot cache function ...: no locator available"
            return njit(signature, cache=False)(fn)

    return wrap


def _inner(fn: Callable[..., Any]) -> Any:
    """A helper compiled into its callers (lazy: typed by the eager kernels)."""
    if njit is None:
        return fn
    try:
        return njit(cache=True)(fn)
    except RuntimeError:
        return njit(cache=False)(fn)


@_compiled("int64(float32[:, ::1], float32[:, ::1], float32, float32[:, :, ::1], int64[::1])")
def select_side_points(pts: np.ndarray, q: np.ndarray, band: float, out: np.ndarray,
                       counts: np.ndarray) -> int:
    """For proposals.fit_sides: copy the outline points (N, 2) lying along the middle
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
    """For proposals.fit_sides: corner i where fitted line i-1 meets line i (lines
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


@_compiled("void(float32[::1], float32[::1], float32[:, :, ::1], boolean[::1])")
def mark_inside(px: np.ndarray, py: np.ndarray, lines: np.ndarray, hit: np.ndarray) -> None:
    """For select.inside_quads: set hit[m] where point (px[m], py[m]) passes all four
    side tests ex*py - ey*px > c of any quad (lines (Q, 4, 3): ex, ey, c in single
    precision, as numpy compared them)."""
    for m in range(px.shape[0]):
        x = px[m]
        y = py[m]
        for a in range(lines.shape[0]):
            inside = True
            for i in range(4):
                if not (lines[a, i, 0] * y - lines[a, i, 1] * x > lines[a, i, 2]):
                    inside = False
                    break
            if inside:
                hit[m] = True
                break


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
def _pixel(x: float, y: float, rows: int, cols: int) -> tuple[int, int]:
    """The pixel (row, col) cv2.remap(INTER_NEAREST) reads at float point (x, y):
    rounded half to even (as evidence.sample's remap rounds); (-1, -1) outside the
    image, NaN included (sample reads 0 there)."""
    xr = np.rint(x)
    yr = np.rint(y)
    if xr >= 0 and xr < cols and yr >= 0 and yr < rows:
        return int(yr), int(xr)
    return -1, -1


@_compiled("void(uint8[:, ::1], float32[:, :, ::1], float32[::1], float32[::1], int64[:, ::1],"
           " boolean[:, ::1])")
def outline_flags(bits: np.ndarray, quads: np.ndarray, t: np.ndarray, u: np.ndarray,
                  masks: np.ndarray, on: np.ndarray) -> None:
    """For select.outline_on: along side s of quad a, at the points a_s * u + a_s+1 * t
    (single precision, as geometry.lerp_points), whether `bits` (evidence.bits) has a
    bit of masks[a, s] set at the nearest pixel; into on[a, s * n + i]."""
    rows, cols = bits.shape
    n = t.shape[0]
    for a in range(quads.shape[0]):
        for s in range(4):
            e = (s + 1) % 4
            ax, ay, bx, by = quads[a, s, 0], quads[a, s, 1], quads[a, e, 0], quads[a, e, 1]
            m = masks[a, s]
            for i in range(n):
                r, c = _pixel(ax * u[i] + bx * t[i], ay * u[i] + by * t[i], rows, cols)
                on[a, s * n + i] = r >= 0 and (np.int64(bits[r, c]) & m) != 0


@_compiled("void(float32[:, ::1], float32[:, ::1], float32[:, :, ::1], float32[::1], float32[::1],"
           " float32[:, :, ::1], boolean[:, ::1], int8[:, ::1])")
def outline_polarity(gx: np.ndarray, gy: np.ndarray, quads: np.ndarray, t: np.ndarray,
                     u: np.ndarray, nrm: np.ndarray, where: np.ndarray, out: np.ndarray) -> None:
    """For select.polarity: at the outline points of outline_flags, the sign of the
    gradient (nearest pixel of gx, gy) along the inward normal nrm[a, s] of the side,
    +1 above 15, -1 below -15, else 0 (single precision, as numpy); 0 where `where`
    is False (points the caller ignores: no gradient read)."""
    rows, cols = gx.shape
    n = t.shape[0]
    for a in range(quads.shape[0]):
        for s in range(4):
            e = (s + 1) % 4
            ax, ay, bx, by = quads[a, s, 0], quads[a, s, 1], quads[a, e, 0], quads[a, e, 1]
            nx, ny = nrm[a, s, 0], nrm[a, s, 1]
            for i in range(n):
                if not where[a, s * n + i]:
                    out[a, s * n + i] = 0
                    continue
                r, c = _pixel(ax * u[i] + bx * t[i], ay * u[i] + by * t[i], rows, cols)
                vx = gx[r, c] if r >= 0 else np.float32(0.0)
                vy = gy[r, c] if r >= 0 else np.float32(0.0)
                step = vx * nx + vy * ny
                out[a, s * n + i] = 1 if step > 15.0 else (-1 if step < -15.0 else 0)


@_compiled("void(float32[:, :, ::1], float32[::1], float32[::1], float32[:, ::1], float32[::1],"
           " boolean[::1], float32[:, ::1], float32[:, ::1], boolean[:, ::1], boolean[:, ::1],"
           " int8[:, ::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def cover_outlines(quads: np.ndarray, t: np.ndarray, u: np.ndarray, lines: np.ndarray,
                   box: np.ndarray, alive: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   covered: np.ndarray, on: np.ndarray, signed: np.ndarray, n_vis: np.ndarray,
                   n_on: np.ndarray, pol_sum: np.ndarray, pol_n: np.ndarray) -> None:
    """For select.choose, after a card is chosen: of the live outlines whose bounding
    box (lo, hi) meets `box` (x0, y0, x1, y1), mark the outline points (those of
    outline_flags) inside the chosen card (its side tests `lines` (4, 3), as
    mark_inside) as covered, and recount over the points still in view: n_vis, the
    points on an edge n_on, the sum of their polarity signs pol_sum and the signed
    ones pol_n (exact integer tallies, as the numpy sums)."""
    n = t.shape[0]
    x0, y0, x1, y1 = box[0], box[1], box[2], box[3]
    for a in range(quads.shape[0]):
        if not (alive[a] and lo[a, 0] <= x1 and hi[a, 0] >= x0 and lo[a, 1] <= y1
                and hi[a, 1] >= y0):
            continue
        for s in range(4):
            e = (s + 1) % 4
            ax, ay, bx, by = quads[a, s, 0], quads[a, s, 1], quads[a, e, 0], quads[a, e, 1]
            for i in range(n):
                k = s * n + i
                if covered[a, k]:
                    continue
                x = ax * u[i] + bx * t[i]
                y = ay * u[i] + by * t[i]
                inside = True
                for j in range(4):
                    if not (lines[j, 0] * y - lines[j, 1] * x > lines[j, 2]):
                        inside = False
                        break
                covered[a, k] = inside
        nv = 0
        no = 0
        ps = 0
        pn = 0
        for k in range(covered.shape[1]):
            if not covered[a, k]:
                nv += 1
                if on[a, k]:
                    no += 1
                    ps += signed[a, k]
                    if signed[a, k] != 0:
                        pn += 1
        n_vis[a] = nv
        n_on[a] = no
        pol_sum[a] = ps
        pol_n[a] = pn


@_compiled("void(uint8[:, ::1], float32[:, :, ::1], float32[:, :, ::1], float32[:, ::1],"
           " int64[:, ::1], int64[:, ::1], float64[::1])")
def corner_overshoot(bits: np.ndarray, quads: np.ndarray, u: np.ndarray, steps: np.ndarray,
                     masks: np.ndarray, across: np.ndarray, out: np.ndarray) -> None:
    """For select.overshoot: at the points steps[a, j] past both ends of each side s
    of quad a along its direction u[a, s] (single precision, as numpy), the share
    with an edge along the side (a bit of masks[a, s]) less the share with one
    across it (across[a, s]), clipped to [0, 1], into out[a]."""
    rows, cols = bits.shape
    m = steps.shape[1]
    total = 8 * m
    for a in range(quads.shape[0]):
        n_on = 0
        n_off = 0
        for s in range(4):
            e = (s + 1) % 4
            ux, uy = u[a, s, 0], u[a, s, 1]
            for j in range(m):
                st = steps[a, j]
                for end in range(2):
                    if end == 0:  # before the side's first corner
                        x = quads[a, s, 0] - ux * st
                        y = quads[a, s, 1] - uy * st
                    else:  # past its second
                        x = quads[a, e, 0] + ux * st
                        y = quads[a, e, 1] + uy * st
                    r, c = _pixel(x, y, rows, cols)
                    v = np.int64(bits[r, c]) if r >= 0 else np.int64(0)
                    if v & masks[a, s]:
                        n_on += 1
                    if v & across[a, s]:
                        n_off += 1
        out[a] = min(max(n_on / total - n_off / total, 0.0), 1.0)


@_compiled("boolean(uint8[:, :, ::1], float32[:, ::1], float32[::1], float32[::1],"
           " float32[:, :, ::1], float32[::1])")
def table_share(color: np.ndarray, q: np.ndarray, f: np.ndarray, g: np.ndarray,
                lines: np.ndarray, table: np.ndarray) -> bool:
    """For select.table_like: of the grid points of quad q (bilinear at fractions f
    both ways, g = 1 - f, single precision in numpy's order) not inside any quad of
    `lines` (side tests as mark_inside), do at least 60% show the table's colour
    (BGR within 40 of `table`, nearest pixel)? False with fewer than 4 such points."""
    rows, cols = color.shape[0], color.shape[1]
    k = f.shape[0]
    n = 0
    near = 0
    for i in range(k):  # v (rows of the grid)
        for j in range(k):  # u
            x = (q[0, 0] * g[j] * g[i] + q[1, 0] * f[j] * g[i]
                 + q[2, 0] * f[j] * f[i] + q[3, 0] * g[j] * f[i])
            y = (q[0, 1] * g[j] * g[i] + q[1, 1] * f[j] * g[i]
                 + q[2, 1] * f[j] * f[i] + q[3, 1] * g[j] * f[i])
            hidden = False
            for a in range(lines.shape[0]):
                inside = True
                for b in range(4):
                    if not (lines[a, b, 0] * y - lines[a, b, 1] * x > lines[a, b, 2]):
                        inside = False
                        break
                if inside:
                    hidden = True
                    break
            if hidden:
                continue
            n += 1
            r, c = _pixel(x, y, rows, cols)
            dist = np.float32(0.0)
            for ch in range(3):
                v = np.float32(color[r, c, ch]) if r >= 0 else np.float32(0.0)
                dist += abs(v - table[ch])
            if dist < 40.0:
                near += 1
    return n >= 4 and near / n >= 0.6


@_compiled("boolean(int64[::1], int64[::1], int64[::1], int64[::1], boolean[::1], float64[::1],"
           " float64[::1], int64, float64, float64, float64[::1], float64[::1], boolean[::1],"
           " boolean[::1])")
def outline_state(n_vis: np.ndarray, n_on: np.ndarray, pol_sum: np.ndarray, pol_n: np.ndarray,
                  alive: np.ndarray, over: np.ndarray, side_min: np.ndarray, p_n: int,
                  min_visible: float, min_support: float, vis_frac: np.ndarray, sup: np.ndarray,
                  ok: np.ndarray, whole: np.ndarray) -> bool:
    """For select.choose, once per card chosen: from the tallies, each outline's
    share in view (vis_frac) and edge support of that (sup), whether it may still be
    chosen (ok: alive, enough in view and supported, corners that end, one
    brightness step) and whether it is seen whole (before the seam test). Returns
    whether any is ok. (The same double-precision divisions as numpy's.)"""
    found = False
    for a in range(n_vis.shape[0]):
        vf = n_vis[a] / p_n
        sp = n_on[a] / max(n_vis[a], 1)
        agree = abs(pol_sum[a]) / max(pol_n[a], 1)
        vis_frac[a] = vf
        sup[a] = sp
        good = (alive[a] and vf >= min_visible and sp >= min_support and over[a] < 0.3
                and agree >= 0.5)
        ok[a] = good
        whole[a] = good and vf >= 0.97 and sp >= 0.85 and side_min[a] >= 0.7
        found = found or good
    return found


@_compiled("void(uint8[:, ::1], uint8[:, ::1], float32[:, :, ::1], float32[:, :, ::1], float32[::1],"
           " float32[::1], int64[:, ::1], float32[:, :, ::1], boolean[::1], float64,"
           " float32[:, :, :, ::1], int8[:, ::1], boolean[:, ::1])")
def seam_scan(bits: np.ndarray, bright: np.ndarray, start: np.ndarray, end: np.ndarray,
              t: np.ndarray, u: np.ndarray, masks: np.ndarray, step: np.ndarray,
              mid: np.ndarray, min_on: float, pts: np.ndarray, flags: np.ndarray,
              paper: np.ndarray) -> None:
    """For seams.seam_lines: along each line l of quad a, from start[a, l] to
    end[a, l], the points start * u + end * t (single precision, as
    geometry.lerp_points) into pts[a, l]; flags[a, l] 2 where an edge along the line
    (a bit of masks[a, l] in `bits`) runs on `min_on` of the points and on all three
    at each end, 1 where on `min_on` of them and one at each end, else 0; and for a
    flagged line, paper[a, l]: `bright` set at >= 60% of its `mid` points moved by
    +step[a, l] and by -step[a, l] (white on both sides of the line)."""
    rows, cols = bits.shape
    m = t.shape[0]
    n_mid = 0
    for i in range(m):
        if mid[i]:
            n_mid += 1
    for a in range(start.shape[0]):
        for ln in range(start.shape[1]):
            sx, sy, ex, ey = start[a, ln, 0], start[a, ln, 1], end[a, ln, 0], end[a, ln, 1]
            mk = masks[a, ln]
            count = 0
            e0_all, e0_any, e1_all, e1_any = True, False, True, False
            for i in range(m):
                x = sx * u[i] + ex * t[i]
                y = sy * u[i] + ey * t[i]
                pts[a, ln, i, 0] = x
                pts[a, ln, i, 1] = y
                r, c = _pixel(x, y, rows, cols)
                hit = r >= 0 and (np.int64(bits[r, c]) & mk) != 0
                if hit:
                    count += 1
                if i < 3:
                    e0_all = e0_all and hit
                    e0_any = e0_any or hit
                elif i >= m - 3:
                    e1_all = e1_all and hit
                    e1_any = e1_any or hit
            along = count / m >= min_on
            if along and e0_all and e1_all:
                flags[a, ln] = 2
            elif along and e0_any and e1_any:
                flags[a, ln] = 1
            else:
                flags[a, ln] = 0
            paper[a, ln] = False
            if flags[a, ln] == 0:
                continue
            both = True
            for sign in range(2):
                dx = step[a, ln, 0]
                dy = step[a, ln, 1]
                white = 0
                for i in range(m):
                    if not mid[i]:
                        continue
                    if sign == 0:
                        x = pts[a, ln, i, 0] + dx
                        y = pts[a, ln, i, 1] + dy
                    else:
                        x = pts[a, ln, i, 0] - dx
                        y = pts[a, ln, i, 1] - dy
                    r, c = _pixel(x, y, bright.shape[0], bright.shape[1])
                    if r >= 0 and bright[r, c] > 0:
                        white += 1
                if not white / n_mid >= 0.6:
                    both = False
            paper[a, ln] = both


@_inner
def _patterned(flags: np.ndarray, a: int, lo: int, half: int) -> bool:
    """Lines (flags > 0) at flags[a, lo:lo + half] in more than two runs, or in a
    run longer than four (as seams._patterned)."""
    runs = 0
    longest = 0
    run = 0
    for j in range(lo, lo + half):
        if flags[a, j] > 0:
            if run == 0:
                runs += 1
            run += 1
            longest = max(longest, run)
        else:
            run = 0
    return runs > 2 or longest > 4


@_compiled("void(int8[:, ::1], boolean[::1])")
def seam_busy(flags: np.ndarray, busy: np.ndarray) -> None:
    """For seams.SeamCache: quads with lines all over in either direction (see
    seams._patterned), the ones whose inside stands_out must judge."""
    half = flags.shape[1] // 2
    for a in range(flags.shape[0]):
        busy[a] = _patterned(flags, a, 0, half) or _patterned(flags, a, half, half)


@_compiled("void(int8[:, ::1], boolean[:, ::1], boolean[::1], boolean[::1], boolean[:, ::1])")
def seam_cut(flags: np.ndarray, paper: np.ndarray, distinct: np.ndarray, central: np.ndarray,
             out: np.ndarray) -> None:
    """For seams.SeamCache, seams.seams in one pass: per quad a, its L seam lines of
    seam_lines as two halves (one per direction). A patterned half (see seam_busy)
    of a `distinct` quad has no seam; of the rest, a line is a seam where flags > 0
    and either paper on both sides and `central`, or strict lines (flags 2) run
    both ways."""
    half = flags.shape[1] // 2
    for a in range(flags.shape[0]):
        drop0 = distinct[a] and _patterned(flags, a, 0, half)
        drop1 = distinct[a] and _patterned(flags, a, half, half)
        strict0 = False
        strict1 = False
        for j in range(half):
            strict0 = strict0 or (not drop0 and flags[a, j] == 2)
            strict1 = strict1 or (not drop1 and flags[a, half + j] == 2)
        grid = strict0 and strict1
        for j in range(flags.shape[1]):
            dropped = drop0 if j < half else drop1
            out[a, j] = (not dropped and flags[a, j] > 0
                         and ((paper[a, j] and central[j]) or grid))
