"""Plane geometry on card quads: ordering, angles, areas, overlap.

Why a module of its own: every detection strategy (single contours, split blobs)
produces quads in whatever winding and start corner its maths gives, while the rest
of vision/ agrees on one convention (clockwise on screen, first edge a short one, see
`vision.recognize.patch.normalize_quad`). Keeping the conversions and the overlap
measures here means the strategies only have to find four points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from vision.types import Quad

#: Long side / short side of real decks: 88/63 = 1.40 (poker) up to 89/57 = 1.56
#: (bridge); the Debian SVG decks sit between. A camera tilted by up to 35 degrees
#: squeezes or stretches that by cos(35) = 0.82 in the image.
ASPECT_MIN = 1.05
ASPECT_MAX = 2.0
#: The aspect used to complete a card from one visible side.
ASPECT_NOMINAL = 1.45


def as_array(quad: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """A quad as a float32 (4, 2) array."""
    return np.asarray(quad, dtype=np.float32).reshape(4, 2)


def signed_area(q: np.ndarray) -> float:
    """Shoelace area; positive for clockwise on screen (y down)."""
    p = np.asarray(q, dtype=np.float64).reshape(-1, 2).tolist()
    n = len(p)
    acc = 0.0
    for i in range(n):
        x0, y0 = p[i]
        x1, y1 = p[(i + 1) % n]
        acc += x0 * y1 - x1 * y0
    return 0.5 * acc


def order_quad(q: np.ndarray) -> np.ndarray:
    """Clockwise on screen, first edge a short one (so corner 0 carries an index)."""
    q = as_array(q).copy()
    if signed_area(q) < 0:
        q = q[[0, 3, 2, 1]]
    # Short edges are 0-1 and 2-3: compare the mean of opposite edge pairs, which
    # is steadier under perspective than comparing two single edges.
    e = edge_lengths(q)
    if e[0] + e[2] > e[1] + e[3]:
        q = q[[1, 2, 3, 0]]
    # Of the two index corners (0 and 2) start at the upper one: stable for tests
    # and for humans reading JSON; the 180° ambiguity is inherent anyway.
    if q[2, 1] + 1e-3 < q[0, 1] or (abs(q[2, 1] - q[0, 1]) <= 1e-3 and q[2, 0] < q[0, 0]):
        q = q[[2, 3, 0, 1]]
    return q


def ordered(q: np.ndarray) -> np.ndarray:
    """`order_quad` of a float32 (4, 2) quad, compiled where numba is
    (kernels.order_quad: the same corners, without a dozen numpy calls; the
    detector orders every card of a frame twice), a new array either way."""
    from vision.detect import kernels

    if not kernels.COMPILED or q.dtype != np.float32 or q.shape != (4, 2):
        return order_quad(q)
    out = np.empty((4, 2), dtype=np.float32)
    kernels.order_quad(np.ascontiguousarray(q), out)
    return out


def order_quads(qs: np.ndarray) -> np.ndarray:
    """`order_quad` for many quads (N, 4, 2) at once (compiled where numba is:
    kernels.order_quads, these steps quad by quad, the same corners; numpy's
    fancy-indexed copies were most of the cost at the few dozen quads a call)."""
    from vision.detect import kernels

    q = np.asarray(qs, dtype=np.float32).copy()
    if len(q) == 0:
        return q.reshape(0, 4, 2)
    if kernels.COMPILED and q.ndim == 3 and q.shape[1:] == (4, 2):
        out = np.empty_like(q)
        kernels.order_quads(q, out)
        return out
    x, y = q[:, :, 0].astype(np.float64), q[:, :, 1].astype(np.float64)
    area2 = (x * y[:, [1, 2, 3, 0]] - x[:, [1, 2, 3, 0]] * y).sum(axis=1)
    ccw = area2 < 0
    q[ccw] = q[ccw][:, [0, 3, 2, 1]]
    e = lengths(q[:, [1, 2, 3, 0]] - q)
    long_first = e[:, 0] + e[:, 2] > e[:, 1] + e[:, 3]
    q[long_first] = q[long_first][:, [1, 2, 3, 0]]
    lower = (q[:, 2, 1] + 1e-3 < q[:, 0, 1]) | (
        (np.abs(q[:, 2, 1] - q[:, 0, 1]) <= 1e-3) & (q[:, 2, 0] < q[:, 0, 0])
    )
    q[lower] = q[lower][:, [2, 3, 0, 1]]
    return q


def lerp_points(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Points a (1 - t) + b t between ends a, b (..., 2) at fractions t (M,), as
    (..., M, 2).

    Why not plain broadcasting: numpy loops over the last axis innermost, and a
    last axis of 2 makes its loops ten times slower than x and y apart (this is
    on the hot path of every sampled outline).
    """
    out = np.empty(np.broadcast_shapes(a.shape, b.shape)[:-1] + (len(t), 2),
                   dtype=np.result_type(a, b, t))
    u = 1 - t
    for c in (0, 1):
        np.add(a[..., c, None] * u, b[..., c, None] * t, out=out[..., c])
    return out


def add_points(p: np.ndarray, d: np.ndarray) -> np.ndarray:
    """p + d for broadcastable point arrays (..., 2), x and y apart (see
    lerp_points)."""
    out = np.empty(np.broadcast_shapes(p.shape, d.shape), dtype=np.result_type(p, d))
    for c in (0, 1):
        np.add(p[..., c], d[..., c], out=out[..., c])
    return out


def lengths(d: np.ndarray) -> np.ndarray:
    """np.linalg.norm(d, axis=-1) for vectors (..., 2), x and y apart (the same
    sums, without numpy's slow loop over a last axis of 2)."""
    return np.asarray(np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]))


def to_quad(q: np.ndarray) -> Quad:
    """A (4, 2) array as the plain-tuple `Quad` of vision.types."""
    a = as_array(q)
    return tuple((float(x), float(y)) for x, y in a)  # type: ignore[return-value]


def edge_lengths(q: np.ndarray) -> np.ndarray:
    """Lengths of edges 0-1, 1-2, 2-3, 3-0."""
    d = q[[1, 2, 3, 0]] - q
    return np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])


def aspect(q: np.ndarray) -> float:
    """Long side / short side, from the means of opposite edges (>= 1)."""
    e = edge_lengths(as_array(q))
    a, b = (e[0] + e[2]) / 2.0, (e[1] + e[3]) / 2.0
    lo, hi = min(a, b), max(a, b)
    return float(hi / lo) if lo > 0 else float("inf")


def corner_angles(q: np.ndarray) -> list[float]:
    """Interior angles in degrees at each corner of a convex quad."""
    p = np.asarray(q, dtype=np.float64).reshape(4, 2).tolist()
    out = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = p[i - 1], p[i], p[(i + 1) % 4]
        ux, uy, vx, vy = ax - bx, ay - by, cx - bx, cy - by
        nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
        if nu == 0 or nv == 0:
            out.append(0.0)
            continue
        c = max(-1.0, min(1.0, (ux * vx + uy * vy) / (nu * nv)))
        out.append(math.degrees(math.acos(c)))
    return out


def is_card_shaped(q: np.ndarray, *, max_angle_dev: float = 28.0) -> bool:
    """Convex, near-right corners, card-like aspect: a plausible card under a camera
    that looks at the table from above or somewhat at an angle."""
    q = as_array(q)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    if any(abs(a - 90.0) > max_angle_dev for a in corner_angles(q)):
        return False
    return ASPECT_MIN <= aspect(q) <= ASPECT_MAX


def card_shaped_many(qs: np.ndarray, *, max_angle_dev: float = 28.0) -> np.ndarray:
    """`is_card_shaped` for many quads (N, 4, 2) at once."""
    q = np.asarray(qs, dtype=np.float64)
    if len(q) == 0:
        return np.zeros(0, dtype=bool)
    prev = q[:, [3, 0, 1, 2]] - q
    nxt = q[:, [1, 2, 3, 0]] - q
    cross = prev[..., 0] * nxt[..., 1] - prev[..., 1] * nxt[..., 0]
    convex = (np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1))
    dot = prev[..., 0] * nxt[..., 0] + prev[..., 1] * nxt[..., 1]
    cos = dot / (lengths(prev) * lengths(nxt) + 1e-9)
    ang = np.degrees(np.arccos(np.clip(cos, -1, 1)))
    right = np.all(np.abs(ang - 90.0) <= max_angle_dev, axis=1)
    e = lengths(q[:, [1, 2, 3, 0]] - q)
    a, b = (e[:, 0] + e[:, 2]) / 2, (e[:, 1] + e[:, 3]) / 2
    asp = np.maximum(a, b) / np.maximum(np.minimum(a, b), 1e-9)
    return convex & right & (asp >= ASPECT_MIN) & (asp <= ASPECT_MAX)


def quad_area(q: np.ndarray) -> float:
    return float(cv2.contourArea(as_array(q)))


def intersection_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(as_array(a), as_array(b))
    return float(max(inter, 0.0))


def iou(a: np.ndarray, b: np.ndarray) -> float:
    inter = intersection_area(a, b)
    union = quad_area(a) + quad_area(b) - inter
    return inter / union if union > 0 else 0.0


def boxes(quads: Sequence[np.ndarray]) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (x0, y0, x1, y1) of many quads, as plain floats: for the
    `apart` test before the pairwise overlap tests (most pairs of a frame's
    hypotheses lie apart, and an exact overlap costs a cv2 call or three)."""
    if not len(quads):
        return []
    try:  # one conversion for all (the quads of a frame are all (4, 2) arrays)
        arr = np.array(quads, dtype=np.float32).reshape(len(quads), 4, 2)
    except ValueError:  # quads of other shapes ((8,), (4, 1, 2)) mixed
        arr = np.stack([as_array(q) for q in quads])
    lo, hi = arr.min(axis=1).tolist(), arr.max(axis=1).tolist()
    return [(x0, y0, x1, y1) for (x0, y0), (x1, y1) in zip(lo, hi)]


def apart(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Do boxes a and b (see `boxes`) lie strictly apart? Then their quads do not
    overlap: intersection_area and iou are 0."""
    return a[0] > b[2] or b[0] > a[2] or a[1] > b[3] or b[1] > a[3]


def box_iou(a: Sequence[float], b: Sequence[float]) -> float:
    """IoU of two axis-aligned boxes (x0, y0, x1, y1)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def bounding_box(q: np.ndarray) -> tuple[float, float, float, float]:
    a = as_array(q)
    return (float(a[:, 0].min()), float(a[:, 1].min()), float(a[:, 0].max()), float(a[:, 1].max()))


def quad_areas(qs: np.ndarray) -> np.ndarray:
    """`quad_area` of many quads (N, 4, 2) at once (shoelace, float64)."""
    q = np.asarray(qs, dtype=np.float64).reshape(-1, 4, 2)
    x, y = q[:, :, 0], q[:, :, 1]
    return 0.5 * np.abs((x * y[:, [1, 2, 3, 0]] - x[:, [1, 2, 3, 0]] * y).sum(axis=1))


def short_long(qs: np.ndarray) -> np.ndarray:
    """(short, long) side of many quads (N, 4, 2): the means of opposite edges,
    as `aspect` takes them; (N, 2)."""
    q = np.asarray(qs, dtype=np.float32).reshape(-1, 4, 2)
    e = lengths(q[:, [1, 2, 3, 0]] - q)
    return np.sort(np.stack([(e[:, 0] + e[:, 2]) / 2, (e[:, 1] + e[:, 3]) / 2], axis=1), axis=1)
