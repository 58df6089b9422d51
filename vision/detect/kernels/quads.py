"""Kernels of whole.py (and beside.py): is one simplified outline a card-shaped
quad, and that quad in the detector's corner order.

Why: every outline in the frame (about twenty) is simplified at a few tolerances,
and each four-vertex result is tested (geometry.is_card_shaped) and ordered
(geometry.order_quad); on 4x2 arrays those calls were almost all numpy and OpenCV
call overhead, about 1 ms of the 8-card frame. The loops below repeat the same
arithmetic in the same precision: cv2.isContourConvex's single-precision
orientation test, corner angles in double precision, edge lengths and the aspect in
single precision, the shoelace area in double; numpy 2's scalar rules keep
`float32 + 1e-3` in single precision, hence the np.float32 constants.
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect.kernels._jit import _compiled


@_compiled("boolean(float32[:, ::1], float64, float64, float64)")
def card_shaped(q: np.ndarray, max_angle_dev: float, aspect_min: float, aspect_max: float) -> bool:
    """geometry.is_card_shaped for one contiguous float32 (4, 2) quad (the aspect
    bounds passed in: geometry's ASPECT_MIN, ASPECT_MAX)."""
    # cv2.isContourConvex on Point2f: consecutive edges must all turn one way.
    # (Kept though the angle and aspect tests below seem to reject every non-convex
    # quad on their own: the same test as geometry, not a proof that it is spare.)
    px, py = q[2, 0], q[2, 1]
    cx, cy = q[3, 0], q[3, 1]
    dx0, dy0 = cx - px, cy - py
    orientation = 0
    for i in range(4):
        px, py = cx, cy
        cx, cy = q[i, 0], q[i, 1]
        dx, dy = cx - px, cy - py
        dxdy0 = dx * dy0
        dydx0 = dy * dx0
        if dydx0 > dxdy0:
            orientation |= 1
        elif dydx0 < dxdy0:
            orientation |= 2
        else:
            orientation |= 3
        if orientation == 3:
            return False
        dx0, dy0 = dx, dy
    # geometry.corner_angles (double precision) against the tolerance.
    for i in range(4):
        a, b, c = (i + 3) % 4, i, (i + 1) % 4
        bx, by = np.float64(q[b, 0]), np.float64(q[b, 1])
        ux, uy = np.float64(q[a, 0]) - bx, np.float64(q[a, 1]) - by
        vx, vy = np.float64(q[c, 0]) - bx, np.float64(q[c, 1]) - by
        nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
        if nu == 0 or nv == 0:
            ang = 0.0
        else:
            cs = max(-1.0, min(1.0, (ux * vx + uy * vy) / (nu * nv)))
            ang = math.degrees(math.acos(cs))
        if abs(ang - 90.0) > max_angle_dev:
            return False
    # geometry.aspect: edge lengths and their ratio in single precision.
    e = np.empty(4, np.float32)
    for i in range(4):
        j = (i + 1) % 4
        ex, ey = q[j, 0] - q[i, 0], q[j, 1] - q[i, 1]
        e[i] = np.sqrt(ex * ex + ey * ey)
    two = np.float32(2.0)
    sa, sb = (e[0] + e[2]) / two, (e[1] + e[3]) / two
    lo, hi = min(sa, sb), max(sa, sb)
    asp = np.float64(hi / lo) if lo > 0 else np.inf
    return aspect_min <= asp <= aspect_max


@_compiled("void(float32[:, ::1], float32[:, ::1])")
def order_quad(q: np.ndarray, out: np.ndarray) -> None:
    """geometry.order_quad of one contiguous float32 (4, 2) quad, into `out`:
    clockwise, first edge a short one, the upper index corner first."""
    acc = 0.0
    for i in range(4):
        j = (i + 1) % 4
        acc += np.float64(q[i, 0]) * np.float64(q[j, 1]) - np.float64(q[j, 0]) * np.float64(q[i, 1])
    idx = np.array([0, 1, 2, 3])
    if 0.5 * acc < 0:
        idx[1], idx[3] = 3, 1
    e = np.empty(4, np.float32)
    for i in range(4):
        a, b = idx[i], idx[(i + 1) % 4]
        ex, ey = q[b, 0] - q[a, 0], q[b, 1] - q[a, 1]
        e[i] = np.sqrt(ex * ex + ey * ey)
    shift = 1 if e[0] + e[2] > e[1] + e[3] else 0
    tol = np.float32(1e-3)
    y0, y2 = q[idx[shift], 1], q[idx[(shift + 2) % 4], 1]
    x0, x2 = q[idx[shift], 0], q[idx[(shift + 2) % 4], 0]
    if y2 + tol < y0 or (abs(y2 - y0) <= tol and x2 < x0):
        shift += 2
    for i in range(4):
        k = idx[(i + shift) % 4]
        out[i, 0] = q[k, 0]
        out[i, 1] = q[k, 1]


@_compiled("void(float32[:, :, ::1], float32[:, :, ::1])")
def order_quads(q: np.ndarray, out: np.ndarray) -> None:
    """geometry.order_quads of contiguous float32 quads (N, 4, 2), into `out`: its
    vectorised steps quad by quad (the double-precision shoelace sum in numpy's
    left-to-right order, its sign alone compared; lengths, sums and the 1e-3
    tolerance in single precision)."""
    tol = np.float32(1e-3)
    idx = np.empty(4, np.int64)
    e = np.empty(4, np.float32)
    for a in range(q.shape[0]):
        acc = 0.0
        for i in range(4):
            j = (i + 1) % 4
            acc += (np.float64(q[a, i, 0]) * np.float64(q[a, j, 1])
                    - np.float64(q[a, j, 0]) * np.float64(q[a, i, 1]))
        for i in range(4):
            idx[i] = (4 - i) % 4 if acc < 0 else i  # [0, 3, 2, 1] when counter-clockwise
        for i in range(4):
            s, t = idx[i], idx[(i + 1) % 4]
            ex, ey = q[a, t, 0] - q[a, s, 0], q[a, t, 1] - q[a, s, 1]
            e[i] = np.sqrt(ex * ex + ey * ey)
        shift = 1 if e[0] + e[2] > e[1] + e[3] else 0
        y0, y2 = q[a, idx[shift], 1], q[a, idx[(shift + 2) % 4], 1]
        x0, x2 = q[a, idx[shift], 0], q[a, idx[(shift + 2) % 4], 0]
        if y2 + tol < y0 or (abs(y2 - y0) <= tol and x2 < x0):
            shift += 2
        for i in range(4):
            k = idx[(i + shift) % 4]
            out[a, i, 0] = q[a, k, 0]
            out[a, i, 1] = q[a, k, 1]
