"""A second look at a whole still photo resized non-uniformly: the stills chain run
again on the photo unsqueezed, at the squeeze its read cards show (or, with none
to show one, at the two usual guesses), its cards added where none was read.

Why: a phone photo may reach us resized to another aspect (stored at 80% of its
width, say). Its cards then share one squeeze, and every step of the stills chain
that assumes card proportions (the detector's shape tests and corner guesses,
unions' end cards, strips' guesses, indexfind's card grown from its index, partial's
card grown from its part in view) works against it. The detector makes a second
look of its own (vision/detect/squeeze.py), but only the detector's, in a frame
shrunk to unsqueeze it: the stills steps after it still see the squeezed photo.
Once some cards are read, the outlines of those read with edges backing them (the
detector's, not cards grown from an index or a part) tell the photo's squeeze;
the photo is unsqueezed by it, every step runs again there, and the cards read
there are mapped back. With no such card (a lone card whose outline did not
read), the photo is looked at unsqueezed by each of GUESSES, and the look adding
the most cards is taken. A steep camera foreshortens the table as a squeeze does,
so photos as taken gain too.

The unsqueezed photo is made by enlarging its squeezed axis, not shrinking the
other: real photos are small (504 x 378) and an index a few dozen pixels, so no
detail may be thrown away. A card found there keeps the index patches cut there;
its corners are mapped back into the photo as it came (a homography cuts an
index the same from a squeezed card's corners).

Only added, never replacing a card read: the first look, made on the photo as it
came, keeps every card it read. A card of the second look lying on one of them
(NEW_IOU, or mostly inside it or holding it), or naming a card the first look read
elsewhere (one deck holds each card once: both would be unread), is not added.
A look naming another card where the first look read one (`agrees`: its squeeze
cuts indices askew) is not believed at all. An unread candidate of the first
look where a card is added gives way to it.

Real train photos (right of 527, before -> after; 0 wrong before and after):
1 x 1 503 -> 513, 0.8 x 1 484 -> 497, 1 x 0.8 494 -> 511, 0.75 x 1 456 -> 480
(its one wrong, IMG_2653's Q read K, before and after). Stills only: it costs
one more run of the stills chain on a photo whose read cards tell a squeeze past
LOOK_LOG, two on a photo with none read; the live pipeline makes no such look.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from vision.detect import geometry as g
from vision.detect import squeeze_estimate
from vision.types import CardSighting

Chain = Callable[[np.ndarray], list[Any]]
Read = Callable[[np.ndarray, list[Any]], list[CardSighting]]

#: A card of the second look overlapping a card the first look read by this IoU
#: or more is that card (or a piece of it, or a union with it): not added.
NEW_IOU = 0.3
#: ... nor when this share of it lies inside a card read, or of a card read
#: inside it.
INSIDE = 0.8


def told_squeeze(cands: Sequence[Any], sightings: Sequence[CardSighting]) -> float | None:
    """The photo's squeeze (height scale over width scale, squeeze_estimate.frame_squeeze)
    as the cards read with edges backing their outline (TELLING_SUPPORT) show it,
    or None when there are none. Cards grown from an index or a part have no edge
    support (score 0): they are cut at card proportions and would tell none."""
    read = [c for c, s in zip(cands, sightings) if s.card is not None]
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in read]
    squeeze, told = squeeze_estimate.told_squeeze(
        quads, [getattr(c, "score", 0.0) for c in read])
    return squeeze if told else None


def enlarge_factors(squeeze: float) -> tuple[float, float]:
    """(fx, fy) undoing `squeeze` by enlarging the squeezed axis."""
    return (squeeze, 1.0) if squeeze >= 1.0 else (1.0, 1.0 / squeeze)


#: A squeeze told this far from 1 (in log) is looked at. The detector's band
#: (squeeze.SQUEEZE_BAND, 0.88-1.14) was too wide here: a photo at 0.8 x 1 may
#: tell 1.11 (IMG_2616), and a steep camera's foreshortening, looked at, gains
#: cards too (real train as taken 503 -> 513). The one value measured; the band
#: gave 0.8 x 1 487 (with no guessed looks).
LOOK_LOG = math.log(1.06)
#: Squeezes looked at when no card of the first look is read with edges backing
#: its outline, so none tells the photo's squeeze: stored at 80% of its height, of
#: its width (as squeeze.GUESSES).
GUESSES = (0.8, 1.25)


def second_look(image: np.ndarray, cands: list[Any], chain: Chain, read: Read
                ) -> list[Any]:
    """`cands` (the stills chain's candidates of `image`), with the cards read on
    `image` unsqueezed added (see module). `chain(image)` gives a photo's
    candidates, `read(image, cands)` their sightings. A photo with no candidate
    gets no look (an empty table: no real train photo is one)."""
    if not cands:
        return cands
    first = read(image, cands)
    k = told_squeeze(cands, first)
    if k is not None:
        if abs(math.log(k)) < LOOK_LOG:
            return cands
        looks = [_look(image, k, chain, read)]
    else:
        looks = [_look(image, guess, chain, read) for guess in GUESSES]
    best, most = cands, 0
    for found in looks:
        if agrees(cands, first, found):
            merged, added = merge(cands, first, found)
            if added > most:
                best, most = merged, added
    return best


def agrees(cands: list[Any], first: Sequence[CardSighting], found: list[tuple[Any, str]]
           ) -> bool:
    """Does every card `found` lying on a card the first look read (_on) name
    that card? A look at a wrong squeeze cuts indices askew; where it names
    another card than the first look did, it is not believed anywhere."""
    read = [(np.asarray(c.corners, np.float32), s.card) for c, s in zip(cands, first) if s.card]
    return all(card == named for c, card in found for q, named in read
               if _on(np.asarray(c.corners, np.float32), q))


def _look(image: np.ndarray, k: float, chain: Chain, read: Read) -> list[tuple[Any, str]]:
    """The cards read on `image` unsqueezed by `k`: their candidates, mapped back
    into `image`, each with its card."""
    fx, fy = enlarge_factors(k)
    h, w = image.shape[:2]
    big = cv2.resize(image, (round(w * fx), round(h * fy)), interpolation=cv2.INTER_LINEAR)
    sx, sy = w / big.shape[1], h / big.shape[0]
    seen = chain(big)
    return [(replace(c, corners=tuple((float(x) * sx, float(y) * sy) for x, y in c.corners)),
             s.card) for c, s in zip(seen, read(big, seen)) if s.card is not None]


def merge(cands: list[Any], first: Sequence[CardSighting], found: list[tuple[Any, str]]
          ) -> tuple[list[Any], int]:
    """`cands` with the cards `found` (and read) by the second look added where the
    first look (`first`: its sightings) read none, and its unread candidates
    lying where one is added left out (see module); and how many were added."""
    read_quads = [np.asarray(c.corners, np.float32) for c, s in zip(cands, first) if s.card]
    read_cards = {s.card for s in first if s.card}
    added: list[Any] = []
    for c, card in found:
        q = np.asarray(c.corners, np.float32)
        taken = read_quads + [np.asarray(a.corners, np.float32) for a in added]
        if card in read_cards or any(_on(q, r) for r in taken):
            continue
        added.append(c)
        read_cards.add(card)
    if not added:
        return cands, 0
    quads = [np.asarray(a.corners, np.float32) for a in added]
    kept = [c for c, s in zip(cands, first)
            if s.card is not None or not any(_on(np.asarray(c.corners, np.float32), q)
                                             for q in quads)]
    return kept + added, len(added)


def _on(a: np.ndarray, b: np.ndarray) -> bool:
    """Do quads `a` and `b` lie on each other: IoU NEW_IOU, or INSIDE of either
    within the other?"""
    inter = g.intersection_area(a, b)
    if inter <= 0:
        return False
    area_a, area_b = max(g.quad_area(a), 1.0), max(g.quad_area(b), 1.0)
    return (inter / (area_a + area_b - inter) >= NEW_IOU
            or inter >= INSIDE * min(area_a, area_b))
