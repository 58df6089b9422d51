"""The card under a card found whole, beside it at the end of an outline holding
both: the covered end of a row of cards, each partly over the next.

Why: a hand laid as a row (a player's spread seen from a phone) makes one outline
a card high and 1.2 to 2 cards wide. The card lying on top is often found whole
(its own border shows all round), while the card under it shows only a strip
beside it: a strip's outline is no card (2.5-4 times as high as wide), corner
guesses miss it (the row's outer corners have a side running along the whole row,
longer than any card: proposals.complete_corners), rows.end_guesses looks only
at outlines not found whole, and the row's seam is often too faint for rows.py.
The strip card is lost (real train photo IMG_2619: the 10 beside the Q). Yet the
card under it is as big as the one found, lies flush with its top and bottom
sides, and its far side is the row's end side: a card of the found card's width,
standing square on that side (`beside_guesses`). It is only proposed: it is
chosen when its visible outline (the strip's) is backed by edges.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import geometry as g

#: The row's height (its extent along the card's long sides) matches the card's
#: long side within this share.
BESIDE_HEIGHT = 0.12
#: The row reaches past the card by this share of the card's short side at
#: least (a narrower strip shows no index) and at most (a card and a half).
BESIDE_MIN = 0.25
BESIDE_MAX = 1.05
#: The row's area, in card areas: more than a card and a strip, at most two cards.
BESIDE_AREA = (1.2, 2.2)
#: The card found lies inside the row's outline: this share of its area.
BESIDE_INSIDE = 0.9
#: The card found must have about a card's aspect (long / short side): the half
#: of a near-square row taken for a card lying across it (a court picture's
#: middle line its seam) is 1.67 long, and a card beside it would be a phantom.
BESIDE_ASPECT = (1.15, 2.0)
#: A contour filling this share of its bounding rectangle or more may be a row
#: (as rows.ROW_FILL): the rectangle is the row's outline.
BESIDE_FILL = 0.85


def row_rects(cs: list[np.ndarray], min_area: float) -> list[np.ndarray]:
    """The bounding rectangles of contours `cs` of `min_area` or more that nearly
    fill them: outlines of rows not found whole as quads (a row of two cards is
    nearly square, and no quad that square is card-shaped: geometry.ASPECT_MIN;
    IMG_2617)."""
    out = []
    for c in cs:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        rect = cv2.minAreaRect(c)
        if area >= BESIDE_FILL * rect[1][0] * rect[1][1]:
            out.append(cv2.boxPoints(rect).astype(np.float32))
    return out


def beside_guesses(rows: list[np.ndarray], cards: list[np.ndarray], support: list[float]
                   ) -> list[np.ndarray]:
    """Card quads at the ends of outlines `rows` (work scale) past the cards found
    whole (`cards`, edge `support`) that they hold, one card high: each as wide
    as that card (its short side), standing square on the row's end side. Of two
    cards crossing each other (IoU 0.2-0.8) only the better backed one counts:
    the other is a wrong reading of the same cards (a near-square row's half,
    taken for a card lying across it, found a phantom beside it)."""
    if not rows or not cards:
        return []
    kept: list[np.ndarray] = []
    for i in np.argsort(-np.asarray(support), kind="stable").tolist():
        if all(not 0.2 <= g.iou(cards[i], k) < 0.8 for k in kept):
            kept.append(np.asarray(cards[i], dtype=np.float32))
    cards = kept
    r_all = np.array(rows, dtype=np.float32)  # (R, 4, 2)
    x, y = r_all[..., 0].astype(np.float64), r_all[..., 1].astype(np.float64)
    r_area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    r_lo, r_hi = r_all.min(axis=1), r_all.max(axis=1)
    out: list[np.ndarray] = []
    for c in cards:
        c = np.asarray(c, dtype=np.float32)
        area = g.quad_area(c)
        lo, hi = c.min(axis=0), c.max(axis=0)
        near = np.flatnonzero(
            (r_area >= BESIDE_AREA[0] * area) & (r_area <= BESIDE_AREA[1] * area)
            & (r_lo[:, 0] <= hi[0]) & (r_lo[:, 1] <= hi[1])
            & (r_hi[:, 0] >= lo[0]) & (r_hi[:, 1] >= lo[1]))  # boxes overlapping
        if not len(near):
            continue
        e = g.edge_lengths(c)
        a_, b_ = (e[0] + e[2]) / 2, (e[1] + e[3]) / 2
        if not BESIDE_ASPECT[0] <= max(a_, b_) / max(min(a_, b_), 1e-6) <= BESIDE_ASPECT[1]:
            continue
        # u: across the card's long sides (the row's way), v: along them.
        a = ((c[1] - c[0]) + (c[2] - c[3])) / 2
        b = ((c[3] - c[0]) + (c[2] - c[1])) / 2
        u, v = (a, b) if e[0] + e[2] <= e[1] + e[3] else (b, a)
        short, long_ = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        if short <= 0 or long_ <= 0:
            continue
        uu, vv = u / short, v / long_
        centre = c.mean(axis=0)
        cu = (c - centre) @ uu
        for i in near.tolist():
            r = r_all[i]
            rv = (r - centre) @ vv
            if abs(float(rv.max() - rv.min()) / long_ - 1.0) > BESIDE_HEIGHT:
                continue  # not one card high
            if g.intersection_area(c, r) < BESIDE_INSIDE * area:
                continue
            ru = (r - centre) @ uu
            order = np.argsort(ru)
            for ext, end in ((float(ru.max() - cu.max()), order[2:]), (float(cu.min() - ru.min()), order[:2])):
                if not BESIDE_MIN * short <= ext <= BESIDE_MAX * short:
                    continue
                # Square on the row's end side, not moved from the card found:
                # cards of a row lie a few degrees apart (IMG_2619).
                e0, e1 = r[end[0]], r[end[1]]
                side = e1 - e0
                n = np.array([-side[1], side[0]], dtype=np.float32) / max(float(np.linalg.norm(side)), 1e-6)
                if float(np.dot(r.mean(axis=0) - e0, n)) < 0:
                    n = -n
                out.append(np.stack([e0, e1, e1 + n * short, e0 + n * short]))
    if not out:
        return []
    arr = g.order_quads(np.array(out, dtype=np.float32))
    return list(arr[g.card_shaped_many(arr, max_angle_dev=28.0)])
