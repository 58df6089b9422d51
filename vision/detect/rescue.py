"""A second, wider snap for outlines that fall just short of the edge support a
card needs.

Why: the first polish moves each side at most a few work pixels. On a phone
photo a card is 100-200 work pixels wide, and the quad an outline or a corner
guess gives may sit further off than that on one side (a shadow along the card,
the card's white margin merging with a white plate or box, a glare streak):
that side then finds no edge, the quad scores 0.5-0.7 and no card is chosen
there. Snapping such quads again from four times as far (then finely) finds the
border when it is there; what still falls short stays out.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect import refine, select
from vision.detect.evidence import Evidence

#: Support from which an outline is worth a second look, and how many are.
MIN_TRY = 0.4
MAX_TRY = 30
#: Short side (work pixels) from which an outline can lie out of the first
#: polish's reach (4 px) yet on the card: a tenth of a card 40 px wide (the
#: 1280x720 table camera) is within it, and a wide snap there jumps to the
#: neighbouring card's border.
MIN_SHORT = 64.0
#: Reach of the wide snap (work pixels) and its step, then of the fine one. (8 px
#: in one fine pass found 6 cards fewer on the real train photos and left 18
#: more false ones; 16 px in 1 px steps costs twice the samples for 2 cards.)
WIDE, FINE = 16.0, 3.0
STEP = 2.0
#: Support of the cards found already, and how big one may be and still count as
#: a card rather than a pair of cards side by side or a fan.
STRONG = 0.88
PAIR = 1.6
#: The snapped quad must stay the same quad (IoU with where it was).
SAME = 0.8


def snap_again(
    ev: Evidence, pool: list[select.Scored], min_support: float,
    sizes: list[tuple[float, float]],
) -> list[select.Scored]:
    """The outlines of `pool` with MIN_TRY <= support < `min_support`, snapped
    again from further away (then finely), that now reach `min_support` (new Scored; `pool`
    itself is not changed). With cards seen whole (`sizes`: (short, long) each),
    only outlines of about their size are tried: a block of a checked cloth
    snapped onto the cloth's lines scores well too. Nor are outlines overlapping
    a card found already: beside a card lying across another, a wide snap finds
    the other's border and makes a quad across both."""
    sup = np.array([s.support for s in pool])
    weak = np.flatnonzero((sup >= MIN_TRY) & (sup < min_support))
    if not len(weak):
        return []
    quads = np.stack([pool[i].quad for i in weak]).astype(np.float32)
    areas = g.quad_areas(quads)
    ok = g.short_long(quads)[:, 0] >= MIN_SHORT
    if sizes:
        known = [s * l for s, l in sizes]
        ok &= (areas >= 0.5 * min(known)) & (areas <= 1.5 * max(known))
    strong = [pool[i].quad for i in np.flatnonzero(sup >= STRONG)]
    order = [k for k in np.argsort(-sup[weak], kind="stable").tolist() if ok[k]]
    if strong and order:
        order = _clear_of(quads, areas, order, np.stack(strong).astype(np.float32))
    if not order:
        return []
    before = quads[order[:MAX_TRY]]
    q = g.order_quads(refine.refine_many(ev, before, reach=WIDE, step=STEP))
    if STEP > 1.0:
        q = g.order_quads(refine.refine_many(ev, q, reach=FINE))
    shaped = g.card_shaped_many(q, max_angle_dev=35.0)
    keep = [k for k in np.flatnonzero(shaped).tolist() if g.iou(q[k], before[k]) >= SAME]
    rescored = select.score_many(ev, [q[k] for k in keep])
    return [s for s in rescored if s.support >= min_support]


def _clear_of(quads: np.ndarray, areas: np.ndarray, order: list[int], strong: np.ndarray) -> list[int]:
    """The first MAX_TRY of quads[order] clear of the strong outlines of about
    their own size: neither's centre inside the other (a pair of cards side by
    side or a fan, over PAIR times as big, does not count)."""
    cand = quads[order]
    s_area = g.quad_areas(strong)
    sized = s_area[None, :] < PAIR * areas[order][:, None]  # (W, S)
    hit = _inside(cand.mean(axis=1), strong).T | _inside(strong.mean(axis=1), cand)  # (W, S)
    clear = ~(hit & sized).any(axis=1)
    return [k for k, c in zip(order, clear.tolist()) if c][:MAX_TRY]


def _inside(pts: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(Q, P): is point p inside convex quad q (either winding)? One matrix
    product for all sides and points."""
    a = quads.reshape(-1, 2).astype(np.float64)  # (4Q, 2): each side's start
    d = (quads[:, [1, 2, 3, 0]].reshape(-1, 2) - quads.reshape(-1, 2)).astype(np.float64)
    # cross(d, p - a) = d_x p_y - d_y p_x - (d_x a_y - d_y a_x)
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    cross = normal @ pts.T.astype(np.float64) - (d[:, 0] * a[:, 1] - d[:, 1] * a[:, 0])[:, None]
    cross = cross.reshape(len(quads), 4, -1)
    return np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)
