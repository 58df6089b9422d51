"""Kernels of seams: the outline split by another card's border (seam search)."""

from __future__ import annotations

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner
from vision.detect.kernels.outline import _pixel


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
