"""Kernel of beside.beside_guesses: which card found whole each row outline holds
at either end.

Why compiled: a frame's pool holds some 30 quads backed like whole cards and 100
outlines; their pairs are few thousand, nearly all given up at the first test
(sizes, boxes), but numpy's per-call overhead on the pair arrays cost 0.4 ms a
frame (the bench's rendered tables), most of the step. The loop works in double
precision only, so the compiled and the plain Python runs agree.
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled, _inner


@_inner
def _mean_sides(c: np.ndarray) -> tuple[float, float, float, float]:
    """Card quad `c`'s mean side vectors (e0x, e0y, e1x, e1y): e0 along sides 0-1
    and 3-2, e1 along 0-3 and 1-2."""
    e0x = 0.5 * ((float(c[1, 0]) - float(c[0, 0])) + (float(c[2, 0]) - float(c[3, 0])))
    e0y = 0.5 * ((float(c[1, 1]) - float(c[0, 1])) + (float(c[2, 1]) - float(c[3, 1])))
    e1x = 0.5 * ((float(c[3, 0]) - float(c[0, 0])) + (float(c[2, 0]) - float(c[1, 0])))
    e1y = 0.5 * ((float(c[3, 1]) - float(c[0, 1])) + (float(c[2, 1]) - float(c[1, 1])))
    return e0x, e0y, e1x, e1y


@_compiled("void(float32[:, :, ::1], float64[::1], float32[:, :, ::1], float64, float64, float64, "
           "float64, float64, float64, float64, float64, int64[:, ::1])")
def beside_pairs(cards: np.ndarray, sup: np.ndarray, rows: np.ndarray, asp_lo: float,
                 asp_hi: float, area_lo: float, area_hi: float, height: float, ext_lo: float,
                 ext_hi: float, slack: float, best: np.ndarray) -> None:
    """best[j, w]: the card (index into `cards` (C, 4, 2), edge support `sup`) of
    the best support that row outline j of `rows` (R, 4, 2) holds with room for
    another card past it at end w (0: the way of the card's short axis u, from
    its first short side to the opposite one; 1: the other way), or -1.

    A card counts when its long / short side ratio lies in [asp_lo, asp_hi]
    and no card of more support has a box overlapping its own by an IoU of 0.2
    to 0.8 (a wrong reading of the same cards). A row holds it when the row's
    area is area_lo to area_hi times the card's, their boxes overlap, the row's
    extent along the card's long axis is its long side within `height` (share),
    the card lies within the row (`slack` of its sides), and the row reaches
    past it at that end by ext_lo to ext_hi of its short side."""
    n_c, n_r = cards.shape[0], rows.shape[0]
    for j in range(n_r):
        best[j, 0] = -1
        best[j, 1] = -1
    r_area = np.empty(n_r)
    r_box = np.empty((n_r, 4))
    for j in range(n_r):
        s = 0.0
        x0, y0, x1, y1 = 1e30, 1e30, -1e30, -1e30
        for k in range(4):
            ax, ay = float(rows[j, k, 0]), float(rows[j, k, 1])
            bx, by = float(rows[j, (k + 1) % 4, 0]), float(rows[j, (k + 1) % 4, 1])
            s += ax * by - bx * ay
            x0, y0, x1, y1 = min(x0, ax), min(y0, ay), max(x1, ax), max(y1, ay)
        r_area[j] = 0.5 * abs(s)
        r_box[j, 0], r_box[j, 1], r_box[j, 2], r_box[j, 3] = x0, y0, x1, y1
    c_box = np.empty((n_c, 4))
    for i in range(n_c):
        x0, y0, x1, y1 = 1e30, 1e30, -1e30, -1e30
        for k in range(4):
            ax, ay = float(cards[i, k, 0]), float(cards[i, k, 1])
            x0, y0, x1, y1 = min(x0, ax), min(y0, ay), max(x1, ax), max(y1, ay)
        c_box[i, 0], c_box[i, 1], c_box[i, 2], c_box[i, 3] = x0, y0, x1, y1
    for i in range(n_c):
        c = cards[i]
        e0x, e0y, e1x, e1y = _mean_sides(c)
        l0, l1 = math.hypot(e0x, e0y), math.hypot(e1x, e1y)
        if l0 <= l1:
            ux, uy, vx, vy, short, long_ = e0x, e0y, e1x, e1y, l0, l1
        else:
            ux, uy, vx, vy, short, long_ = e1x, e1y, e0x, e0y, l1, l0
        if short <= 0.0 or not asp_lo <= long_ / short <= asp_hi:
            continue
        ux, uy, vx, vy = ux / short, uy / short, vx / long_, vy / long_
        cx = 0.25 * (float(c[0, 0]) + float(c[1, 0]) + float(c[2, 0]) + float(c[3, 0]))
        cy = 0.25 * (float(c[0, 1]) + float(c[1, 1]) + float(c[2, 1]) + float(c[3, 1]))
        cu0, cu1, cv0, cv1 = 1e30, -1e30, 1e30, -1e30
        s = 0.0
        for k in range(4):
            dx, dy = float(c[k, 0]) - cx, float(c[k, 1]) - cy
            pu, pv = dx * ux + dy * uy, dx * vx + dy * vy
            cu0, cu1, cv0, cv1 = min(cu0, pu), max(cu1, pu), min(cv0, pv), max(cv1, pv)
            s += float(c[k, 0]) * float(c[(k + 1) % 4, 1]) - float(c[(k + 1) % 4, 0]) * float(c[k, 1])
        area = 0.5 * abs(s)
        crossed = -1  # not worked out yet
        for j in range(n_r):
            if not area_lo * area <= r_area[j] <= area_hi * area:
                continue
            if (r_box[j, 0] > c_box[i, 2] or r_box[j, 1] > c_box[i, 3]
                    or r_box[j, 2] < c_box[i, 0] or r_box[j, 3] < c_box[i, 1]):
                continue
            ru0, ru1, rv0, rv1 = 1e30, -1e30, 1e30, -1e30
            for k in range(4):
                dx, dy = float(rows[j, k, 0]) - cx, float(rows[j, k, 1]) - cy
                pu, pv = dx * ux + dy * uy, dx * vx + dy * vy
                ru0, ru1, rv0, rv1 = min(ru0, pu), max(ru1, pu), min(rv0, pv), max(rv1, pv)
            if abs((rv1 - rv0) / long_ - 1.0) > height:
                continue
            ext0, ext1 = ru1 - cu1, cu0 - ru0
            if min(ext0, ext1) < -slack * short:
                continue
            if rv0 > cv0 + slack * long_ or rv1 < cv1 - slack * long_:
                continue
            past0 = ext_lo * short <= ext0 <= ext_hi * short
            past1 = ext_lo * short <= ext1 <= ext_hi * short
            if not past0 and not past1:
                continue
            if crossed < 0:
                crossed = 0
                a_i = (c_box[i, 2] - c_box[i, 0]) * (c_box[i, 3] - c_box[i, 1])
                for k in range(n_c):
                    if sup[k] <= sup[i]:
                        continue
                    w = min(c_box[i, 2], c_box[k, 2]) - max(c_box[i, 0], c_box[k, 0])
                    h = min(c_box[i, 3], c_box[k, 3]) - max(c_box[i, 1], c_box[k, 1])
                    if w <= 0.0 or h <= 0.0:
                        continue
                    inter = w * h
                    a_k = (c_box[k, 2] - c_box[k, 0]) * (c_box[k, 3] - c_box[k, 1])
                    iou = inter / (a_i + a_k - inter + 1e-9)
                    if 0.2 <= iou < 0.8:
                        crossed = 1
                        break
            if crossed == 1:
                break
            if past0 and (best[j, 0] < 0 or sup[i] > sup[best[j, 0]]):
                best[j, 0] = i
            if past1 and (best[j, 1] < 0 or sup[i] > sup[best[j, 1]]):
                best[j, 1] = i


@_compiled("int64(float32[:, :, ::1], float32[:, :, ::1], int64[:, ::1], float32[:, :, ::1])")
def beside_quads(cards: np.ndarray, rows: np.ndarray, best: np.ndarray, out: np.ndarray) -> int:
    """The guesses of `beside_pairs`' picks `best` (R, 2) into out[:n] (n returned,
    out (2R, 4, 2)): for row j and end w holding card best[j, w], a card as wide
    as that card's short side standing square on the row's end side (its two
    corners farthest along the card's short axis u that way), reaching into the
    row."""
    n = 0
    for j in range(rows.shape[0]):
        for w in range(2):
            i = best[j, w]
            if i < 0:
                continue
            c = cards[i]
            e0x, e0y, e1x, e1y = _mean_sides(c)
            l0, l1 = math.hypot(e0x, e0y), math.hypot(e1x, e1y)
            if l0 <= l1:
                ux, uy, short = e0x, e0y, l0
            else:
                ux, uy, short = e1x, e1y, l1
            cx = 0.25 * (float(c[0, 0]) + float(c[1, 0]) + float(c[2, 0]) + float(c[3, 0]))
            cy = 0.25 * (float(c[0, 1]) + float(c[1, 1]) + float(c[2, 1]) + float(c[3, 1]))
            # The row's corners in order along u (insertion sort, stable).
            idx = np.arange(4)
            ru = np.empty(4)
            for k in range(4):
                ru[k] = (float(rows[j, k, 0]) - cx) * ux + (float(rows[j, k, 1]) - cy) * uy
            for k in range(1, 4):
                m = k
                while m > 0 and ru[idx[m - 1]] > ru[idx[m]]:
                    idx[m - 1], idx[m] = idx[m], idx[m - 1]
                    m -= 1
            ka, kb = (idx[2], idx[3]) if w == 0 else (idx[0], idx[1])
            ax, ay = float(rows[j, ka, 0]), float(rows[j, ka, 1])
            bx, by = float(rows[j, kb, 0]), float(rows[j, kb, 1])
            sx, sy = bx - ax, by - ay
            norm = max(math.hypot(sx, sy), 1e-6)
            nx, ny = -sy / norm, sx / norm
            rx = 0.25 * (float(rows[j, 0, 0]) + float(rows[j, 1, 0]) + float(rows[j, 2, 0]) + float(rows[j, 3, 0]))
            ry = 0.25 * (float(rows[j, 0, 1]) + float(rows[j, 1, 1]) + float(rows[j, 2, 1]) + float(rows[j, 3, 1]))
            if (rx - ax) * nx + (ry - ay) * ny < 0.0:
                nx, ny = -nx, -ny
            out[n, 0, 0], out[n, 0, 1] = ax, ay
            out[n, 1, 0], out[n, 1, 1] = bx, by
            out[n, 2, 0], out[n, 2, 1] = bx + nx * short, by + ny * short
            out[n, 3, 0], out[n, 3, 1] = ax + nx * short, ay + ny * short
            n += 1
    return n
