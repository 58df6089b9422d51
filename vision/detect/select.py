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
from vision.detect.evidence import Evidence
from vision.detect.outline import (
    SIDE_T,
    clean_card_border,
    inside_quads,
    outline_flags,
    outline_points,
    overshoot,
    polarity,
    quad_lines,
    table_like,
)
from vision.detect.perspective import SizeField
from vision.detect.seams import SeamCache


@dataclass(slots=True, eq=False)
class Scored:
    """A quad and its edge support. Not frozen, though never changed: a frame makes
    about 300 of them, and a frozen dataclass's __init__ (object.__setattr__ per
    field) took three times as long (0.1 ms a frame)."""

    quad: np.ndarray  # (4, 2) float32, work scale, ordered
    support: float  # share of the outline near an edge
    side_min: float  # weakest side's support
    on: np.ndarray | None = None  # outline_on's flags (4 * SIDE_SAMPLES,), kept for choose


def score(ev: Evidence, q: np.ndarray) -> Scored:
    return score_many(ev, [q])[0]


def score_many(ev: Evidence, quads: list[np.ndarray]) -> list[Scored]:
    """Edge support of many quads at once (one vectorised lookup)."""
    if not quads:
        return []
    # np.array, not np.stack: the same array, without stack's per-item calls.
    arr = np.array(quads, dtype=np.float32)  # (H, 4, 2)
    on = outline_flags(ev, arr)
    if kernels.COMPILED:  # the same means in one pass (kernels.side_support)
        on = np.ascontiguousarray(on, dtype=bool)
        sup, mins = np.empty(len(arr)), np.empty(len(arr))
        kernels.side_support(on, on.shape[1] // 4, sup, mins)
    else:
        per_side = on.reshape(len(arr), 4, -1).mean(axis=2)
        sup = per_side.mean(axis=1)
        mins = per_side.min(axis=1)
    return [Scored(q, s, m, o) for q, s, m, o in zip(arr, sup.tolist(), mins.tolist(), on)]


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
    whole_at: list[tuple[float, float]] = []  # centres of the cards chosen whole
    centres = quads.mean(axis=1)
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
    # A card on wrinkled cloth: a wrinkle or two run on past its corners, which
    # is no cloth cell (see clean_card_border); judged by its other corners.
    excused = clean_card_border(ev, quads, n_on / p_n, side_min, pol_sum, pol_n, over)
    if len(excused):
        over[excused] = 0.0
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
        typical = 0.0
        if whole.any():
            # Best outline first, where an outline whose corners do not end (its
            # sides run on past them: it stops along another card's edge) counts
            # less; among equals the larger (a card before a frame printed in it).
            cand = np.flatnonzero(whole)
            if whole_dims:  # and no fragments: cards are all of a size
                # statistics.median: np.median's figure (middle, or mean of the two
                # middle ones), without its dozen array calls.
                typical = float(statistics.median([s * l for s, l in whole_dims]))
                small = areas[cand] < 0.4 * typical
                if small.any() and len(whole_at) >= 3 and len(whole_at) == len(whole_dims):
                    # ... as big as the cards seen whole *there*: a slanted camera
                    # sees the far cards smaller (perspective.py). Only a card lying
                    # apart: a piece of a card found is no far card.
                    field = SizeField(whole_at, [s * l for s, l in whole_dims], ev.shape[::-1])
                    far = small & field.far(areas[cand], centres[cand])
                    for k in np.flatnonzero(far):
                        far[k] = prune.apart(quads[cand[k]], [quads[p] for p in chosen_idx])
                    small &= ~far
                if small.any() and len(whole_dims) == 1:
                    # One outline seen whole may be a sheet (an envelope, a
                    # notebook): a crisp card lying clear of it is kept to be judged.
                    for k in np.flatnonzero(small):
                        i = int(cand[k])
                        small[k] = not (prune.crisp(float(sup[i]), float(side_min[i])) and prune.lone_card(
                            quads[i], float(areas[i]), typical, [quads[p] for p in chosen_idx]))
                cand = cand[~small]
                if not len(cand):
                    alive[whole] = False
                    continue
            eff = sup[cand] - 0.5 * over[cand]
            cand = cand[np.lexsort((-areas[cand], -np.round(eff * 10)))]
            cand = _best_of_twins(quads, areas, sup, cand, box_lo, box_hi)
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
            # Two cards side by side taken for one are in view whole, and either
            # not backed all round (the seam's ends) or bigger than the cards
            # seen whole: only then are slanted seams looked for (they cost).
            pair_like = vis_frac[i] >= 0.97 and (not whole[i] or (
                bool(whole_dims) and areas[i] >= 1.25 * typical))
            if seam.in_view(int(i), covered, slanted=pair_like) or (
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
            whole_at.append((float(centres[picked, 0]), float(centres[picked, 1])))
        chosen.append(Chosen(quads[picked], float(sup[picked]), float(vis_frac[picked])))
        chosen_idx.append(picked)
        chosen_area.append(float(areas[picked]))
        x0, y0 = quads[picked].min(axis=0) - 3.0
        x1, y1 = quads[picked].max(axis=0) + 3.0
        if pts is None:  # compiled: the same update without numpy's small calls
            kernels.cover_outlines(
                quads, SIDE_T, 1 - SIDE_T, quad_lines([quads[picked]], 2.5)[0],
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
    return prune.drop_small(prune.drop_nested(chosen), frame=ev.shape[::-1])


def _best_of_twins(quads: np.ndarray, areas: np.ndarray, sup: np.ndarray, cand: np.ndarray,
                   box_lo: list[list[float]], box_hi: list[list[float]]) -> np.ndarray:
    """`cand` (whole outlines, best first) with the first one's best-backed twin
    moved before it: an outline of about its size and place (IoU >= 0.7, areas
    within 1.25x) backed by edges on clearly more of its length.

    Why: the larger of two equals goes first so that a card beats the frame
    printed in it (IoU ~0.6, a margin all round); but of two outlines of one card,
    the one a few pixels off (a side on the shadow or on a card under it, 0.86-
    0.95 backed) was taken over the card's own fully backed outline whose sides
    run on a little past its corners (a card in line with it), and the card read
    through the wrong outline or not at all.
    """
    if len(cand) < 2:
        return cand
    first = int(cand[0])
    (fx0, fy0), (fx1, fy1) = box_lo[first], box_hi[first]
    best, best_sup = -1, float(sup[first]) + 0.03
    for k in range(1, min(len(cand), 40)):
        j = int(cand[k])
        if sup[j] <= best_sup or not 0.8 <= areas[j] / max(areas[first], 1e-9) <= 1.25:
            continue
        (jx0, jy0), (jx1, jy1) = box_lo[j], box_hi[j]
        if jx0 > fx1 or jx1 < fx0 or jy0 > fy1 or jy1 < fy0:
            continue
        inter = g.intersection_area(quads[first], quads[j])
        if inter >= 0.7 * (areas[first] + areas[j] - inter):
            best, best_sup = k, float(sup[j])
    if best < 0:
        return cand
    return np.concatenate([cand[best:best + 1], cand[:best], cand[best + 1:]])
