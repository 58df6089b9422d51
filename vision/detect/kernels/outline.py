"""Kernels of select: what lies along a quad's outline (edge flags, brightness
polarity, overshoot past the corners), which outline points other cards cover, and
choose's per-pick state."""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner


@_inner
def _in_any(lines: np.ndarray, x: float, y: float) -> bool:
    """Is (x, y) inside any quad of `lines` (the side tests of mark_inside)?"""
    for a in range(lines.shape[0]):
        inside = True
        for i in range(4):
            if not (lines[a, i, 0] * y - lines[a, i, 1] * x > lines[a, i, 2]):
                inside = False
                break
        if inside:
            return True
    return False


@_compiled("void(float32[::1], float32[::1], float32[:, :, ::1], boolean[::1])")
def mark_inside(px: np.ndarray, py: np.ndarray, lines: np.ndarray, hit: np.ndarray) -> None:
    """For outline.inside_quads: set hit[m] where point (px[m], py[m]) passes all four
    side tests ex*py - ey*px > c of any quad (lines (Q, 4, 3): ex, ey, c in single
    precision, as numpy compared them)."""
    for m in range(px.shape[0]):
        if _in_any(lines, px[m], py[m]):
            hit[m] = True


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
    """For outline.outline_on: along side s of quad a, at the points a_s * u + a_s+1 * t
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
    """For outline.polarity: at the outline points of outline_flags, the sign of the
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
    """For outline.overshoot: at the points steps[a, j] past both ends of each side s
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
    """For outline.table_like: of the grid points of quad q (bilinear at fractions f
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
            if _in_any(lines, x, y):
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


@_compiled("void(boolean[:, ::1], int64, float64[::1], float64[::1])")
def side_support(on: np.ndarray, n: int, sup: np.ndarray, mins: np.ndarray) -> None:
    """For select.score_many, from the outline flags on (H, 4 * n): each quad's
    support (the mean of its four sides' shares of flagged points) and its weakest
    side's share, as numpy's means give them: a side's share is its whole count
    over n in double precision, the four summed left to right, over 4."""
    for a in range(on.shape[0]):
        acc = 0.0
        lo = np.inf
        for s in range(4):
            c = 0
            for i in range(n):
                if on[a, s * n + i]:
                    c += 1
            share = c / n
            acc += share
            lo = min(lo, share)
        sup[a] = acc / 4.0
        mins[a] = lo
