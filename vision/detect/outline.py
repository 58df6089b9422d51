"""What lies along a card hypothesis's outline: edge flags, the brightness step
across it, edges running on past its corners, whether its inside looks like bare
table, and which points lie inside other quads. select.py scores and chooses cards
from these; the detector's other rules (sizes, cutoff, stack order) read them too.

Each runs through a compiled kernel (vision.detect.kernels.outline) on float32 quads
where numba is there, else through the numpy code below: the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect import geometry as g
from vision.detect import kernels
from vision.detect.evidence import Evidence, sample, side_masks

#: Points sampled along each side of a hypothesis.
SIDE_SAMPLES = 20


def outline_on(ev: Evidence, quads: np.ndarray, n: int = SIDE_SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """Sample points along each side of each quad (H, 4, 2) and whether an edge runs
    along the side there: returns points (H, 4*n, 2) and flags (H, 4*n)."""
    h = len(quads)
    return outline_points(quads, n).reshape(h, 4 * n, 2), outline_flags(ev, quads, n)


def outline_flags(ev: Evidence, quads: np.ndarray, n: int = SIDE_SAMPLES) -> np.ndarray:
    """The flags of `outline_on` (H, 4*n) without the points: whether an edge runs
    along each side at its sample points. Compiled where numba is (score_many asks
    for a few hundred outlines a frame), else the numpy lookup, same flags."""
    h = len(quads)
    d = quads[:, [1, 2, 3, 0]] - quads
    masks = side_masks(np.degrees(np.arctan2(d[..., 1], d[..., 0])))  # (H, 4)
    if _compiled(quads):
        t = SIDE_T if n == SIDE_SAMPLES else _side_t(n)
        on = np.empty((h, 4 * n), dtype=bool)
        kernels.outline_flags(np.ascontiguousarray(ev.bits, dtype=np.uint8),
                              np.ascontiguousarray(quads), t, 1 - t,
                              np.ascontiguousarray(masks, dtype=np.int64), on)
        return on
    pts = outline_points(quads, n)  # (H, 4, n, 2)
    v = sample(ev.bits, pts.reshape(-1, 2)).reshape(h, 4, n)
    ok = ~np.isnan(v)
    vi = np.where(ok, v, 0).astype(np.int64)
    on = ok & ((vi & masks[:, :, None]) != 0)
    return on.reshape(h, 4 * n)


def _compiled(quads: np.ndarray) -> bool:
    """Whether the compiled kernel may take these quads: they run in single
    precision, as numpy does on float32 quads (the detector's), not on others."""
    return kernels.COMPILED and quads.dtype == np.float32


def _side_t(n: int) -> np.ndarray:
    """Where along a side `outline_points` samples (fractions, single precision)."""
    return np.linspace(0.06, 0.94, n, dtype=np.float32)


#: The sample fractions along a side at SIDE_SAMPLES (the compiled kernels take them).
SIDE_T = _side_t(SIDE_SAMPLES)


def outline_points(quads: np.ndarray, n: int = SIDE_SAMPLES) -> np.ndarray:
    """The points `outline_on` samples: n along each side of each quad (H, 4, 2),
    as (H, 4, n, 2)."""
    t = SIDE_T if n == SIDE_SAMPLES else _side_t(n)
    return g.lerp_points(quads, quads[:, [1, 2, 3, 0]], t)


#: Where table_like looks inside a quad (fractions both ways).
_TABLE_GRID = np.linspace(0.15, 0.85, 6, dtype=np.float32)


def table_like(ev: Evidence, q: np.ndarray, covered: list[np.ndarray]) -> bool:
    """Does the part of `q` not under `covered` look like bare table? (A partly
    covered card shows card there; a quad pieced together from other cards'
    borders and wood grain shows table.)"""
    if _compiled(q):
        lines = quad_lines(covered, 2.0) if covered else np.zeros((0, 4, 3), dtype=np.float32)
        return bool(kernels.table_share(
            np.ascontiguousarray(ev.color, dtype=np.uint8), np.ascontiguousarray(q, dtype=np.float32),
            _TABLE_GRID, 1 - _TABLE_GRID, lines, np.ascontiguousarray(ev.table, dtype=np.float32)))
    u = _TABLE_GRID
    uu, vv = np.meshgrid(u, u)
    uu, vv = uu.ravel()[:, None], vv.ravel()[:, None]
    pts = (q[0] * (1 - uu) * (1 - vv) + q[1] * uu * (1 - vv)
           + q[2] * uu * vv + q[3] * (1 - uu) * vv).astype(np.float32)
    if covered:
        pts = pts[~inside_quads(pts, covered, 2.0)]
    if len(pts) < 4:
        return False
    b = sample(ev.color[:, :, 0], pts)
    g_ = sample(ev.color[:, :, 1], pts)
    r = sample(ev.color[:, :, 2], pts)
    dist = np.abs(np.stack([b, g_, r], axis=1) - ev.table[None, :]).sum(axis=1)
    return float(np.mean(dist < 40.0)) >= 0.6


def polarity(ev: Evidence, quads: np.ndarray, n: int = SIDE_SAMPLES,
             where: np.ndarray | None = None) -> np.ndarray:
    """At the points of `outline_on`, the sign of the brightness step across the
    border (+1 brighter inside, -1 darker inside, 0 no clear step), (H, 4*n) int8;
    0 where `where` (H, 4*n) is False (choose counts only points on an edge).

    A card differs from the table in one way all round its border (white paper on
    dark cloth, a dark back on a light one); a quad whose sides merely follow wood
    grain or stripes sees the step flip sign from place to place.
    """
    d = quads[:, [1, 2, 3, 0]] - quads
    nrm = np.stack([-d[..., 1], d[..., 0]], axis=-1)
    nrm = nrm / (g.lengths(nrm)[..., None] + 1e-9)  # inwards, (H, 4, 2)
    if _compiled(quads):
        t = SIDE_T if n == SIDE_SAMPLES else _side_t(n)
        out = np.empty((len(quads), 4 * n), dtype=np.int8)
        mask = np.ones(out.shape, dtype=bool) if where is None else np.ascontiguousarray(where, dtype=bool)
        kernels.outline_polarity(
            np.ascontiguousarray(ev.gx, dtype=np.float32), np.ascontiguousarray(ev.gy, dtype=np.float32),
            np.ascontiguousarray(quads, dtype=np.float32), t, 1 - t,
            np.ascontiguousarray(nrm, dtype=np.float32), mask, out)
        return out
    pts = outline_points(quads, n).reshape(-1, 2)
    gx = sample(ev.gx, pts).reshape(len(quads), 4, n)
    gy = sample(ev.gy, pts).reshape(len(quads), 4, n)
    step = gx * nrm[:, :, None, 0] + gy * nrm[:, :, None, 1]
    sgn = np.where(step > 15.0, 1, np.where(step < -15.0, -1, 0)).astype(np.int8)
    sgn = sgn.reshape(len(quads), 4 * n)
    return sgn if where is None else np.where(where, sgn, 0).astype(np.int8)


#: Where `overshoot` looks past a corner, straight on along each side, as shares
#: of the card's short side: past the rounding of a card's corner (a few % of its
#: width) and out to a quarter of its width (at least 3 px).
PAST_CORNER = np.array([0.1, 0.17, 0.24], dtype=np.float32)


@dataclass(frozen=True, slots=True)
class PastCorners:
    """The points `overshoot` (and clean_card_border, cutoff.py) look at past the
    corners of quads (H, 4, 2): side d[:, k] runs from corner k to corner k + 1,
    u its unit vector, steps (H, 3) the distances past the corners, and pts
    (H, 4, 6, 2): per side, 3 points before its first corner, then 3 past its second
    (None when not asked for: the compiled overshoot works them out itself)."""

    d: np.ndarray
    u: np.ndarray
    steps: np.ndarray
    pts: np.ndarray | None


def past_corners(quads: np.ndarray, points: bool = True) -> PastCorners:
    a = quads
    b = quads[:, [1, 2, 3, 0]]
    d = b - a
    ln = g.lengths(d)  # (H, 4)
    u = d / (ln[..., None] + 1e-9)  # (H, 4, 2)
    short = np.minimum(ln[:, 0] + ln[:, 2], ln[:, 1] + ln[:, 3]) / 2  # (H,)
    steps = np.maximum(3.0, short[:, None] * PAST_CORNER[None, :])
    if not points:
        return PastCorners(d, u, steps, None)
    st = steps[:, None, :, None]
    pts = np.concatenate([a[:, :, None, :] - u[:, :, None, :] * st,
                          b[:, :, None, :] + u[:, :, None, :] * st], axis=2)  # (H, 4, 6, 2)
    return PastCorners(d, u, steps, pts)


def overshoot(ev: Evidence, quads: np.ndarray) -> np.ndarray:
    """Per quad (H, 4, 2): share of points just past its corners, straight on along
    each side, where the side's edge still runs (less those where an edge runs
    across: texture). A true card corner is rounded and
    ends there; a quad that stops (or runs on) along another card's edge is not a
    card corner."""
    compiled = _compiled(quads)
    past = past_corners(quads, points=not compiled)
    masks, across = _along_across(past.d)
    h = len(quads)
    if past.pts is None:  # compiled: the kernel works the points out itself
        out = np.empty(h, dtype=np.float64)
        kernels.corner_overshoot(
            np.ascontiguousarray(ev.bits, dtype=np.uint8), np.ascontiguousarray(quads, dtype=np.float32),
            np.ascontiguousarray(past.u, dtype=np.float32),
            np.ascontiguousarray(past.steps, dtype=np.float32),
            np.ascontiguousarray(masks, dtype=np.int64), np.ascontiguousarray(across, dtype=np.int64),
            out)
        return out
    v = sample(ev.bits, past.pts.reshape(-1, 2)).reshape(past.pts.shape[:3]).astype(np.int64)
    on = (v & masks[:, :, None]) != 0
    # Texture (carpet, wood grain) has edges every way: count only the excess of
    # edges running along the side over edges running across it.
    off = (v & across[:, :, None]) != 0
    return np.clip(on.reshape(h, -1).mean(axis=1) - off.reshape(h, -1).mean(axis=1), 0.0, 1.0)


def _along_across(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Edge-direction masks of sides d (H, 4, 2): along each side, and across it."""
    ang = np.degrees(np.arctan2(d[..., 1], d[..., 0]))
    return side_masks(ang), side_masks(ang + 90.0)


def inside_quads(pts: np.ndarray, quads: list[np.ndarray], margin: float) -> np.ndarray:
    """Mask of points inside, or within `margin` pixels of, any of the convex quads
    (clockwise on screen). Vectorised: selection calls it for every hypothesis."""
    hit = np.zeros(len(pts), dtype=bool)
    if not quads:
        return hit
    px = np.ascontiguousarray(pts[:, 0], dtype=np.float32)
    py = np.ascontiguousarray(pts[:, 1], dtype=np.float32)
    kernels.mark_inside(px, py, quad_lines(quads, margin), hit)
    return hit


def quad_lines(quads: list[np.ndarray], margin: float) -> np.ndarray:
    """The side tests of `inside_quads` (Q, 4, 3) float32: a point (x, y) is inside
    quad a, or within `margin` of it, where ex*y - ey*x > c for all four rows
    (ex, ey, c) of lines[a]."""
    rows = []
    for q in quads:
        c = np.asarray(q).tolist()  # plain floats: the same figures, fast to index
        for i in range(4):
            ax, ay = float(c[i][0]), float(c[i][1])
            ex, ey = float(c[(i + 1) % 4][0]) - ax, float(c[(i + 1) % 4][1]) - ay
            n = (ex * ex + ey * ey) ** 0.5 + 1e-9
            # For a clockwise quad (y down) the inside is where cross(e, p - a) >= 0;
            # as a line test: ex*py - ey*px > c (compared in single precision).
            rows.append((ex, ey, ex * ay - ey * ax - margin * n))
    return np.array(rows, dtype=np.float32).reshape(len(quads), 4, 3)


#: A whole outline whose overshoot reaches the cloth-cell bar (select.choose's 0.3)
#: may still be a card when it stays under this and its border is clean (see
#: `clean_card_border`).
OVERSHOOT_EXCUSED = 0.5


def clean_card_border(ev: Evidence, quads: np.ndarray, support: np.ndarray,
                      side_min: np.ndarray, step: np.ndarray, stepped: np.ndarray,
                      over: np.ndarray) -> np.ndarray:
    """Of quads (H, 4, 2), the indices of those that are a card whose outline
    runs on past its corners only here and there, not a cell of a checked cloth.

    Why: `overshoot` counts edges running on past a quad's corners. A cloth's
    check lines run on past every corner of a cell, both ways (a cross at each
    corner); a card on wrinkled or folded cloth has a wrinkle running on from a
    corner or two. So a quad with overshoot under OVERSHOOT_EXCUSED is a card
    when its border is as clean as a card's can be (`support` >= 0.95, weakest
    side `side_min` >= 0.9, one brightness step all round, 95% of the points
    with a step agreeing, and brighter inside: paper on cloth), at most five of its eight side ends run
    on, and paper fills at least 60% of its inside. (On rendered checked and
    striped cloth, cells that clean show six to eight running ends, or a
    coloured inside; the white cells among them are blank, which
    blank.looks_blank refuses too.)

    `support`, `side_min`, `over`: (H,) figures choose has already; `step`: the
    sum of `polarity`'s signs at the points on an edge, `stepped`: how many have
    a sign. The sampling here is done only for the few quads passing those bars.
    """
    maybe = np.flatnonzero(over >= 0.3)  # few: the other bars only for these
    if len(maybe):
        maybe = maybe[(over[maybe] < OVERSHOOT_EXCUSED) & (support[maybe] >= 0.95)
                      & (side_min[maybe] >= 0.9)
                      & (step[maybe] >= 0.95 * np.maximum(stepped[maybe], 1))]
    if not len(maybe):
        return maybe
    q = np.asarray(quads[maybe], dtype=np.float32)
    return maybe[(_running_ends(ev, q) <= 5) & (_paper_inside(ev, q) >= 0.6)]


def _running_ends(ev: Evidence, quads: np.ndarray) -> np.ndarray:
    """Per quad (H, 4, 2): of its 8 side ends, how many have the side's edge
    running on past the corner (at two of the three points `overshoot` looks at)."""
    past = past_corners(quads)
    assert past.pts is not None
    masks = _along_across(past.d)[0][:, :, None]
    v = sample(ev.bits, past.pts.reshape(-1, 2)).reshape(past.pts.shape[:3]).astype(np.int64)
    on = ((v & masks) != 0).reshape(len(quads), 4, 2, 3).sum(axis=3) >= 2
    return on.reshape(len(quads), 8).sum(axis=1)


def _paper_inside(ev: Evidence, quads: np.ndarray) -> np.ndarray:
    """Per quad (H, 4, 2): share of a 6x6 grid inside it (table_like's) on paper."""
    uu, vv = np.meshgrid(_TABLE_GRID, _TABLE_GRID)
    uu, vv = uu.ravel()[None, :, None], vv.ravel()[None, :, None]
    q = quads[:, :, None, :]
    pts = (q[:, 0] * (1 - uu) * (1 - vv) + q[:, 1] * uu * (1 - vv)
           + q[:, 2] * uu * vv + q[:, 3] * (1 - uu) * vv).astype(np.float32)  # (H, 36, 2)
    return (sample(ev.bright, pts.reshape(-1, 2)).reshape(len(quads), -1) > 0).mean(axis=1)
