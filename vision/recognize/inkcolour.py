"""The colour of a corner index's ink, red or black, from its pixels: a witness
against a card whose suit is of the other colour.

Why: the index network's suit mistakes can pass its calibrated bars (a fresh
held-out seed read a black two of spades, partly covered, as the two of
diamonds), and the pips' witness (pipcheck.pips_contradict) needs the whole card
in view. The index itself shows its colour: the rank glyph and the suit sign under
it are printed in red or black ink. Red ink reflects red light almost as paper
does and absorbs green and blue; black ink absorbs all three alike. So, measured
against the patch's own paper (which takes out warm or cold light and a camera's
white balance), red ink is dark in green and blue but hardly in red, and black ink
is about as dark in every channel.

How (`ink_colour`, on an upright index patch as patch.py cuts it):
- the paper: the mean colour of the patch's brightest pixels (PAPER_SHARE by their
  darkest channel); each pixel's darkness per channel is 1 - value / paper's;
- the ink: pixels whose darkest channel reaches INK_CUT of the patch's darkest
  (itself at least MIN_INK); the
  rank glyph is the largest blob of it in the patch's upper half clear of the
  patch's sides (the card's own outline, a table beyond the card's edge, a court
  picture cut by the patch all touch a side), the suit sign the largest blob under
  it; both must be found and be of one colour (two blobs agreeing: a red court
  picture's blob that passed for a glyph is not backed by a sign of its colour);
- a blob's colour, from its core (its pixels of at least CORE_CUT of its darkest)
  and its box (PAD pixels round it, summed per channel: blur and JPEG's chroma
  blocks spread the ink's colour about but keep its sum): red when the core's
  median red darkness is under RED_SHARE of its green or blue one and the box's
  under RED_BOX; black when the box's sums and the core's median pixel are
  neutral (least channel GREY_SHARE of the greatest) and its darkest pixel at
  least BLACK_DARK dark; otherwise unsure. Blue, green and orange inks (the
  four-colour decks gnome/anglo_modern_4_color and neoclassical_4_color: clubs
  green, spades blue-black, diamonds orange) are never black, and red only for
  the orange diamonds, a red suit.

`speaks_against` turns that into a veto (reader.read_candidates, live and
stills): a card whose every corner naming its rank shows ink surely of the other
colour than its suit is not given. It only takes cards away. The live Pipeline
does not ask about cards those corners name CERTAIN (its frame's budget).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import cv2
import numpy as np

from vision.recognize.readings import CardReading, Reading

Colour = Literal["red", "black"]

#: Share of the patch's pixels (the brightest by their darkest channel) taken for
#: its paper.
PAPER_SHARE = 0.15
#: Least darkness (0 paper .. 1 no light) of the patch's darkest ink for any verdict.
MIN_INK = 0.35
#: A pixel is ink at this share of the patch's darkest ink.
INK_CUT = 0.5
#: A blob's core: its pixels at this share of its darkest.
CORE_CUT = 0.7
#: Red ink: its core's median red darkness under this share of the larger of its
#: green and blue darkness. Rendered training and calibration decks (seeds 7, 5,
#: 8, 30; 1,930 corners with both blobs found): black corners' largest blob
#: median 0.87 at their 1st percentile, red corners' 0.56 at their 95th.
RED_SHARE = 0.45
#: Black ink: its box's summed darkness in its least dark channel at least this share
#: of the darkest one (neutral, blur and JPEG's chroma blocks notwithstanding), and
#: its core's median the same per pixel. Same corners: red corners passing both
#: measures 2 of 955 at 0.8 (berlin's thin red strokes at JPEG quality 38, a cold
#: light), black ones 879 of 975.
GREY_SHARE = 0.8
#: ... and its darkest pixel at least this dark (BLACK_DARK with GREY_SHARE: red
#: corners called black 0 of 955, black ones 403 of 975; red ink whose colour the
#: JPEG blocks took is mid grey, 0.55-0.78 on those corners). Checked on other
#: seeds (training 32-34, calibration 31-33, 3,560 corners): 0 of 1,810 red
#: corners called black, 643 of 1,750 black ones.
BLACK_DARK = 0.8
#: Red ink also needs its box's summed red darkness under this share of the larger
#: of green and blue (black corners: 0.84 at their 1st percentile; red corners
#: under 0.5: 908 of 955).
RED_BOX = 0.6
#: Pixels round a blob's box summed for its colour.
PAD = 2
#: Least paper brightness (0-255, its darkest channel) to measure against.
MIN_PAPER = 40.0
#: Least pixels of a blob's core to be judged.
MIN_CORE = 4


def ink_colour(patch: np.ndarray) -> Colour | None:
    """"red", "black" or None (unsure) for an upright BGR index patch (see module)."""
    raw = _darkness(patch)
    return None if raw is None else _colour(raw)


def _colour(raw: np.ndarray) -> Colour | None:
    """`ink_colour` from the patch's darkness per channel."""
    found = _glyph_and_sign(raw)
    if found is None:
        return None
    colours = {_blob_colour(raw, b) for b in found}
    return colours.pop() if len(colours) == 1 else None


def _darkness(patch: np.ndarray) -> np.ndarray | None:
    """Per pixel and channel, 1 - value / paper's value (not clipped: paper brighter
    than the mean paper is negative); None when the patch has no paper bright enough
    to measure against."""
    b, g, r = cv2.split(patch)
    least = cv2.min(cv2.min(b, g), r)
    flat = least.ravel()
    k = int((1.0 - PAPER_SHARE) * (flat.size - 1))
    cut = int(np.partition(flat, k)[k])
    paper = np.array(cv2.mean(patch, mask=(least >= cut).view(np.uint8))[:3], np.float32)
    if float(paper.min()) < MIN_PAPER:
        return None
    return 1.0 - patch.astype(np.float32) * (1.0 / paper)


def _median(x: np.ndarray) -> float:
    """np.median of a short 1-d array, by partition (np.median's overhead is most of
    its time at this size)."""
    n = len(x)
    if n % 2:
        return float(np.partition(x, n // 2)[n // 2])
    part = np.partition(x, (n // 2 - 1, n // 2))
    return float((part[n // 2 - 1] + part[n // 2]) / 2)


def _glyph_and_sign(raw: np.ndarray
                    ) -> list[tuple[np.ndarray, tuple[int, int, int, int]]] | None:
    """The pixel masks and boxes (x, y, w, h) of the rank glyph and suit sign of a
    patch (its darkness per channel: see module), or None when either is not found."""
    d = cv2.max(cv2.max(raw[:, :, 0], raw[:, :, 1]), raw[:, :, 2])
    top = float(d.max())
    if top < MIN_INK:
        return None
    mask = (d >= INK_CUT * top).astype(np.uint8)
    n, lab, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    inner = [k for k in range(1, n) if area[k] >= MIN_CORE and x[k] > 0 and y[k] > 0
             and x[k] + bw[k] < w and y[k] + bh[k] < h and bh[k] <= 0.6 * h]
    upper = [k for k in inner if cent[k][1] < 0.5 * h]
    if not upper:
        return None
    glyph = max(upper, key=lambda k: area[k])
    gx = cent[glyph][0]
    bottom = y[glyph] + bh[glyph]
    below = [k for k in inner if y[k] >= bottom - 1 and abs(cent[k][0] - gx) <= 0.3 * w]
    if not below:
        return None
    sign = max(below, key=lambda k: area[k])
    return [(lab == k, (int(x[k]), int(y[k]), int(bw[k]), int(bh[k])))
            for k in (glyph, sign)]


def _blob_colour(raw: np.ndarray, blob: tuple[np.ndarray, tuple[int, int, int, int]]
                 ) -> Colour | None:
    """The colour of one blob's ink (see module), or None."""
    mask, (x, y, bw, bh) = blob
    px = np.clip(raw[mask], 0.0, 1.0)  # (n, 3) B, G, R darkness
    most = px.max(axis=1)
    top = float(most.max())
    core = px[most >= CORE_CUT * top]
    if len(core) < MIN_CORE:
        return None
    b, g, r = core[:, 0], core[:, 1], core[:, 2]
    h, w = raw.shape[:2]
    box = raw[max(y - PAD, 0):min(y + bh + PAD, h), max(x - PAD, 0):min(x + bw + PAD, w)]
    sums = box.reshape(-1, 3).sum(axis=0)  # (the box's ink, blur and JPEG's chroma
    # blocks spreading it or not: their sums keep the ink's colour)
    if _median(r / np.maximum(np.maximum(g, b), 1e-3)) < RED_SHARE:
        return "red" if float(sums[2]) < RED_BOX * float(sums[:2].max()) else None
    if top < BLACK_DARK or float(sums.min()) < GREY_SHARE * float(sums.max()):
        return None
    grey = core.min(axis=1) / np.maximum(core.max(axis=1), 1e-3)
    return "black" if _median(grey) >= GREY_SHARE else None


#: The red suits; the others are black.
RED_SUITS = ("D", "H")


def suit_colour(suit: str) -> Colour:
    """The ink a suit is printed in on an ordinary (two-colour) deck."""
    return "red" if suit in RED_SUITS else "black"


#: The live Pipeline does not ask about a card whose every corner naming its rank
#: names its suit with at least this probability (its frame's budget). Rendered
#: training and calibration decks (seeds 7, 5, 8, 30-34, 5,409 corners the network
#: read): right suits at or above it on 78% of corners (0.9999: 60%); suits of the
#: other colour read 8 times, at most 0.91. Bench frames (held-out decks, 12
#: scenes, a loaded machine): 3.3 of 6.2 cards given asked about, 0.67 ms CPU a
#: frame (0.9999: 4.75 cards, 1.0 ms). The stills chain asks about every card.
CERTAIN = 0.999


def speaks_against(card: CardReading, patches: Sequence[np.ndarray],
                   readings: Sequence[Reading], certain: float | None = None) -> bool:
    """Does the ink of the corners (`patches`, read as `readings`) that name the
    card's rank refute its suit (`refutes`)? Not asked when `certain` is given and
    they all name its suit at `certain` or more."""
    if card.card is None or card.suit is None:
        return False
    named = [(p, r) for p, r in zip(patches, readings) if r.rank == card.rank]
    if certain is not None and all(r.suit == card.suit and r.suit_prob >= certain
                                   for _, r in named):
        return False
    return refutes(card.suit, [p for p, _ in named])


def refutes(suit: str, patches: Sequence[np.ndarray]) -> bool:
    """Is every patch's ink surely the other colour than `suit`'s (at least one
    patch)? The caller passes the corners that name the card's rank.

    Cheapest first: a patch without the pixels such ink's core needs (`_may_be`)
    is not looked at further."""
    if not patches:
        return False
    other: Colour = "black" if suit_colour(suit) == "red" else "red"
    for p in patches:
        raw = _darkness(p)
        if raw is None or not _may_be(raw, other) or _colour(raw) != other:
            return False
    return True


def _may_be(raw: np.ndarray, colour: Colour) -> bool:
    """Has the patch (its darkness per channel) MIN_CORE pixels such as half of a
    `colour` core's pixels must be, the glyph's and the sign's (MIN_CORE each)?
    Black: every channel GREY_SHARE of CORE_CUT of BLACK_DARK dark; red: green or
    blue CORE_CUT of INK_CUT of MIN_INK dark (a blob's core, the blob's darkest
    being INK_CUT of the patch's at least), red under RED_SHARE of it. A necessary
    condition: when False, `_colour` would not say `colour`."""
    b, g, r = raw[:, :, 0], raw[:, :, 1], raw[:, :, 2]
    if colour == "black":
        least = cv2.min(cv2.min(b, g), r)
        return int(np.count_nonzero(least >= GREY_SHARE * CORE_CUT * BLACK_DARK)) >= MIN_CORE
    gb = cv2.max(g, b)
    red = (r < RED_SHARE * gb) & (gb >= CORE_CUT * INK_CUT * MIN_INK)
    return int(np.count_nonzero(red)) >= MIN_CORE


def blob_colour(patch: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int]
                ) -> Colour | None:
    """The colour of one blob of ink of a BGR patch (`mask` its pixels, `box` its x,
    y, w, h) by the rule the index glyphs face (see module), or None: unsure, or no
    paper to measure against. For a lone suit sign (splitindex.py)."""
    raw = _darkness(patch)
    return None if raw is None else _blob_colour(raw, (mask, box))
