"""A card warped upright to a small canonical size, its paper level and its ink.

Why a module of its own: the pip counter (pips.py) and the ace's pip witness
(acepip.py) both judge a card's middle on this one canonical warp, so both read
the same pixels at the same size; pipclean.py and pipsuit.py take the cards it
gives (UprightCard). Counting and judging pips is pips.py's; the warp and what is
ink against the paper round it are here.

How: the card is warped upright to CANON_W x CANON_H (a large card at an integer
multiple first, then averaged down); the paper level round each pixel is a grey
closing of its darkest channel at a quarter of that size, so uneven light and
washed-out exposures do not matter; ink is what lies well below that level.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Canonical upright card size in pixels (width, height): 63 x 88 mm at ~1.6 px/mm.
#: Big enough that the ten pips of a 10 stay apart, small enough to cost little.
CANON_W, CANON_H = 100, 140

#: Inset of the field from the card's edges (fraction of width / height): clear of
#: the card's outline stroke and rounded corners.
EDGE_X, EDGE_Y = 0.04, 0.03

#: A pixel is ink when its darkest channel is below this share of the paper level.
INK_RATIO = 0.62


@dataclass(frozen=True, slots=True)
class UprightCard:
    """The card warped upright: `bgr` (uint8), `dark` its darkest channel and
    `paper` the paper level round each pixel (both float32, paper >= 1)."""

    bgr: np.ndarray
    dark: np.ndarray
    paper: np.ndarray


_CANON = np.array([[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], dtype=np.float32)

#: The paper level is found at a quarter of the canonical size, by a grey closing
#: of 8 pixels there (32 canonical pixels: wider than any pip, so pips vanish).
_COARSE = 4
_CLOSE = cv2.getStructuringElement(cv2.MORPH_RECT, (8, 8))


def look_upright(image: np.ndarray, q: np.ndarray, min_paper: float = 90.0) -> UprightCard | None:
    """Warp the card upright and find its paper level; None when it shows no light
    paper (a back, a dark object, deep shadow): the median paper level of its
    darkest channel under `min_paper`.

    Why a closing: shading and glare gradients across the card (and a washed-out
    exposure) move paper and ink together, so ink is judged against the paper
    right round it, not against one level for the whole card."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    bgr = _warp(image, q)
    b, g, r = cv2.split(bgr)
    dark8 = cv2.min(cv2.min(b, g), r)
    small = cv2.resize(dark8, (CANON_W // _COARSE, CANON_H // _COARSE),
                       interpolation=cv2.INTER_AREA)
    small = cv2.morphologyEx(small, cv2.MORPH_CLOSE, _CLOSE, borderType=cv2.BORDER_REPLICATE)
    small = cv2.blur(small, (3, 3))
    if _median(small) < min_paper:
        return None
    paper = cv2.resize(small, (CANON_W, CANON_H), interpolation=cv2.INTER_LINEAR)
    return UprightCard(bgr, dark8.astype(np.float32), np.maximum(paper.astype(np.float32), 1.0))


def _median(a: np.ndarray) -> float:
    """float(np.median(a)) by one partition (np.median's own checks and mean of the
    middle element cost more than the partition on the 875 coarse pixels)."""
    flat = a.ravel()
    n = flat.size
    if n % 2:
        return float(np.partition(flat, n // 2)[n // 2])
    part = np.partition(flat, [n // 2 - 1, n // 2])
    return (float(part[n // 2 - 1]) + float(part[n // 2])) / 2.0


def _warp(image: np.ndarray, q: np.ndarray) -> np.ndarray:
    """The card warped upright to CANON_W x CANON_H (BGR). A card much larger in the
    image is warped at an integer multiple first and shrunk by averaging, so thin
    strokes and pip edges are averaged rather than aliased."""
    scale = float(np.sqrt(((q[1] - q[0]) ** 2).sum())) / CANON_W
    k = int(min(4, np.ceil(scale / 1.5))) if scale > 1.5 else 1
    h = cv2.getPerspectiveTransform(q.astype(np.float32), _CANON * k)
    out = cv2.warpPerspective(image, h, (CANON_W * k, CANON_H * k), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    if k > 1:
        out = cv2.resize(out, (CANON_W, CANON_H), interpolation=cv2.INTER_AREA)
    return out


def ink_mask(card: UprightCard) -> np.ndarray:
    """The field's ink mask (uint8 0/1): much darker than the paper round it."""
    ink = (card.dark < INK_RATIO * card.paper).astype(np.uint8)
    x0, y0 = int(EDGE_X * CANON_W), int(EDGE_Y * CANON_H)
    field = np.zeros_like(ink)
    field[y0:CANON_H - y0, x0:CANON_W - x0] = ink[y0:CANON_H - y0, x0:CANON_W - x0]
    return field
