"""Scoring card hypotheses against image edges, snapping them onto the true border,
and choosing a consistent set of cards (on top first, then the ones they cover).

Why greedy and top-first: a card lying on top shows its whole outline, so it scores
best and is taken first; a card under it shows only part of its outline, and is
judged only on the part not hidden by cards already taken. The same rule rejects a
rectangle spanning two cards side by side: the seam between them runs through its
middle, which no real card shows.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np

from vision.detect import geometry as g
from vision.detect import kernels, prune
from vision.detect.blank import looks_blank
from vision.detect.evidence import Evidence, sample, side_masks
from vision.detect.seams import SeamCache

#: Points sampled along each side of a hypothesis.
SIDE_SAMPLES = 20


@dataclass(frozen=True, slots=True, eq=False)
class Scored:
    quad: np.ndarray  # (4, 2) float32, work scale, ordered
    support: float  # share of the outline near an edge
    side_min: float  # weakest side's support
    on: np.ndarray | None = None  # outline_on's flags (4 * SIDE_SAMPLES,), kept for choose


def score(ev: Evidence, q: np.ndarray) -> Scored:
    return score_many(ev, [q])[0]


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
        t = _SIDE_T if n == SIDE_SAMPLES else _side_t(n)
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


_SIDE_T = _side_t(SIDE_SAMPLES)


def outline_points(quads: np.ndarray, n: int = SIDE_SAMPLES) -> np.ndarray:
    """The points `outline_on` samples: n along each side of each quad (H, 4, 2),
    as (H, 4, n, 2)."""
    t = _SIDE_T if n == SIDE_SAMPLES else _side_t(n)
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
        t = _SIDE_T if n == SIDE_SAMPLES else _side_t(n)
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


def overshoot(ev: Evidence, quads: np.ndarray) -> np.ndarray:
    """Per quad (H, 4, 2): share of points just past its corners, straight on along
    each side, where the side's edge still runs (less those where an edge runs
    across: texture). A true card corner is rounded and
    ends there; a quad that stops (or runs on) along another card's edge is not a
    card corner."""
    a = quads
    b = quads[:, [1, 2, 3, 0]]
    d = b - a
    ln = g.lengths(d)  # (H, 4)
    u = d / (ln[..., None] + 1e-9)  # (H, 4, 2)
    short = np.minimum(ln[:, 0] + ln[:, 2], ln[:, 1] + ln[:, 3]) / 2  # (H,)
    # Past the rounding of a card's corner (a few % of its width) and out to a
    # quarter of its width.
    fr = np.array([0.1, 0.17, 0.24], dtype=np.float32)
    steps = np.maximum(3.0, short[:, None] * fr[None, :])
    ang = np.degrees(np.arctan2(d[..., 1], d[..., 0]))
    masks = side_masks(ang)
    across = side_masks(ang + 90.0)
    h = len(quads)
    if _compiled(quads):
        out = np.empty(h, dtype=np.float64)
        kernels.corner_overshoot(
            np.ascontiguousarray(ev.bits, dtype=np.uint8), np.ascontiguousarray(a, dtype=np.float32),
            np.ascontiguousarray(u, dtype=np.float32), np.ascontiguousarray(steps, dtype=np.float32),
            np.ascontiguousarray(masks, dtype=np.int64), np.ascontiguousarray(across, dtype=np.int64),
            out)
        return out
    steps = steps[:, None, :, None]
    past_b = b[:, :, None, :] + u[:, :, None, :] * steps
    past_a = a[:, :, None, :] - u[:, :, None, :] * steps
    pts = np.concatenate([past_a, past_b], axis=2)  # (H, 4, 6, 2)
    v = sample(ev.bits, pts.reshape(-1, 2)).reshape(pts.shape[:3]).astype(np.int64)
    on = (v & masks[:, :, None]) != 0
    # Texture (carpet, wood grain) has edges every way: count only the excess of
    # edges running along the side over edges running across it.
    off = (v & across[:, :, None]) != 0
    return np.clip(on.reshape(h, -1).mean(axis=1) - off.reshape(h, -1).mean(axis=1), 0.0, 1.0)


def score_many(ev: Evidence, quads: list[np.ndarray]) -> list[Scored]:
    """Edge support of many quads at once (one vectorised lookup)."""
    if not quads:
        return []
    # np.array, not np.stack: the same array, without stack's per-item calls.
    arr = np.array(quads, dtype=np.float32)  # (H, 4, 2)
    on = outline_flags(ev, arr)
    per_side = on.reshape(len(arr), 4, -1).mean(axis=2)
    sup = per_side.mean(axis=1)
    mins = per_side.min(axis=1)
    return [Scored(q, s, m, o) for q, s, m, o in zip(arr, sup.tolist(), mins.tolist(), on)]


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


@dataclass(frozen=True, slots=True, eq=False)
class Chosen:
    quad: np.ndarray
    support: float  # share of the visible outline backed by edges
    visible_outline: float  # share of the outline not under cards chosen earlier


def dedupe(hyps: list[Scored], grid: float = 4.0) -> list[Scored]:
    """Drop near-identical hypotheses (many guesses snap onto the same card)."""
    if len(hyps) < 2:
        return list(hyps)
    keys = np.rint(np.array([s.quad for s in hyps]).reshape(len(hyps), 8) / grid).astype(np.int32)
    order = np.argsort([-s.support for s in hyps], kind="stable")
    return [hyps[i] for i in first_per_key(keys, order)]


def first_per_key(keys: np.ndarray, order: np.ndarray) -> list[int]:
    """Of the rows of `keys` (N, K) int32 taken in `order`, the index of the first
    with each distinct key, ascending. (What np.unique(axis=0, return_index=True)
    gives, without its sort of structured rows: five times faster at a few
    hundred rows, and dedupe runs several times a frame.)"""
    k = np.ascontiguousarray(keys[order])
    rows = [bytes(r) for r in k.view(np.dtype((np.void, k.dtype.itemsize * k.shape[1]))).ravel().tolist()]
    first: dict[bytes, int] = {}
    for i, row in zip(order.tolist(), rows):
        first.setdefault(row, i)
    return sorted(first.values())


def nms(hyps: list[Scored], max_iou: float) -> list[Scored]:
    """Best-supported first, dropping any overlapping a kept one by more than
    `max_iou` (the same card outlined by several contours)."""
    kept: list[Scored] = []
    kept_at: list[tuple[tuple[float, float, float, float], float]] = []  # box, area
    ranked = sorted(hyps, key=lambda s: -s.support)
    for s, box in zip(ranked, g.boxes([s.quad for s in ranked])):
        area = g.quad_area(s.quad)
        for k, (k_box, k_area) in zip(kept, kept_at):
            if g.apart(box, k_box):
                continue  # IoU 0 (most pairs): no exact overlap needed
            inter = g.intersection_area(s.quad, k.quad)
            union = area + k_area - inter  # as g.iou(s.quad, k.quad)
            if (inter / union if union > 0 else 0.0) > max_iou:
                break
        else:
            kept.append(s)
            kept_at.append((box, area))
    return kept


def choose(
    ev: Evidence,
    hyps: list[Scored],
    *,
    min_support: float = 0.75,
    min_visible: float = 0.3,
    max_iou: float = 0.8,
    max_cards: int = 60,
    sizes: list[tuple[float, float]] | None = None,
) -> list[Chosen]:
    """Greedy selection, whole cards first (largest first, so a card beats the frame
    printed inside it), then partly covered cards by how much outline they explain.
    See the module docstring."""
    pool = [s for s in hyps if s.support >= max(0.35, min_support * min_visible)]
    pool = prune.drop_unions(ev, pool)
    if not pool:
        return []
    # One seam cache: the seams drop_inner works out are asked for again below.
    before = pool
    seams_before = SeamCache(ev, np.array([s.quad for s in before], dtype=np.float32))
    pool = prune.drop_inner(ev, before, seams=seams_before)
    if not pool:
        return []
    quads = np.array([s.quad for s in pool], dtype=np.float32)  # (H, 4, 2)
    flags = [s.on for s in pool]
    if all(f is not None for f in flags):  # scored by score_many: sampled already
        on = np.array(flags, dtype=bool)
    else:
        on = outline_flags(ev, quads)
    h_n, p_n = on.shape
    # The compiled update works the outline points out again where it needs them.
    pts = None if kernels.COMPILED else outline_points(quads).reshape(h_n, p_n, 2)
    x, y = quads[:, :, 0].astype(np.float64), quads[:, :, 1].astype(np.float64)
    areas = 0.5 * np.abs((x * y[:, [1, 2, 3, 0]] - x[:, [1, 2, 3, 0]] * y).sum(axis=1))
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    box_lo, box_hi = lo.tolist(), hi.tolist()  # plain floats for the pairwise tests
    over = overshoot(ev, quads)
    at = {id(s): i for i, s in enumerate(before)}
    seam = seams_before.subset(np.array([at[id(s)] for s in pool], dtype=np.int64))
    e = g.lengths(quads[:, [1, 2, 3, 0]] - quads)
    pair = np.stack([(e[:, 0] + e[:, 2]) / 2, (e[:, 1] + e[:, 3]) / 2], axis=1)
    dims = np.sort(pair, axis=1)  # (H, 2) short, long
    whole_dims: list[tuple[float, float]] = list(sizes or [])
    covered_pts = np.zeros((h_n, p_n), dtype=bool)
    alive = np.ones(h_n, dtype=bool)
    # Per-hypothesis tallies over its visible outline points, updated only for the
    # hypotheses a newly chosen card covers (the rest do not change).
    signed_on = polarity(ev, quads, where=on)  # signs of the points on an edge
    n_vis = np.full(h_n, p_n, dtype=np.int64)
    n_on = on.sum(axis=1)
    pol_sum = signed_on.sum(axis=1)
    pol_n = (signed_on != 0).sum(axis=1)
    # Whole cards show all four sides: no side may be mostly missing.
    side_min = on.reshape(h_n, 4, -1).mean(axis=2).min(axis=1)
    chosen: list[Chosen] = []
    chosen_area: list[float] = []
    chosen_idx: list[int] = []
    vis_frac, sup = np.empty(h_n), np.empty(h_n)
    ok, whole = np.empty(h_n, dtype=bool), np.empty(h_n, dtype=bool)
    while len(chosen) < max_cards and alive.any():
        # Straight edges running on past (nearly) every corner: a cell of a
        # checked or striped cloth, not a card (whose corners are rounded ends).
        # And one brightness step all round (see polarity), not texture.
        if pts is None:  # compiled: the same figures in one pass
            if not kernels.outline_state(n_vis, n_on, pol_sum, pol_n, alive, over, side_min, p_n,
                                         min_visible, min_support, vis_frac, sup, ok, whole):
                break
        else:
            vis_frac = n_vis / p_n
            sup = n_on / np.maximum(n_vis, 1)
            agree = np.abs(pol_sum) / np.maximum(pol_n, 1)
            ok = alive & (vis_frac >= min_visible) & (sup >= min_support) & (over < 0.3)
            ok &= agree >= 0.5
            if not ok.any():
                break
            whole = ok & (vis_frac >= 0.97) & (sup >= 0.85) & (side_min >= 0.7)
        whole &= ~seam.crossed(whole)
        if whole.any():
            # Best outline first, where an outline whose corners do not end (its
            # sides run on past them: it stops along another card's edge) counts
            # less; among equals the larger (a card before a frame printed in it).
            cand = np.flatnonzero(whole)
            if whole_dims:  # and no fragments: cards are all of a size
                # statistics.median: np.median's figure (middle, or mean of the two
                # middle ones), without its dozen array calls.
                typical = float(statistics.median([s * l for s, l in whole_dims]))
                cand = cand[areas[cand] >= 0.4 * typical]
                if not len(cand):
                    alive[whole] = False
                    continue
            eff = sup[cand] - 0.5 * over[cand]
            cand = cand[np.lexsort((-areas[cand], -np.round(eff * 10)))]
        else:
            # A partly covered card must have the size of the cards seen whole: a
            # patch of card bounded by another card's border is card-shaped too,
            # but rarely card-sized.
            sized = np.ones(h_n, dtype=bool)
            if whole_dims:
                wd = np.array(whole_dims)
                s_lo, l_lo = wd.min(axis=0) * 0.8
                s_hi, l_hi = wd.max(axis=0) * 1.2
                sized = (dims[:, 0] >= s_lo) & (dims[:, 0] <= s_hi)
                sized &= (dims[:, 1] >= l_lo) & (dims[:, 1] <= l_hi)
            # One card seen whole may itself be wrong: its size is then only preferred.
            cand = np.flatnonzero(ok & sized if len(whole_dims) >= 2 else ok)
            if not len(cand):
                break
            key = (sup - 0.5 * over) * np.sqrt(vis_frac) * np.where(sized, 1.0, 0.6)
            cand = cand[np.argsort(-key[cand])]
        picked = None
        seam.prepare(cand[:6])  # one batch: the first few are the likely picks
        for i in cand[:40]:
            # The same card again, or an outline holding a chosen card of about
            # its size (two cards, or one fitted too big): cards are all one size.
            covered, clash = [], False
            (ix0, iy0), (ix1, iy1) = box_lo[i], box_hi[i]
            for p, c_area in zip(chosen_idx, chosen_area):
                (px0, py0), (px1, py1) = box_lo[p], box_hi[p]
                if px0 > ix1 or px1 < ix0 or py0 > iy1 or py1 < iy0:
                    continue  # bounding boxes apart
                inter = g.intersection_area(quads[i], quads[p])
                if inter > max_iou * (areas[i] + c_area - inter) or (
                        c_area >= 0.5 * areas[i] and inter >= 0.85 * c_area):
                    clash = True
                    break
                if inter > 1.0:
                    covered.append(quads[p])
            if clash:
                alive[i] = False
                continue
            if seam.in_view(int(i), covered) or (
                    table_like(ev, quads[i], covered) if vis_frac[i] < 0.97
                    else looks_blank(ev, quads[i])):
                alive[i] = False
                continue
            picked = int(i)
            break
        if picked is None:
            alive[cand[:40]] = False
            continue
        alive[picked] = False
        if vis_frac[picked] >= 0.97:
            whole_dims.append((float(dims[picked, 0]), float(dims[picked, 1])))
        chosen.append(Chosen(quads[picked], float(sup[picked]), float(vis_frac[picked])))
        chosen_idx.append(picked)
        chosen_area.append(float(areas[picked]))
        x0, y0 = quads[picked].min(axis=0) - 3.0
        x1, y1 = quads[picked].max(axis=0) + 3.0
        if pts is None:  # compiled: the same update without numpy's small calls
            kernels.cover_outlines(
                quads, _SIDE_T, 1 - _SIDE_T, quad_lines([quads[picked]], 2.5)[0],
                np.array([x0, y0, x1, y1], dtype=np.float32), alive, lo, hi, covered_pts, on,
                signed_on, n_vis, n_on, pol_sum, pol_n)
        else:
            near = np.flatnonzero(
                alive & (lo[:, 0] <= x1) & (hi[:, 0] >= x0) & (lo[:, 1] <= y1) & (hi[:, 1] >= y0)
            )
            if len(near):
                hit = inside_quads(pts[near].reshape(-1, 2), [quads[picked]], 2.5)
                covered_pts[near] |= hit.reshape(len(near), p_n)
                vis = ~covered_pts[near]
                n_vis[near] = vis.sum(axis=1)
                n_on[near] = (on[near] & vis).sum(axis=1)
                sv = np.where(vis, signed_on[near], 0)
                pol_sum[near] = sv.sum(axis=1)
                pol_n[near] = (sv != 0).sum(axis=1)
    return prune.drop_small(prune.drop_nested(chosen))
