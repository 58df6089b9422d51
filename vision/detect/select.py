"""Scoring card hypotheses against image edges, snapping them onto the true border,
and choosing a consistent set of cards (on top first, then the ones they cover).

Why greedy and top-first: a card lying on top shows its whole outline, so it scores
best and is taken first; a card under it shows only part of its outline, and is
judged only on the part not hidden by cards already taken. The same rule rejects a
rectangle spanning two cards side by side: the seam between them runs through its
middle, which no real card shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect.evidence import Evidence, line_angle, on_edge, sample, side_mask

#: Points sampled along each side of a hypothesis.
SIDE_SAMPLES = 20
#: A sampled border point is "on an edge" when an edge pixel lies this close (work px).
EDGE_TOL = 2.0


@dataclass(frozen=True, slots=True, eq=False)
class Scored:
    quad: np.ndarray  # (4, 2) float32, work scale, ordered
    support: float  # share of the outline near an edge
    side_min: float  # weakest side's support


def outline_points(q: np.ndarray, n: int = SIDE_SAMPLES, inset: float = 0.06) -> np.ndarray:
    """(4, n, 2) points along the four sides, skipping the rounded corners."""
    t = np.linspace(inset, 1.0 - inset, n, dtype=np.float32)[:, None]
    a = q
    b = np.roll(q, -1, axis=0)
    return a[:, None, :] * (1 - t)[None] + b[:, None, :] * t[None]


def score(ev: Evidence, q: np.ndarray) -> Scored:
    return score_many(ev, [q])[0]


def outline_on(ev: Evidence, quads: np.ndarray, n: int = SIDE_SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """Sample points along each side of each quad (H, 4, 2) and whether an edge runs
    along the side there: returns points (H, 4*n, 2) and flags (H, 4*n)."""
    t = np.linspace(0.06, 0.94, n, dtype=np.float32)[None, None, :, None]
    a = quads[:, :, None, :]
    b = np.roll(quads, -1, axis=1)[:, :, None, :]
    pts = a * (1 - t) + b * t  # (H, 4, n, 2)
    d = b[:, :, 0, :] - a[:, :, 0, :]
    ang = np.degrees(np.arctan2(d[..., 1], d[..., 0]))  # (H, 4)
    masks = np.vectorize(side_mask, otypes=[np.int64])(ang)
    v = sample(ev.bits, pts.reshape(-1, 2)).reshape(len(quads), 4, n)
    ok = ~np.isnan(v)
    vi = np.where(ok, v, 0).astype(np.int64)
    on = ok & ((vi & masks[:, :, None]) != 0)
    h = len(quads)
    return pts.reshape(h, 4 * n, 2), on.reshape(h, 4 * n)


def score_many(ev: Evidence, quads: list[np.ndarray]) -> list[Scored]:
    """Edge support of many quads at once (one vectorised lookup)."""
    if not quads:
        return []
    arr = np.stack(quads).astype(np.float32)  # (H, 4, 2)
    _, on = outline_on(ev, arr)
    per_side = on.reshape(len(arr), 4, -1).mean(axis=2)
    sup = per_side.mean(axis=1)
    mins = per_side.min(axis=1)
    return [Scored(arr[i], float(sup[i]), float(mins[i])) for i in range(len(arr))]


def refine(ev: Evidence, q: np.ndarray, reach: float = 4.0) -> np.ndarray:
    """Move each side onto the strongest gradient across it within `reach` pixels (a
    robust line fit), then intersect neighbouring sides. Sides with too little
    evidence (hidden under another card) stay where they are."""
    n = 24
    pts = outline_points(q, n, inset=0.12)  # (4, n, 2)
    d = q[[1, 2, 3, 0]] - q
    normals = np.stack([-d[:, 1], d[:, 0]], axis=1)
    normals /= np.linalg.norm(normals, axis=1, keepdims=True) + 1e-9
    offsets = np.linspace(-reach, reach, int(4 * reach) + 1, dtype=np.float32)
    cand = pts[:, :, None, :] + offsets[None, None, :, None] * normals[:, None, None, :]
    flat = cand.reshape(-1, 2)
    gxs = sample(ev.gx, flat).reshape(cand.shape[:3])
    gys = sample(ev.gy, flat).reshape(cand.shape[:3])
    mags = np.abs(gxs * normals[:, None, None, 0] + gys * normals[:, None, None, 1])
    mags = np.where(np.isnan(mags), 0.0, mags)
    best = mags.argmax(axis=2)  # (4, n)
    peak = np.take_along_axis(mags, best[:, :, None], axis=2)[:, :, 0]
    found = np.take_along_axis(cand, best[:, :, None, None], axis=2)[:, :, 0, :]
    lines: list[tuple[np.ndarray, np.ndarray] | None] = []
    for i in range(4):
        strong = peak[i] > 20.0
        if strong.sum() < n * 0.5:
            lines.append(None)
            continue
        vx, vy, x0, y0 = cv2.fitLine(found[i][strong].reshape(-1, 1, 2), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)))
    out = q.copy()
    for i in range(4):
        prev_line, next_line = lines[i - 1], lines[i]
        if prev_line is None and next_line is None:
            continue
        if prev_line is None or next_line is None:
            # One side known: slide the corner onto it along the other side.
            known = prev_line if prev_line is not None else next_line
            j = i if prev_line is not None else (i - 1) % 4
            along = q[(j + 1) % 4] - q[j]
            p = _intersect(known, (q[i], along / (np.linalg.norm(along) + 1e-9)))
        else:
            p = _intersect(prev_line, next_line)
        if p is not None and abs(p[0] - q[i][0]) + abs(p[1] - q[i][1]) <= reach * 3.0:
            out[i] = p
    return out


def _intersect(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (p1, d1), (p2, d2) = l1, l2
    det = float(d1[0] * -d2[1] + d2[0] * d1[1])
    if abs(det) < 1e-6:
        return None
    rx, ry = float(p2[0] - p1[0]), float(p2[1] - p1[1])
    t = (rx * -d2[1] + d2[0] * ry) / det
    return np.array([p1[0] + d1[0] * t, p1[1] + d1[1] * t], dtype=np.float32)


def inside_quads(pts: np.ndarray, quads: list[np.ndarray], margin: float) -> np.ndarray:
    """Mask of points inside, or within `margin` pixels of, any of the convex quads
    (clockwise on screen). Vectorised: selection calls it for every hypothesis."""
    hit = np.zeros(len(pts), dtype=bool)
    for q in quads:
        a = q
        e = np.roll(q, -1, axis=0) - a
        norm = np.linalg.norm(e, axis=1) + 1e-9
        rel = pts[:, None, :] - a[None, :, :]
        # For a clockwise quad (y down) the inside is where cross(e, p - a) >= 0.
        sd = (e[None, :, 0] * rel[:, :, 1] - e[None, :, 1] * rel[:, :, 0]) / norm[None]
        hit |= sd.min(axis=1) > -margin
    return hit


def seam_inside(ev: Evidence, q: np.ndarray, covered: list[np.ndarray]) -> bool:
    """True if a straight edge runs right across the middle of `q`, parallel to a
    side and out to both borders: the seam between two cards lying side by side,
    which a single card never shows. (Lines printed on a card, like the divide of a
    court picture or a back's frame, stop at the white margin; the ends are what
    tell them apart.)"""
    n = 24
    t = np.concatenate([
        np.linspace(0.015, 0.07, 4), np.linspace(0.12, 0.88, n), np.linspace(0.93, 0.985, 4)
    ]).astype(np.float32)[None, :, None]
    fs = np.array([0.38, 0.44, 0.5, 0.56, 0.62], dtype=np.float32)[:, None]
    # Lines parallel to side 0-1, then lines parallel to side 1-2.
    a = np.concatenate([q[0] * (1 - fs) + q[3] * fs, q[0] * (1 - fs) + q[1] * fs])
    b = np.concatenate([q[1] * (1 - fs) + q[2] * fs, q[3] * (1 - fs) + q[2] * fs])
    pts = a[:, None, :] * (1 - t) + b[:, None, :] * t  # (10, 32, 2)
    ang = np.array([line_angle(q[0], q[1])] * 5 + [line_angle(q[1], q[2])] * 5)
    masks = np.array([side_mask(x) for x in ang], dtype=np.int64)
    v = sample(ev.bits, pts.reshape(-1, 2)).reshape(pts.shape[:2])
    ok = ~np.isnan(v)
    d = ok & ((np.where(ok, v, 0).astype(np.int64) & masks[:, None]) != 0)
    if covered:
        hidden = inside_quads(pts.reshape(-1, 2), covered, 3.0).reshape(pts.shape[:2])
        d = d | hidden
        usable = hidden.mean(axis=1) <= 0.4
    else:
        usable = np.ones(len(pts), dtype=bool)
    mid = d[:, 4:-4].mean(axis=1) >= 0.85
    ends = (d[:, :4].mean(axis=1) >= 0.5) & (d[:, -4:].mean(axis=1) >= 0.5)
    return bool((usable & mid & ends).any())


@dataclass(frozen=True, slots=True, eq=False)
class Chosen:
    quad: np.ndarray
    support: float  # share of the visible outline backed by edges
    visible_outline: float  # share of the outline not under cards chosen earlier


def dedupe(hyps: list[Scored], grid: float = 4.0) -> list[Scored]:
    """Drop near-identical hypotheses (many guesses snap onto the same card)."""
    best: dict[tuple[int, ...], Scored] = {}
    for s in hyps:
        key = tuple(np.rint(s.quad.ravel() / grid).astype(int).tolist())
        if key not in best or best[key].support < s.support:
            best[key] = s
    return list(best.values())


def choose(
    ev: Evidence,
    hyps: list[Scored],
    *,
    min_support: float = 0.75,
    min_visible: float = 0.3,
    max_iou: float = 0.45,
    max_cards: int = 60,
) -> list[Chosen]:
    """Greedy selection, whole cards first (largest first, so a card beats the frame
    printed inside it), then partly covered cards by how much outline they explain.
    See the module docstring."""
    pool = [s for s in hyps if s.support >= max(0.35, min_support * min_visible)]
    if not pool:
        return []
    quads = np.stack([s.quad for s in pool]).astype(np.float32)  # (H, 4, 2)
    pts, on = outline_on(ev, quads)
    h_n, p_n = pts.shape[:2]
    areas = np.array([g.quad_area(q) for q in quads])
    lo, hi = quads.min(axis=1), quads.max(axis=1)
    covered_pts = np.zeros((h_n, p_n), dtype=bool)
    alive = np.ones(h_n, dtype=bool)
    seam_cache: dict[int, bool] = {}
    chosen: list[Chosen] = []
    while len(chosen) < max_cards and alive.any():
        vis = ~covered_pts
        vis_frac = vis.mean(axis=1)
        sup = (on & vis).sum(axis=1) / np.maximum(vis.sum(axis=1), 1)
        ok = alive & (vis_frac >= min_visible) & (sup >= min_support)
        if not ok.any():
            break
        whole = ok & (vis_frac >= 0.97) & (sup >= 0.88)
        if whole.any():
            cand = np.flatnonzero(whole)
            cand = cand[np.argsort(-areas[cand])]
        else:
            cand = np.flatnonzero(ok)
            cand = cand[np.argsort(-(sup[cand] * np.sqrt(vis_frac[cand])))]
        picked = None
        for i in cand[:40]:
            q = quads[i]
            covered = [c.quad for c in chosen if g.intersection_area(q, c.quad) > 1.0]
            if any(g.iou(q, c.quad) > max_iou for c in chosen):
                alive[i] = False
                continue
            key = int(i) if not covered else -1
            seam = seam_cache.get(key) if key >= 0 else None
            if seam is None:
                seam = seam_inside(ev, q, covered)
                if key >= 0:
                    seam_cache[key] = seam
            if seam:
                alive[i] = False
                continue
            picked = int(i)
            break
        else:
            if picked is None:
                alive[cand[:40]] = False
                continue
        alive[picked] = False
        chosen.append(Chosen(quads[picked], float(sup[picked]), float(vis_frac[picked])))
        x0, y0 = quads[picked].min(axis=0) - 3.0
        x1, y1 = quads[picked].max(axis=0) + 3.0
        near = np.flatnonzero(
            alive & (lo[:, 0] <= x1) & (hi[:, 0] >= x0) & (lo[:, 1] <= y1) & (hi[:, 1] >= y0)
        )
        if len(near):
            hit = inside_quads(pts[near].reshape(-1, 2), [quads[picked]], 2.5)
            covered_pts[near] |= hit.reshape(len(near), p_n)
    return chosen
