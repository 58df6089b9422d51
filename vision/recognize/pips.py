"""Counting the big suit pips in a number card's middle: a second witness for its rank.

Why: the index classifier reads a card from its two corner indices only, and its
calibrated bars are steep, so it refuses many number cards it has in fact read right
(e.g. "10D 0.949 | 10D 0.889"). A number card (2..10) prints its rank a second time,
as the count of the suit pips in its middle, which the network never looks at. When
the pips give the same rank as the network's best guess, that is two independent
witnesses, and the caller may accept the card at a lower network probability.

So this counter must above all be *safe*: a count it returns must be right; whenever
the middle field is not a clean, symmetric set of like pips it returns None (court
pictures, an ace's ornament, a hand or another card lying over it, glare, blur, tiny
cards, decks with odd or no pips).

How: the card is warped upright to a small canonical size (CANON_W x CANON_H); the
ink is what is much darker (in its darkest colour channel) than the paper round it
(paper level estimated by a grey closing, so uneven light and washed-out exposures
do not matter); the connected components of ink in the middle field (clear of the
corner indices' columns) must all be pips: like in size and shape, in two side
columns mirrored on each other and a centre column, in one of the layouts number
cards use, point-symmetric where the layout is; both corner indices show ink; the
pips are one flat colour and one shape; no strong edge lies away from the ink (a
light hand or card over the middle); the pips are sharp; no ink is cut by the
field's border (a quad short of the card). Near-square quads are tried both ways.

Figures (2026-11-30; whole face-up cards, rendered with effects, distractors and
hands; "false" = a count given for a card that is not that rank: courts, aces,
backs, detector phantoms, wrong counts; coverage = number cards 2..10 counted
right; red/black = the pips' colour against the suit, over counted cards):

- developed on (thresholds read off these): training decks, true quads 500 scenes
  seed 1: false 0 of 2429, coverage 1345/1664 (80.8%); detected quads 400 scenes
  seed 11: 0 of 2196, 869/1237 (70.3%), and 700 busy scenes seed 21 (hands 0.5,
  distractors 0.6): 0 of 3634, 1332/1992 (66.9%); calibration decks true quads 300
  scenes: 0 of 1421, 904/973 (92.9%), detected 250: 0 of 1395, 610/744 (82.0%);
  real photos images/train with the detector's quads (fully in view): false 0 on
  277 J/Q/K/A, 94/136 nines and tens counted (9: 54/73, 10: 40/63), one "wrong"
  count: IMG_2396 is labelled nine but shows a ten (counted 10).
- fresh scenes after the last change of rule: training decks true quads seed 41:
  0 of 2409, 1248/1646 (75.8%); detected seed 31: 0 of 2679, 1059/1513 (70.0%);
  calibration decks detected seed 32: 0 of 1630, 771/912 (84.5%). Red/black:
  every counted card right (0 disagreements in all sets).
- measured once, never tuned on: real images/test: 0 false on 73 J/Q/K/A, 0 wrong
  on 9/10, 26/36 counted (9: 13/22, 10: 13/14); held-out decks true quads 300
  scenes seed 52: 0 of 1455, 920/1031 (89.2%; gnome/atlasnye 287/300); detected
  seed 51: 0 of 1667 (235 phantoms), 729/944 (77.2%).
- Refused by design: tango_nuevo (one giant pip), most of gnome/ornamental and
  kde/nicu-ornamental (framed pips); most refusals otherwise are detector quads a
  few pixels off the card (a pip row cut) or something over the card.
- Time, one thread, shared 2-core machine under load: median 0.63 ms a card (600
  whole cards of detected-quad training scenes, each the median of 5 calls); cards
  counted 1.2-1.3 ms, cards refused 0.4 ms (most refusals come early); the count
  alone, before the suit was added (its time: pipsuit.py).

The suit (PipCount.suit): the pips print the suit a second time, large; pipsuit.py
reads it from their shapes once they are counted (its method and figures are there).
Pips that touch at the canonical size (broad clubs of a nine or ten) are split
apart before the count (pipsplit.py). The upright warp, its paper level and ink
mask are upright.py's (acepip.py judges an ace's pip on the same warp).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import cv2
import numpy as np

from vision.recognize import pipclean as clean
from vision.recognize.patch import AMBIGUOUS_ASPECT, INDEX_BOX, mean_aspect, normalize_quad
from vision.recognize.pipnet import pip_crops
from vision.recognize.pipsplit import split_touching
from vision.recognize.pipsuit import PipSuits, pip_suits, upright_pips
from vision.recognize.upright import (
    CANON_H,
    CANON_W,
    EDGE_X,
    EDGE_Y,
    UprightCard,
    ink_mask,
    look_upright,
)

#: Cards shorter than this in the image (mean long side, pixels) are not counted:
#: their pips are a few pixels across and blur into each other.
MIN_CARD_PX = 70.0

#: Pips whose centre lies nearer a long side than this (fraction of width) are the
#: corner indices' small pips and rank signs: not counted, but ink there is allowed.
INDEX_COLUMN = 0.19

#: Largest pip (square root of its area over the card's width). Pips of the
#: training and calibration decks and of the real photos reach 0.2; a detector's
#: phantom quad inside a ten of clubs, over its middle column, showed two whole
#: clubs at 0.244 and was counted a 2.
MAX_PIP = 0.22


@dataclass(frozen=True, slots=True)
class PipCount:
    """What the middle of a number card shows.

    `count`: the number of suit pips (2..10), i.e. the card's rank; `red`: the pips'
    colour is warm (hearts and diamonds; yellow/orange diamonds of four-colour decks
    too), else dark/blue/green (spades and clubs): a cheap cross-check of the suit.
    How clean the evidence was: `size_spread` largest over smallest pip area (1.0 =
    all alike), `symmetry` worst mismatch of mirrored pip positions (fraction of the
    card), `colour_spread` worst colour spread inside one pip, `colour_gap` worst
    colour difference between two pips, `shape_agreement` least overlap of a pip's
    shape with the first pip's (1.0 = identical; see pipclean.shape_agreement). The last
    three default to a perfect card, so callers' tests may build one from four.
    `suit`: "C", "D", "H" or "S" when every pip's shape says the same suit surely
    (see pipsuit.pip_suit), else None: the suit a second time, large, for cards whose
    corner index the network reads unsurely. `lean`: the suit the pips' shapes
    show under looser bars (pipsuit.LEAN_BARS; black only), a witness only beside
    the corners' own reading of that suit (pipcheck.pip_verdict).
    """

    count: int
    red: bool
    size_spread: float
    symmetry: float
    colour_spread: float = 0.0
    colour_gap: float = 0.0
    shape_agreement: float = 1.0
    suit: str | None = None
    lean: str | None = None
    crops: np.ndarray | None = field(default=None, compare=False, repr=False)


def count_pips(image: np.ndarray, quad: Sequence[Sequence[float]] | np.ndarray,
               *, crops: bool = False) -> PipCount | None:
    """Count the suit pips of the card `quad` (4 corners, any winding, printed
    top-left first up to 180°: see patch.normalize_quad) in the BGR `image`.

    Returns None unless the middle field holds a clean set of like pips in a number
    card's layout. Call it only for cards lying whole in view. `crops`: keep the
    pips' crops (PipCount.crops) for every card counted (training pipnet.py).
    """
    q = normalize_quad(quad)
    sides = np.sqrt(((q[[1, 2, 3, 0]] - q) ** 2).sum(axis=1))
    if float(max(sides[1] + sides[3], sides[0] + sides[2])) / 2.0 < MIN_CARD_PX:
        return None
    count = partial(_count, crops=True) if crops else _count
    if mean_aspect(q) >= AMBIGUOUS_ASPECT:
        return count(image, q)
    # Near-square (a steep camera): which way the pip columns run is not told by
    # the outline. Both ways are tried; a count is given only when just one way
    # shows a number card's layout (or both the same count).
    counts = [c for c in (count(image, q), count(image, q[[1, 2, 3, 0]])) if c is not None]
    if not counts or any(c.count != counts[0].count for c in counts):
        return None
    if any(c.suit != counts[0].suit for c in counts):  # nor a suit unless both agree
        counts[0] = replace(counts[0], suit=None)
    if any(c.lean != counts[0].lean for c in counts):
        counts[0] = replace(counts[0], lean=None)
    if len(counts) > 1:  # which way is up is not known: no pip crops
        counts[0] = replace(counts[0], crops=None)
    return counts[0]


def _count(image: np.ndarray, q: np.ndarray, *, crops: bool = False) -> PipCount | None:
    """count_pips for the normalised quad `q` (first edge the card's short one)."""
    card = look_upright(image, q)
    if card is None:
        return None
    return _judge(card, float(np.sqrt(((q[1] - q[0]) ** 2).sum())) / CANON_W, crops)


def _cut_at_border(stats: np.ndarray, inner: np.ndarray, cy: np.ndarray) -> bool:
    """Whether ink runs into the field's border where a card prints none: its top
    or bottom edge between the index columns, or its sides halfway down. Why: a
    quad that misses part of the card (a detector's short guess) cuts a row of pips
    off at the border, and the rest may look like a smaller number (a 9 as a 7)."""
    x0, y0 = int(EDGE_X * CANON_W), int(EDGE_Y * CANON_H)
    top = stats[:, cv2.CC_STAT_TOP]
    bottom = top + stats[:, cv2.CC_STAT_HEIGHT]
    left = stats[:, cv2.CC_STAT_LEFT]
    right = left + stats[:, cv2.CC_STAT_WIDTH]
    ends = inner & ((top <= y0) | (bottom >= CANON_H - y0))
    sides = (cy > 0.4) & (cy < 0.6) & ((left <= x0) | (right >= CANON_W - x0))
    return bool(ends.any() or sides.any())


def _border_lines(stats: np.ndarray) -> np.ndarray:
    """Which ink components are thin lines along the field's border, longer than
    any pip (so not a pip cut by the border either)."""
    x0, y0 = int(EDGE_X * CANON_W), int(EDGE_Y * CANON_H)
    top, left = stats[:, cv2.CC_STAT_TOP], stats[:, cv2.CC_STAT_LEFT]
    h, w = stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH]
    ends = ((top <= y0) | (top + h >= CANON_H - y0)) & (h <= 4) & (w >= 0.35 * CANON_W)
    sides = ((left <= x0) | (left + w >= CANON_W - x0)) & (w <= 4) & (h >= 0.25 * CANON_H)
    return ends | sides


#: Least ink (canonical pixels) in each corner index's window (INDEX_BOX's height,
#: the index column's width). Counted cards of the training and calibration decks
#: and real photos: 8 of 4283 under 4. A detector's phantom quad over the middle of a
#: 3S (two pips and no index in one corner) was counted a 2.
MIN_INDEX_INK = 4


def _shows_indices(signs: np.ndarray) -> bool:
    """Whether both corner index windows hold some ink of the index columns
    (`signs`, a mask; a pip reaching into the window does not count): every number
    card prints its index there, a quad over part of a card (a detector's phantom,
    a covered card's visible part) may not."""
    x0, x1 = int(EDGE_X * CANON_W), int(INDEX_COLUMN * CANON_W)
    y0, y1 = int(EDGE_Y * CANON_H), int(INDEX_BOX[3] * CANON_H)
    top_left = int(np.count_nonzero(signs[y0:y1, x0:x1]))
    bottom_right = int(np.count_nonzero(signs[CANON_H - y1:CANON_H - y0,
                                              CANON_W - x1:CANON_W - x0]))
    return min(top_left, bottom_right) >= MIN_INDEX_INK


#: Number-card layouts: (pips in each side column, pips in the centre column) -> rank.
LAYOUTS = {(0, 2): 2, (0, 3): 3, (2, 0): 4, (2, 1): 5, (3, 0): 6, (3, 1): 7, (3, 2): 8,
           (4, 0): 8, (4, 1): 9, (4, 2): 10}


def _parts(stats: np.ndarray, cents: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per ink component but the background: (area, centre x, centre y as shares
    of the card, thin line along the border, inner: in the middle field and no
    line, big: inner and pip-sized)."""
    area_all = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    cx = cents[1:, 0] / CANON_W
    cy = cents[1:, 1] / CANON_H
    # the table or a card's edge in a thin line along the border: the quad runs a
    # pixel or two outside the card; such lines are neither pips nor cut pips
    line = _border_lines(stats[1:])
    inner = (cx > INDEX_COLUMN) & (cx < 1.0 - INDEX_COLUMN) & ~line
    return area_all, cx, cy, line, inner, inner & (area_all >= 25)


def _judge(card: UprightCard, scale: float = 1.0, crops: bool = False) -> PipCount | None:
    """The pip count when the field's ink components are a clean set of pips
    (`scale`: image pixels per canonical pixel, for the suit's resolution guard;
    `crops`: keep the pips' crops whatever the suit, see count_pips)."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink_mask(card), connectivity=8)
    if n < 2:
        return None
    area_all, cx, cy, line, inner, big = _parts(stats, cents)
    split = np.zeros(n, bool)  # by label: a part of touching pips split apart
    parted = split_touching(labels, stats, cents, np.flatnonzero(big) + 1)
    if parted is not None:
        labels, stats, cents, split = parted
        n = stats.shape[0]
        area_all, cx, cy, line, inner, big = _parts(stats, cents)
    if big.sum() < 2:
        return None
    signs = np.concatenate([[False], ~inner & ~line])  # by label: the indices' ink
    if not _shows_indices(np.take(signs, labels)):  # (np.take: signs[labels], cheaper)
        return None
    areas = area_all[big]
    # Every inner component of any size must be a pip: a picture's pieces, a hand's
    # edge or a speck half a pip big spoil the set.
    if np.any(inner & ~big & (area_all > 0.2 * float(np.median(areas)))):
        return None
    if _cut_at_border(stats[1:][~line], inner[~line], cy[~line]):
        return None
    idx = np.flatnonzero(big)
    w = stats[1:, cv2.CC_STAT_WIDTH][idx].astype(np.float64)
    h = stats[1:, cv2.CC_STAT_HEIGHT][idx].astype(np.float64)
    spread = float(areas.max() / areas.min())
    fill = areas / (w * h)
    aspect = w / h
    size = np.sqrt(areas) / CANON_W  # a pip is about 1/8..1/5 of the card's width
    if (spread > 1.6 or fill.min() < 0.35 or fill.max() > 0.9 or aspect.min() < 0.55
            or aspect.max() > 1.6 or size.min() < 0.08 or size.max() > MAX_PIP):
        return None
    layout = _layout(cx[idx], cy[idx])
    if layout is None:
        return None
    count, worst = layout
    ids = idx + 1
    mag = clean.edges(card)
    sharpness = clean.sharpness(card, mag, labels, stats[ids], ids)
    if sharpness < clean.MIN_SHARPNESS:
        return None
    keep = np.zeros(n, bool)
    keep[ids] = True
    keep[np.flatnonzero(~inner) + 1] = True  # the corner indices' rank signs and pips
    if clean.stray_edges(card, mag, labels, keep, _FIELD) > clean.MAX_STRAY_EDGES:
        return None
    red, within, between = clean.pip_colours(card.bgr, labels, ids)
    if red is None or within > clean.MAX_COLOUR_SPREAD:
        return None
    alike = clean.shape_agreement(labels, stats[ids], ids)
    if alike < clean.MIN_SHAPE_AGREEMENT:
        return None
    whole = ids[~split[ids]]  # a split pip's cut edge is no suit's shape
    suits = (pip_suits(card, labels, stats[whole], whole, red, scale, sharpness)
             if whole.size >= 2 else PipSuits(None, None))
    cut = None  # the pips for pipnet.py: only where pipsuit left a black card unsure
    if whole.size >= 2 and (crops or (not red and suits.sure is None)):
        cut = pip_crops(list(upright_pips(card, labels, stats[whole], whole)))
    return PipCount(count=count, red=red, size_spread=spread, symmetry=worst,
                    colour_spread=within, colour_gap=between, shape_agreement=alike,
                    suit=suits.sure, lean=suits.lean, crops=cut)


#: The middle field the stray-edge check looks at (x0, x1, y0, y1), canonical pixels:
#: clear of the indices' columns and of the card's border.
_FIELD = (int(INDEX_COLUMN * CANON_W), int((1.0 - INDEX_COLUMN) * CANON_W),
          int(EDGE_Y * CANON_H) + 1, CANON_H - (int(EDGE_Y * CANON_H) + 1))


def _layout(px: np.ndarray, py: np.ndarray) -> tuple[int, float] | None:
    """(rank, worst symmetry mismatch) when the pip centres lie in a number card's
    layout, else None."""
    off = px - 0.5
    centre = np.abs(off) < 0.09
    left = (off <= -0.12) & (off >= -0.34)
    right = (off >= 0.12) & (off <= 0.34)
    if not np.all(centre | left | right):
        return None
    nl, nr, nc = int(left.sum()), int(right.sum()), int(centre.sum())
    if nl != nr or (nl, nc) not in LAYOUTS:
        return None
    rank = LAYOUTS[(nl, nc)]
    worst = 0.0
    if nl:
        yl, yr = np.sort(py[left]), np.sort(py[right])
        xl, xr = px[left], px[right]
        worst = max(worst, float(np.abs(yl - yr).max()))
        worst = max(worst, float(abs(xl.mean() - 0.5 + xr.mean() - 0.5)))
        worst = max(worst, float(xl.max() - xl.min()), float(xr.max() - xr.min()))
        worst = max(worst, float(np.abs(yl + yl[::-1] - 1.0).max()))
        if yl[0] > 0.3 or yl[-1] < 0.7:  # side columns span the card
            return None
    if py.min() > 0.3 or py.max() < 0.7:  # every layout fills the card end to end
        return None
    yc = np.sort(py[centre])
    if nc:
        worst = max(worst, float(np.abs(px[centre] - 0.5).max()))
    if rank == 7:
        if not 0.2 < yc[0] < 0.8:
            return None
    elif nc:
        worst = max(worst, float(np.abs(yc + yc[::-1] - 1.0).max()))
    if nc == 1 and rank != 7 and abs(yc[0] - 0.5) > 0.05:
        return None
    if worst > 0.06:
        return None
    return rank, worst


