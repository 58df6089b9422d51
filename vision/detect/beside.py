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

The same row, when the strip is narrow, is nearly square (a card and a strip:
1.1-1.4 cards wide, one high), and its outline is backed all round: it was
chosen as one card (IMG_2650: the A and the J under it as one "card", read as
the J's neighbour Q once the photo is squeezed). A card is not square: an outline
under ROW_SQUARE holding a card found whole with room for another beside it is
the row of the two, no card (`split_rows` drops it). A card seen at a slant may
be as square, and a court card's picture frame may make such an outline in it:
on the rendered training scenes (seeds 7-11, 300 scenes) one card was lost so
and two found, besides IMG_2535's 10 and IMG_2650's wrong reading.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect.kernels.beside import beside_pairs, beside_quads
from vision.detect.kernels.quads import card_shaped, order_quad
from vision.detect.select import Scored

#: The row's height (its extent along the card's long sides) matches the card's
#: long side within this share.
BESIDE_HEIGHT = 0.12
#: The row reaches past the card by this share of the card's short side at
#: least (a narrower strip shows no index) and at most (the whole other card).
BESIDE_MIN = 0.25
BESIDE_MAX = 1.05
#: The row's area, in card areas: more than a card and a strip, at most two cards.
BESIDE_AREA = (1.2, 2.2)
#: The card lies within the row: its sides may stick out of it by this share.
BESIDE_SLACK = 0.1
#: Cards found whole, for this module: pool outlines this well backed, all round
#: and on their weakest side; rows: outlines backed this well.
WHOLE_SUPPORT = (0.85, 0.7)
ROW_SUPPORT = 0.6
#: The card found must have about a card's aspect (long / short side): the half
#: of a near-square row taken for a card lying across it (a court picture's
#: middle line its seam) is 1.67 long, and a card beside it would be a phantom.
BESIDE_ASPECT = (1.15, 2.0)
#: An outline holding a card found whole, with room for another card beside
#: it, is the row of the two, no card, when its long / short side ratio is
#: under this: a card's is 1.4 (88 x 63 mm), a row of two's 1.4 down to 1.
ROW_SQUARE = 1.2
#: A contour filling this share of its bounding rectangle or more may be a row
#: (as rows.ROW_FILL): the rectangle is the row's outline.
BESIDE_FILL = 0.85


def split_rows(pool: list[Scored], loose: list[np.ndarray]
               ) -> tuple[list[Scored], list[np.ndarray]]:
    """The pool without near-square rows of two (see the module docstring), and
    the guesses of the cards beside cards found whole (`beside_guesses`) in the
    pool's outlines and in the rectangles of contours `loose` (not plainly a
    card: `row_rects`)."""
    held_by = [s for s in pool if s.support >= ROW_SUPPORT]
    whole = [s for s in held_by if s.support >= WHOLE_SUPPORT[0] and s.side_min >= WHOLE_SUPPORT[1]]
    if not whole:
        return pool, []
    cards = np.array([s.quad for s in whole], dtype=np.float32)
    x, y = cards[..., 0].astype(np.float64), cards[..., 1].astype(np.float64)
    area = 0.5 * np.abs((x * y[:, [1, 2, 3, 0]] - x[:, [1, 2, 3, 0]] * y).sum(axis=1))
    holders = [s.quad for s in held_by] + row_rects(
        loose, BESIDE_AREA[0] * float(area.min()), BESIDE_AREA[1] * float(area.max()))
    ends, held = beside_guesses(holders, cards, [s.support for s in whole])
    gone = {id(s) for s, h in zip(held_by, held) if h and g.aspect(s.quad) < ROW_SQUARE}
    if gone:
        pool = [s for s in pool if id(s) not in gone]
    return pool, ends


def row_rects(cs: list[np.ndarray], min_area: float, max_area: float) -> list[np.ndarray]:
    """The bounding rectangles of contours `cs` of `min_area` to `max_area` that
    nearly fill them: outlines of rows not found whole as quads (a row of two
    cards is nearly square, and no quad that square is card-shaped:
    geometry.ASPECT_MIN; IMG_2617)."""
    out = []
    for c in cs:
        area = cv2.contourArea(c)
        if not min_area <= area <= max_area:
            continue
        rect = cv2.minAreaRect(c)
        if area >= BESIDE_FILL * rect[1][0] * rect[1][1]:
            out.append(cv2.boxPoints(rect).astype(np.float32))
    return out


def beside_guesses(rows: list[np.ndarray], cards: list[np.ndarray] | np.ndarray,
                   support: list[float]) -> tuple[list[np.ndarray], np.ndarray]:
    """Card quads at the ends of outlines `rows` (work scale) past the cards found
    whole (`cards`, edge `support`) that they hold, one card high: each as wide
    as that card (its short side), standing square on the row's end side; and
    for each row whether it holds such a card (at either end). A card
    crossing a better backed one (IoU 0.2-0.8) gives none: it is a wrong reading
    of the same cards (a near-square row's half, taken for a card lying across
    it, found a phantom beside it). Of the cards a row end holds, the best
    backed one gives its width (the pool holds each card several times over).
    (Boxes and projections, not polygon intersections: kernels.beside.)"""
    if not len(rows) or not len(cards):
        return [], np.zeros(len(rows), dtype=bool)
    r_all = np.ascontiguousarray(np.array(rows, dtype=np.float32))  # (R, 4, 2)
    c_all = np.ascontiguousarray(np.array(cards, dtype=np.float32))  # (C, 4, 2)
    best = np.empty((len(r_all), 2), dtype=np.int64)
    beside_pairs(c_all, np.asarray(support, dtype=np.float64), r_all, BESIDE_ASPECT[0],
                 BESIDE_ASPECT[1], BESIDE_AREA[0], BESIDE_AREA[1], BESIDE_HEIGHT, BESIDE_MIN,
                 BESIDE_MAX, BESIDE_SLACK, best)
    held = (best >= 0).any(axis=1)
    if not held.any():
        return [], held
    # The end side: the row's two corners farthest along the row's way at that
    # end. The card stands square on it, as wide as the card found (the side's
    # own slant, not the found card's: cards of a row lie a few degrees apart,
    # IMG_2619).
    out = np.empty((2 * len(r_all), 4, 2), dtype=np.float32)
    found = []
    for q in out[:beside_quads(c_all, r_all, best, out)]:
        # (kernels.quads: geometry's order_quad and card shape test, for the few
        # guesses without numpy's per-call cost.)
        ordered = np.empty((4, 2), dtype=np.float32)
        order_quad(q, ordered)
        if card_shaped(ordered, 28.0, g.ASPECT_MIN, g.ASPECT_MAX):
            found.append(ordered)
    return found, held
