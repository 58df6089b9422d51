"""Cards whose index prints the suit sign BESIDE the rank, not under it (a step of
reader.read_candidates, for the cards every other step left unread).

Why: the corner network was trained on indices that print the rank over the suit
sign. A deck printing them side by side (the training deck gnome/tango_nuevo: the
rank in the top-left corner, the suit sign alone in the top-right one, a single
huge pip filling the rest) shows it a rank it reads surely and no suit: its suit
head guesses (0.46-0.83 on the right suit, or a wrong one: 2H read "2D" at 0.51),
and the other index corner, cut from the huge pip, reads garbage that contradicts
the rank. Session 16's trace of the training decks' true quads (seeds 7, 8) left
19 tango_nuevo cards unread, 13 of them with the rank read at >= 0.975.

What such a card still shows: the suit sign, alone on paper, in the box beside
the rank (the card's other top corner, cut mirrored so that it sits where an index
would: a suit sign is left-right symmetric). The network does not read a lone sign
(it says "not an index", trained on rank-over-sign patches), so the sign is told
by its own shape, as pips are: its colour (inkcolour.blob_colour), then within the
colour the pips' linear discriminant (pipsuit.sign_side: diamonds from hearts,
clubs from spades) and, for black signs, the pip network too (pipnet; both must
agree past their bars). The rank glyph's ink must not show another colour, the
rank corner's own suit head must not speak against the colour nor the suit
(SUIT_FLOOR), the rank's patch must show no ink under the glyph (a usual index:
what lies beside it is a pip or another card, never its sign), and the sign must
stand at the rank glyph's height and be of its size, alone (no other ink in the
box): a pip, a court's picture or another card's edge in that box is then not
taken for a sign. Every veto after it in read_candidates still applies.

Figures: see vision/recognize/README.md ("Split indices").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.recognize import inkcolour, pipsuit
from vision.recognize.decksuits import darkness
from vision.recognize.patch import INDEX_BOX, PATCH_H, PATCH_W, normalize_quad
from vision.recognize.pipnet import crop_pip, load_pipnet
from vision.recognize.readings import Calibration, CardReading, Reading
from vision.types import SUITS

#: The box beside the rank is cut at this many times the usual patch's resolution
#: (a sign is a fifth of the box's width: its outline wants the pixels).
ZOOM = 2

#: The box beside the rank, on the unit card mirrored (x from the card's other
#: long side): as tall as INDEX_BOX, wider, since a sign printed beside a rank
#: stands further in than an index does (tango_nuevo's: 0.12-0.32 of the width).
BOX = (0.0, 0.0, 0.40, INDEX_BOX[3])
#: Its size in pixels (as INDEX_BOX's patch, scaled by width, times ZOOM).
BOX_PX = (round(PATCH_W * (BOX[2] - BOX[0]) / (INDEX_BOX[2] - INDEX_BOX[0])) * ZOOM,
          PATCH_H * ZOOM)

#: The rank corner's suit head must put at least this on the sign's colour (the two
#: suits of it summed): not against it. Tango_nuevo's rank corners (training seeds
#: 7, 8) give their colour 0.87-1.0 (the glyph's and the sign's own inks decide).
COLOUR_MASS = 0.5
#: Where the sign's ink does not tell its colour (inkcolour's black wants neutral
#: ink 0.8 dark: tango_nuevo's slate "black" is not), the rank corner's suit head
#: must put this on one colour, the glyph's ink not telling the other.
NET_COLOUR = 0.9

#: Club-minus-spade log-odds a black sign must pass on its side (pipnet), as the
#: index signs' bar (signsuit.SIGN_BAR).
SIGN_BAR = 3.0

#: A black sign's shape score (pipsuit's discriminant) must pass this on the side
#: the pip network shows: the clubs' per-pip bar (pipsuit._BLACK_RULE), for both
#: sides, since the network, trained against the drift of blurred clubs towards
#: spades, is the other witness (tango_nuevo's 5S sign: -1.49, the network -10.2).
BLACK_SHAPE = 0.75

#: The sign is a blob of ink at least this dark (of the box's ink range) ...
INK = 0.5
#: ... of at least this many pixels of the zoomed box ...
MIN_AREA = 24
#: ... with no other blob over this share of its area in the box (specks of JPEG or
#: the card's edge are smaller) ...
OTHER_INK = 0.1
#: ... as tall as wide within these bounds (suit signs: 0.8-1.3) ...
ASPECT = (0.6, 1.6)
#: ... its middle within the rank glyph's rows widened by this share of its height.
BAND = 0.35
#: The glyph's top must lie in this upper share of the patch (an index's rank is
#: printed at its top: tango_nuevo's at 0.13-0.16; a sign taken for the glyph, its
#: rank too faint to be one blob, lies lower: orell's 7S, 0.44).
GLYPH_TOP = 0.3
#: The sign's height over the glyph's must lie within these (tango_nuevo: 1.0;
#: another card's pip beside an index is of any size).
SIZE = (0.6, 1.5)
#: The rank corner's suit head must give the sign's suit at least this: it may be
#: unsure of it (tango_nuevo's corners gave their suit 0.28-0.83), not against it
#: (orell's 7S, spade 0.976, beside a club of another card).
SUIT_FLOOR = 0.1
#: Ink under the rank glyph (`glyph_of`) counts from this many pixels of the patch
#: (a speck of JPEG or blur does not).
UNDER_AREA = 4


def beside_patch(image: np.ndarray, quad: Any, corner: int) -> np.ndarray:
    """The BOX of the card's corner beside index corner `corner` (0: the printed
    top-left, 1: the bottom-right), mirrored so that the card's edge is on the
    patch's left as an index's is: BOX_PX (width, height), BGR."""
    q = normalize_quad(quad)
    qc = q if corner == 0 else q[[2, 3, 0, 1]]
    mirrored = qc[[1, 0, 3, 2]]
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    h = cv2.getPerspectiveTransform(unit, mirrored)
    x0, y0, x1, y1 = BOX
    box = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]),
                                   h)[0]
    w, hh = BOX_PX
    m = cv2.getPerspectiveTransform(box, np.float32([[0, 0], [w, 0], [w, hh], [0, hh]]))
    return cv2.warpPerspective(image, m, (w, hh), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True, slots=True)
class Glyph:
    """The rank glyph of an upright index patch: its rows (`top`, `bottom`, shares
    of the patch's height) and its pixels (`mask`, `box` x, y, w, h, in `patch`)."""

    top: float
    bottom: float
    patch: np.ndarray
    mask: np.ndarray
    box: tuple[int, int, int, int]

    def colour(self) -> str | None:
        """Its ink's colour (inkcolour.blob_colour; None when unsure). Asked only of
        a card whose sign was found: it costs about a millisecond."""
        return inkcolour.blob_colour(self.patch, self.mask, self.box)


def glyph_of(patch: np.ndarray) -> Glyph | None:
    """The rank glyph of an upright index patch (its largest ink blob in the upper
    half, clear of the patch's top and left sides, starting in its left half: a big
    rank may run off the patch's right side, something beside a small one starts
    further right); None when there is none, it starts below GLYPH_TOP, or ink
    stands under it.

    Why no ink under it: a usual index prints its sign there, and what lies beside
    such an index is a pip, a picture or another card, never its sign (tarocco's
    QH, its heart under the glyph, had a diamond of another card beside it). Ink
    touching the patch's bottom side (a split-index deck's huge pip starts there)
    or left side (the card's edge) does not count."""
    d = darkness(patch)
    mask = (d >= INK).astype(np.uint8)
    n, lab, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    inner = [k for k in range(1, n) if area[k] >= 4 and x[k] > 0 and y[k] > 0
             and x[k] < 0.5 * w and cent[k][1] < 0.5 * h]
    if not inner:
        return None
    g = max(inner, key=lambda k: area[k])
    bottom = y[g] + bh[g]
    if y[g] > GLYPH_TOP * h or any(area[k] >= UNDER_AREA and x[k] > 0
                                   and y[k] >= bottom - 1 and y[k] + bh[k] < h
                                   for k in range(1, n)):
        return None
    return Glyph(float(y[g]) / h, float(bottom) / h, patch, lab == g,
                 (int(x[g]), int(y[g]), int(bw[g]), int(bh[g])))


def lone_sign(patch: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """The one blob of ink in a beside box: (its mask, box x, y, w, h), or None.

    Ink touching the box's left or top side is the card's edge, border or the table
    beyond: not looked at. The sign is the largest blob clear of every side; no
    other blob (clear, or running in from the right or bottom side: a picture, a
    pip, another card) may reach OTHER_INK of its area."""
    d = darkness(patch)
    mask = (d >= INK).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    clear = [k for k in range(1, n) if x[k] > 0 and y[k] > 0 and x[k] + bw[k] < w
             and y[k] + bh[k] < h]
    if not clear:
        return None
    k = max(clear, key=lambda j: area[j])
    big = int(area[k])
    others = [j for j in range(1, n) if j != k and x[j] > 0 and y[j] > 0]
    if big < MIN_AREA or any(area[j] > OTHER_INK * big for j in others):
        return None
    box = (int(x[k]), int(y[k]), int(bw[k]), int(bh[k]))
    if not ASPECT[0] <= box[3] / box[2] <= ASPECT[1] or float(d[lab == k].max()) < 0.8:
        return None
    return lab == k, box


def sign_suit(patch: np.ndarray, px_per_patch: float, colour_mass: dict[str, float],
              glyph: Glyph) -> str | None:
    """The suit the lone sign of a beside box (`beside_patch`) shows surely, or None.
    `px_per_patch`: image pixels per pixel of the box; `colour_mass`: the rank
    corner's suit-head mass on "red" and "black"; `glyph`: the rank's (`glyph_of`):
    the sign's middle must lie at its rows (BAND), its height be a glyph's (SIZE),
    its ink, when told, of the sign's colour.
    Black signs: the pip network past SIGN_BAR and the discriminant past
    BLACK_SHAPE on the same side."""
    found = lone_sign(patch)
    if found is None:
        return None
    mask, box = found
    top, bottom = glyph.top, glyph.bottom
    pad = BAND * (bottom - top)
    middle = (box[1] + 0.5 * box[3]) / patch.shape[0]
    size = box[3] / patch.shape[0] / max(bottom - top, 1e-6)
    if not (top - pad <= middle <= bottom + pad and SIZE[0] <= size <= SIZE[1]):
        return None
    colour = inkcolour.blob_colour(patch, mask, box)
    if colour is None:
        colour = max(colour_mass, key=lambda c: colour_mass[c])
        if colour_mass[colour] < NET_COLOUR:
            return None
    if colour_mass.get(colour, 0.0) < COLOUR_MASS:
        return None
    if glyph.colour() not in (None, colour):
        return None
    x, y, bw, bh = box
    soft = (darkness(patch) * mask)[y:y + bh, x:x + bw]
    red = colour == "red"
    side = pipsuit.sign_side(soft, red, bh * px_per_patch, None if red else BLACK_SHAPE)
    if side is None or red:
        return side
    net = load_pipnet()
    if net is None:
        return None
    z = float(net.log_odds(crop_pip(soft)[None])[0])
    shown = "C" if z >= SIGN_BAR else "S" if z <= -SIGN_BAR else None
    return side if shown == side else None


def read_split(image: np.ndarray, quad: Any, visible: Sequence[bool],
               patches: Sequence[np.ndarray], readings: Sequence[Reading],
               calib: Calibration) -> CardReading | None:
    """The card of an unread candidate whose one corner reads its rank surely and
    whose sign beside that rank shows its suit surely (see module), else None.

    `visible`: the candidate's index corners in view (`patches` and `readings` are
    theirs, in order). Every other corner in view must show no index, the same
    rank, or an unsure one (under `calib.disagree_prob`: the huge pip a split-index deck prints
    where a usual deck's second index stands)."""
    corners = [c for c, v in enumerate(visible) if v]
    if not len(corners) == len(readings) == len(patches):
        return None
    sure = [(c, p, r) for c, p, r in zip(corners, patches, readings) if r.rank is not None
            and r.rank_prob >= calib.min_prob and r.none_prob <= calib.max_none
            and r.probs is not None]
    if len(sure) != 1:
        return None
    c, patch, r = sure[0]
    if any(o.rank is not None and o.rank != r.rank and o.rank_prob >= calib.disagree_prob
           for o in readings):
        return None
    assert r.probs is not None
    s = r.probs[1]
    mass = {"red": float(sum(s[SUITS.index(x)] for x in inkcolour.RED_SUITS)),
            "black": float(sum(s[SUITS.index(x)] for x in SUITS
                               if x not in inkcolour.RED_SUITS))}
    q = normalize_quad(quad)
    height = 0.5 * float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))
    px = height * (INDEX_BOX[3] - INDEX_BOX[1]) / (PATCH_H * ZOOM)
    glyph = glyph_of(patch)
    if glyph is None:
        return None
    box = beside_patch(image, quad, c)
    suit = sign_suit(box, px, mass, glyph)
    if suit is None or float(s[SUITS.index(suit)]) < SUIT_FLOOR:
        return None
    return CardReading(f"{r.rank}{suit}", float(r.rank_prob), r.rank, suit)
