"""Card guesses inside an outline found whole that may be a fan of cards.

Why: cards fanned out side by side, their ends in line, make an outline that is
card-shaped itself (three cards of 6 x 9 cm, each 2 cm past the one on it: 10 x 9 cm)
and is found whole (whole.outline_quads); inside it the cards' borders meet its
sides in T-junctions, not corners, so no corner guess (proposals.corner_hypotheses)
finds them. A straight edge crossing such an outline from side to side gives the parts
either side of it and card-sized quads reaching from it (`split_guesses`).
"""

from __future__ import annotations

import math

import numpy as np

from vision.detect import geometry as g
from vision.detect import kernels
from vision.detect.evidence import ORIENT_BINS, Evidence
from vision.detect.proposals import CORNER_TOLERANCE

#: Straight edges across an outline found whole, from one side to the opposite
#: one: the border of a card lying on others in a fan (the fan's outline being
#: card-shaped itself). Positions tried across it (not within SPLIT_MARGIN of the
#: sides, whose own edges those are), tilts (the far end moved by these shares of
#: its side: fanned cards lie a few degrees apart), the share of the line that
#: must run along an edge, and of each end (its SPLIT_ENDS share): a court card's
#: picture frame stops short of the border, a fanned card's border reaches it.
SPLIT_STEPS = 40
SPLIT_MARGIN = 0.12
SPLIT_TILTS = (-0.08, -0.04, 0.0, 0.04, 0.08)
SPLIT_ON = 0.9
SPLIT_END = 0.8
SPLIT_ENDS = 0.15
_SPLIT_S = np.linspace(0.02, 0.98, 40)
#: One side of the line must be quiet: moved by SPLIT_QUIET of the side's length
#: (SPLIT_QUIET_PX px at least), it meets edges at under SPLIT_NOISY of its middle
#: samples (a fanned card's white margin; a card back's pattern lines have the
#: pattern on both sides, and split a back into false cards).
SPLIT_QUIET = 0.05
SPLIT_QUIET_PX = 5.0
SPLIT_NOISY = 0.25
#: Card-sized guesses from a line reach at most this share past the outline.
SPLIT_WITHIN = 1.05


def split_guesses(ev: Evidence, quads: list[np.ndarray], depth: int = 2) -> list[np.ndarray]:
    """Card guesses inside outlines that may be a fan of cards: where a straight
    edge crosses one from side to side, the parts on either side of it, and
    card-sized quads (the card's aspect) reaching from it either way; the parts
    split again, `depth` times in all (the second card of a fan of three).

    Why: cards fanned out side by side, their ends in line, make an outline that
    is card-shaped itself (three cards of 6 x 9 cm, each 2 cm past the one on
    it: 10 x 9 cm) and is found whole; inside it the cards' borders meet its
    sides in T-junctions, not corners, so no corner guess finds them.
    """
    if not quads:
        return []
    q = np.ascontiguousarray(np.stack(quads), dtype=np.float64)  # (Q, 4, 2)
    t = np.linspace(SPLIT_MARGIN, 1 - SPLIT_MARGIN, SPLIT_STEPS)
    tilt = np.array(SPLIT_TILTS)
    k = max(1, round(SPLIT_ENDS * len(_SPLIT_S)))
    need = math.ceil(SPLIT_END * k - 1e-9)
    counts = np.empty((len(q), 2, len(t), len(tilt)), dtype=np.int32)
    on = math.ceil(SPLIT_ON * len(_SPLIT_S) - 1e-9)
    noisy = math.ceil(SPLIT_NOISY * (len(_SPLIT_S) - 2 * k) - 1e-9)
    kernels.split_scan(np.ascontiguousarray(ev.bits, dtype=np.uint8), q, t, tilt, _SPLIT_S,
                       k, need, ORIENT_BINS, on, SPLIT_QUIET, SPLIT_QUIET_PX, noisy, counts)
    # The best tilt at each position, and one line per run of positions: the best
    # (the first of equals) within two positions either way.
    best, which = counts.max(axis=3), counts.argmax(axis=3)  # (Q, 2, T)
    peak = best >= on
    if not peak.any():
        return []
    pad = np.pad(best, ((0, 0), (0, 0), (2, 2)), constant_values=-1)
    for off in (1, 2):
        peak &= (best > pad[..., 2 - off:2 - off + len(t)]) & (best >= pad[..., 2 + off:2 + off + len(t)])
    out: list[np.ndarray] = []
    parts: list[np.ndarray] = []
    for way, (a0, a1, b0, b1) in enumerate(kernels.SPLIT_SIDES):
        qi, ti = np.nonzero(peak[:, way])
        if not len(qi):
            continue
        ta = t[ti][:, None]
        tb = ta + tilt[which[qi, way, ti]][:, None]
        qq = q[qi]
        p = qq[:, a0] * (1.0 - ta) + qq[:, a1] * ta
        r = qq[:, b0] * (1.0 - tb) + qq[:, b1] * tb
        found = _split_at(qq, (a0, a1, b0, b1), p, r)
        out.append(found)
        # Only card-shaped parts may be a fan again (two cards of three).
        two = g.order_quads(found[:2 * len(qi)].astype(np.float32))
        parts.append(two[g.card_shaped_many(two, max_angle_dev=CORNER_TOLERANCE)])
    more = np.concatenate(parts) if parts else np.zeros((0, 4, 2))
    if len(more) and depth > 1:
        sub = split_guesses(ev, list(more), depth - 1)
        if sub:
            out.append(np.stack(sub).astype(np.float64))
    if not out:
        return []
    arr = g.order_quads(np.concatenate(out).astype(np.float32))
    h, w = ev.shape
    # In the picture: the fan is (a guess reaching out of it would be credited
    # the outline it cannot show, cutoff.py).
    inside = ((arr.min(axis=1) >= -2.0).all(axis=1) & (arr[..., 0].max(axis=1) <= w + 1.0)
              & (arr[..., 1].max(axis=1) <= h + 1.0))
    return list(arr[inside & g.card_shaped_many(arr, max_angle_dev=CORNER_TOLERANCE)])


def _split_at(q: np.ndarray, sides: tuple[int, int, int, int], p: np.ndarray,
              r: np.ndarray) -> np.ndarray:
    """Quads of `split_guesses` for the lines p[n]-r[n] across quads q[n] ((N, 4,
    2); from side q[a0]-q[a1] to side q[b0]-q[b1]): first the N parts on one side
    and the N on the other, then card-sized quads from each line either way (its
    long side along the line, or its short) that stay within q[n]."""
    a0, a1, b0, b1 = sides
    out = [np.stack([q[:, a0], p, r, q[:, b0]], axis=1), np.stack([p, q[:, a1], q[:, b1], r], axis=1)]
    ua = q[:, a1] - q[:, a0]
    ub = q[:, b1] - q[:, b0]
    ua = ua / (g.lengths(ua)[:, None] + 1e-9)
    ub = ub / (g.lengths(ub)[:, None] + 1e-9)
    span = g.lengths(r - p)[:, None]
    # How far the outline reaches from the line either way: a card under the
    # one whose border the line is lies within the fan's outline.
    left = np.minimum(g.lengths(p - q[:, a0]), g.lengths(r - q[:, b0]))[:, None]
    right = np.minimum(g.lengths(q[:, a1] - p), g.lengths(q[:, b1] - r))[:, None]
    for w in (span / g.ASPECT_NOMINAL, span * g.ASPECT_NOMINAL):
        for keep, quad in ((w <= SPLIT_WITHIN * left, [p - ua * w, p, r, r - ub * w]),
                           (w <= SPLIT_WITHIN * right, [p, p + ua * w, r + ub * w, r])):
            out.append(np.stack(quad, axis=1)[keep[:, 0]])
    return np.concatenate(out)
