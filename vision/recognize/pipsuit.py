"""The suit a card's pips show by their shape: the suit a second time, large.

Why: the network's suit bars are steepest where it errs most (an unfamiliar deck's
clubs read as spades with near certainty), while a number card prints its suit
again in every pip of its middle, far larger than in its corner index. pips.py
counts the pips and tells their colour, which already splits red from black; this
module tells clubs from spades and diamonds from hearts (PipCount.suit), for cards
whose corner index the network reads unsurely.

How: each pip, turned upright by the layout (the lower half's pips are printed
turned), gives shape features (where its outline falls short of its convex hull: a
club's hollows between its lobes, a heart's notch; its widest row, top width,
centre of mass, fill, solidity), scored along a linear discriminant per colour;
every pip must be beyond its side's bar on the same side, else None (dots, two
suits' pips, a deck printing its lower pips upright). The sides' bars differ
(SuitBars): the discriminant's mistakes are lopsided, small or blurred clubs
drift towards spades and no spade was ever seen scoring as a club, so clubs are
given from smaller pips on weaker evidence than spades, and spades need sharp pips.

Figures (2026-11-30; whole face-up cards counted by pips.count_pips in rendered
scenes, as in pips.py's figures; /tmp/s6a pickles):

- Development sets (training + calibration decks; true quads seeds 1, 2, 41;
  detected 11, 12, 21, 31, 32; 8138 counted): 0 wrong suits in each. Black given,
  before -> after the per-side bars: 79 -> 82%, 73 -> 79%, 84 -> 86% (true quads),
  67 -> 72%, 53 -> 58%, 67 -> 70%, 63 -> 69%, 56 -> 63% (detected); red 98-100%,
  unchanged. Leave-one-deck-out (each deck scored by a discriminant fitted
  without it), 3826 clubs and spades: 2483 -> 2727 given (65 -> 71%; clubs 1090
  -> 1406, spades 1393 -> 1321), 0 wrong. Real photos: the same suits as before
  (images/train 89 of 95 counted given, images/test 22 of 26).
- Measured once, never tuned on, fresh held-out seeds: true quads seed 61 (200
  scenes, 593 counted): black 244 -> 248 of 290, red 302 of 303; detected seed 62
  (200 scenes, 508 counted): black 172 -> 171 of 262 (the spades' sharpness bar
  costs there what the clubs gain), red 237 of 246; 0 wrong in all. (Earlier
  rule, seeds 52/51: 838 of 920 and 602 of 729 given, 0 wrong.)
- Time: 0.75 ms more per counted card (median, one thread; 0.74 before the
  per-side bars; refused cards never reach it).

Session 10 (the held-out decks' unread whole black cards: rank sure, suit not):
why the pips gave no suit, over the /tmp/s6a development pickles (training and
calibration decks, 3833 counted black cards): 1003 none, most of them a middle-row
pip read the wrong way up (MIDDLE_BAND), then small or soft spades, then clubs
scoring weakly. Middle-row pips either way up: black given 2830 -> 3386 (74 ->
88%), red 4292 -> 4302 of 4327, 0 wrong; rendered calibration decks, true quads
(60 scenes, seeds 5/7/8): right 380/375/368 -> 393/385/375 of 423/436/432, detected
(seed 5) 328 -> 340, training decks unchanged, 0 wrong. The club lean (LEAN_BARS,
a witness beside the corners' best suit; pipcheck.py): 350 clubs more leaning
right, no spade, on those pickles and 3584 blurred single cards; one card more on
training seed 8 detected. Real photos images/train: six 9C more given clubs (by
eye: all clubs), no other suit changed. Time: +0.13 ms median per counted card
(+0.32 mean: middle pips scored both ways; no early exit on an unsure pip, as the
lean reads them), +0.17 ms a live bench frame (0.83 suit reads a frame).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple, Protocol

import cv2
import numpy as np


class UprightCard(Protocol):
    """A card warped upright (upright.UprightCard): `dark` its darkest channel and `paper` the
    paper level round each pixel (float32 arrays of the card's canonical size)."""

    @property
    def dark(self) -> np.ndarray: ...

    @property
    def paper(self) -> np.ndarray: ...


#: Pips are judged upright: a pip whose centre lies below this (fraction of the card's
#: height from its top) is printed turned by 180 degrees, as number cards print the
#: lower half's pips. A deck printing them all upright gets pips that disagree: None.
_TURNED_BELOW = 0.53

#: Pips whose centre lies within this of the card's half height (share of the
#: height) sit in the middle row, which decks print either way up: gnome/plastic's
#: six and seven of spades print the middle row's right pip turned, the left
#: upright; gnome/tarocco prints a three's centre pip turned. Read upright by
#: _TURNED_BELOW, such a turned spade scored +2 (a club) and the card got no suit
#: (calibration decks: 123 of 296 black cards counted from detected quads given
#: none, most for this). So a middle pip's way up is not assumed: it is scored both
#: ways and counts with the score on the side the other pips show. That cannot
#: turn a card's suit (the other pips alone decide the side, every layout has pips
#: at top and bottom); it only keeps a middle pip from blocking it. Pip centres of
#: the layouts lie at 0.5 or beyond 0.35/0.65 (9 and 10: 0.39/0.61), hence 0.06.
MIDDLE_BAND = 0.06

#: Shape features are read at this many times the canonical size (interpolated from
#: the soft ink, so the anti-aliased edge gives sub-pixel outlines).
_SUIT_ZOOM = 4

#: A pip's soft ink is taken from its ink mask grown by one pixel (its blurred edge).
_GROW = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def upright_pips(card: UprightCard, labels: np.ndarray, stats: np.ndarray, ids: np.ndarray
                 ) -> Iterator[np.ndarray]:
    """Each pip's soft ink (share below paper, float32, 0 off the pip), turned upright.

    `labels` is the card's connected-component image, `ids` the pips' labels and
    `stats` their rows of cv2.connectedComponentsWithStats (x, y, w, h first).

    Why the shape: a club is three round lobes on a stem (hollows at its sides, up
    between the lobes; a round top), a spade one point over two lobes on a stem
    (convex above its widest row, hollow only round the stem); a heart two lobes
    with a notch at the top (its mass high, widest near the top, point below), a
    diamond four points (convex or hollow all round alike, widest in the middle).
    """
    ratio = 1.0 - card.dark / card.paper
    height = ratio.shape[0]
    for i, (x, y, w, h) in zip(ids, stats[:, :4]):
        x0, y0 = max(x - 1, 0), max(y - 1, 0)
        own = cv2.dilate((labels[y0:y + h + 1, x0:x + w + 1] == i).astype(np.uint8), _GROW)
        soft = (ratio[y0:y + h + 1, x0:x + w + 1] * own).astype(np.float32)
        yield soft[::-1, ::-1] if (y + h / 2) / height > _TURNED_BELOW else soft


def shape_of(soft: np.ndarray) -> list[float]:
    """FEATURES of one upright pip given as soft ink (share below paper, 0 outside).
    Every feature is a share of the pip's own size, so pips of any size compare."""
    inked = soft[soft > 0]
    if inked.size < 4:
        return [0.0] * len(FEATURES)
    k = int(0.8 * (inked.size - 1))
    depth = max(float(np.partition(inked, k)[k]), 0.05)
    norm = np.minimum(soft * np.float32(1.0 / depth), np.float32(1.0))
    big = cv2.resize(norm, (norm.shape[1] * _SUIT_ZOOM, norm.shape[0] * _SUIT_ZOOM),
                     interpolation=cv2.INTER_LINEAR)
    shape = (big > 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(shape, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return [0.0] * len(FEATURES)
    outline = max(contours, key=cv2.contourArea)
    if len(contours) > 1:  # a speck of the pip's own edge: only the pip counts
        shape[:] = 0
        cv2.drawContours(shape, [outline], -1, 1, -1)
    x, y, w, h = cv2.boundingRect(outline)
    hull = np.zeros_like(shape)
    cv2.fillConvexPoly(hull, cv2.convexHull(outline), 1)
    width = cv2.reduce(shape[y:y + h], 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel()
    rows = cv2.reduce(hull[y:y + h], 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).ravel() - width
    area = max(float(width.sum()), 1.0)
    upper = float(rows[int(0.1 * h):int(0.55 * h)].sum()) / area
    lower = float(rows[int(0.55 * h):].sum()) / area
    cols = slice(x + int(0.35 * w), x + int(0.65 * w))
    top_rows = slice(y, y + int(0.3 * h))
    notch = float(cv2.countNonZero(hull[top_rows, cols])
                  - cv2.countNonZero(shape[top_rows, cols])) / area
    widest = float(np.argmax(width)) / h
    top = float(width[:max(1, h // 8)].mean()) / max(float(width.max()), 1.0)
    centroid = float(np.dot(width, np.arange(h, dtype=np.float64))) / area / h
    return [upper, lower, notch, widest, top, centroid, area / (w * h),
            area / max(area + float(rows.sum()), 1.0)]


#: upper/lower hollow: share of the pip's area missing from its convex hull in
#: its upper (10-55% of its height) and lower part; notch: hollow in the top 30% of
#: the middle 30% of columns; widest: height of the widest row; top: the top
#: eighth's mean width over the widest; centroid: height of the centre of mass;
#: fill: area over box; solidity: area over hull (heights from the top, shares of h).
FEATURES = ("upper_hollow", "lower_hollow", "notch", "widest", "top", "centroid",
            "fill", "solidity")


def pip_suit(card: UprightCard, labels: np.ndarray, stats: np.ndarray, ids: np.ndarray,
             red: bool, scale: float, sharpness: float) -> str | None:
    """The suit every pip's shape shows surely ("C", "D", "H" or "S"), or None: the
    `sure` of pip_suits (see there)."""
    return pip_suits(card, labels, stats, ids, red, scale, sharpness).sure


class PipSuits(NamedTuple):
    """What the pips' shapes say of the suit: `sure` the suit they show by
    themselves (the card may be given on it alone), `lean` the suit they show
    under the looser LEAN_BARS (only a second witness: pipcheck.pip_verdict gives
    it when the corner index's own reading names the same suit), each None when not."""

    sure: str | None
    lean: str | None


def pip_suits(card: UprightCard, labels: np.ndarray, stats: np.ndarray, ids: np.ndarray,
              red: bool, scale: float, sharpness: float) -> PipSuits:
    """The suit the pips' shapes show, surely and leaning (PipSuits).

    `labels`, `stats` (the pips' rows) and `ids` as for upright_pips; `red` the
    pips' colour (pips.py); `scale` image pixels per canonical pixel (small pips
    in the image blur a club's lobes into a spade, so small pips get no spade);
    `sharpness` the pips' median edge sharpness (pipclean.sharpness: a blurred
    club's lobes melt into a spade just as a small one's do).

    Colour splits red from black; each pip's features then give a score along a
    linear discriminant fitted on the training and calibration decks' pips (in
    units of its spread inside a suit; see _BLACK_RULE): positive for clubs
    (diamonds), negative for spades (hearts). Every pip must score beyond a bar on
    the same side, and their median further (one pip's score is noisy, a deck's
    odd shape moves them all); each side has its own bars and least pip height
    (SuitBars: a spade needs more than a club). Why so strict: the caller may give a card on this,
    and a wrong suit is worse than none. The lean's bars are looser (LEAN_BARS),
    which is why a lean never gives a card on its own.
    """
    weights, mid, sides = _RED_RULE if red else _BLACK_RULE
    leans = () if red else LEAN_BARS
    least = float(stats[:, cv2.CC_STAT_HEIGHT].min()) * scale
    if least < min(side.least_px for side in (*sides, *leans)):
        return PipSuits(None, None)
    z = _scores(card, labels, stats, ids, weights, mid)
    if z is None:
        return PipSuits(None, None)
    pick = 0 if z[0] > 0 else 1
    return PipSuits(_passes(sides[pick], z, least, sharpness),
                    _passes(leans[pick], z, least, sharpness) if leans else None)


def _scores(card: UprightCard, labels: np.ndarray, stats: np.ndarray, ids: np.ndarray,
            weights: tuple[float, ...], mid: float) -> np.ndarray | None:
    """Each pip's score along the discriminant (`weights`, `mid`), a middle-row
    pip's the way up that agrees with the others (MIDDLE_BAND); None when the pips
    fall on both sides of the midpoint (two suits' shapes: no suit at all)."""
    z: list[float] = []
    middle: list[np.ndarray] = []  # pips of the middle row: printed either way up
    height = float(labels.shape[0])
    for soft, (y, h) in zip(upright_pips(card, labels, stats, ids), stats[:, 1:4:2]):
        if abs((y + h / 2) / height - 0.5) < MIDDLE_BAND:
            middle.append(soft)
            continue
        score = float(np.dot(shape_of(soft), weights)) - mid
        if score == 0.0 or (z and (score > 0) != (z[0] > 0)):
            return None  # of the other suit: no need to look on
        z.append(score)
    if not z:
        return None
    lean = 1.0 if z[0] > 0 else -1.0
    for soft in middle:  # the way up that agrees with the others' (see MIDDLE_BAND)
        score = lean * max(lean * (float(np.dot(shape_of(s), weights)) - mid)
                           for s in (soft, soft[::-1, ::-1]))
        if lean * score <= 0.0:
            return None
        z.append(score)
    return np.asarray(z)


def _passes(side: SuitBars, z: np.ndarray, least: float, sharpness: float) -> str | None:
    """`side.suit` when the pips' scores `z` (all on its side), their least height
    `least` (image pixels) and `sharpness` pass its bars, else None."""
    if (least < side.least_px or sharpness < side.least_sharpness
            or float(np.abs(z).min()) <= side.each):
        return None
    return side.suit if abs(float(np.median(z))) > side.middle else None


class SuitBars(NamedTuple):
    """When the pips' scores on one side of the midpoint give that side's suit: every
    pip beyond `each`, their median beyond `middle`, no pip under `least_px`
    pixels tall in the image, and the pips' edges at least `least_sharpness`
    sharp (pipclean.sharpness). Why one per side: the discriminant's mistakes are
    lopsided (small or odd clubs drift towards spades, never a spade towards clubs),
    so "spade" needs more evidence than "club"."""

    suit: str
    each: float
    middle: float
    least_px: float
    least_sharpness: float = 0.0


#: (weights per feature, midpoint, (bars for the suit above, bars for the suit
#: below)). Fitted (Fisher's discriminant: within-suit covariance solved against
#: the two suits' mean difference, scaled to unit spread, midpoint halfway between
#: the means) on the pips of every whole card counted in rendered scenes of the
#: training and calibration decks (the pips of pips.py's "developed on" scenes:
#: true and detected quads, 3728 cards; refit when shape_of changes).
#:
#: Bars and heights read off a leave-one-deck-out run (each deck scored by a rule
#: fitted without it) on 3826 clubs and spades of all eight development sets
#: (true quads seeds 1, 2, 41; detected 11, 12, 21, 31, 32). Spades: every pip
#: beyond 1.5 and the median beyond 2.0, pips from 14 px: 0 wrong; from 12 px a
#: club read as a spade at every bar up to 2.0/2.5 (gnome/tango 13.9 and 12.2 px:
#: small pips blur a club's lobes into a spade). Clubs: no spade ever scored as a
#: club at any bar or size (the nearest: a 12.7 px neoclassical_4_color spade,
#: every pip above 0.08, median 0.14), so clubs are given from 10 px with every
#: pip beyond 0.75 and the median beyond 1.25 (leave-one-deck-out clubs 1090 ->
#: 1406 of 1781 given, 0 wrong). Red: 0 wrong of 1962 at every bar tried, 99%.
#: Blur: training-deck cards (130-240 px) under a Gaussian blur of sigma 1-2.5 px
#: gave clubs read as spades at pip sharpness 0.37-0.66 (gnome/tango, kde/penguins;
#: none in the scenes above), never a spade as a club; so a spade needs sharpness
#: 0.7 (1355 of the 1421 development spades given keep it).
_BLACK_RULE = ((-11.107, -37.921, -51.539, -2.052, 19.992, 25.549, 6.065, -69.785),
               -44.841, (SuitBars("C", 0.75, 1.25, 10.0), SuitBars("S", 1.5, 2.0, 14.0, 0.7)))
_RED_RULE = ((160.596, 36.235, -160.999, -5.557, -37.084, -96.224, 11.005, 104.267),
             46.637, (SuitBars("D", 1.5, 2.0, 8.0), SuitBars("H", 1.5, 2.0, 8.0)))

#: The lean's bars (clubs, spades): what the pips must show for the suit to be a
#: second witness beside the corner index's own reading (pipcheck.pip_verdict),
#: never alone. Why: the sure bars refuse black cards the network is unsure of
#: (development pickles, session 10: 447 of 3833 counted black cards given no
#: suit, 71 of them unread), among them clubs whose pips score between 0.25 and
#: 0.75 or whose median falls short of 1.25. Clubs: every pip beyond 0.25, the
#: median beyond 0.6, from 8 px: 350 clubs more over those pickles and 3584 blurred
#: single black cards of the training and calibration decks (Gaussian 0-2.5 px,
#: 90-260 px tall, JPEG), no spade (the nearest: a neoclassical_4_color 3S, its
#: outer pips at 0.02 and 1.24). Spades: as sure as alone (the sure bars), since
#: every relaxation tried (10 or 12 px, sharpness 0.6 or 0.65, bars 1.25/1.75)
#: let blurred gnome/tango clubs through on their pips (85 clubs scored as
#: spades by every pip, medians to -3.2 at sharpness 0.58), and the network,
#: the other witness, reads an unfamiliar deck's clubs as spades: a blurred
#: kde/penguins 9C (0.93) and gnome/simplistic 2C (0.68) fooled both.
LEAN_BARS = (SuitBars("C", 0.25, 0.6, 8.0), _BLACK_RULE[2][1])


def sign_side(soft: np.ndarray, red: bool, height_px: float, bar: float | None = None
              ) -> str | None:
    """The suit one upright sign's shape shows ("C", "D", "H" or "S"), or None: the
    sure bars of its colour's side (SuitBars.each and .middle both, as for a card of
    one pip; `height_px` its height in the image against .least_px). `bar`: a bar
    of the caller's for either side instead, where it has a second witness
    (splitindex.py asks the pip network about a black sign; neither asks about
    sharpness). `soft`: the sign's soft ink (share below paper, 0 off it)."""
    weights, mid, sides = _RED_RULE if red else _BLACK_RULE
    z = float(np.dot(shape_of(soft), weights)) - mid
    if z == 0.0:
        return None
    side = sides[0 if z > 0 else 1]
    need = max(side.each, side.middle) if bar is None else bar
    if height_px < side.least_px or abs(z) <= need:
        return None
    return side.suit
