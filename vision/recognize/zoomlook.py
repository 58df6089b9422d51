"""A closer look at the index of a card every earlier step left unread: each visible
corner cut again from a box shrunk towards the card's corner, so the index fills more
of the patch (a step of reader.read_candidates, stills only).

Why: some decks print a tiny index (the calibration deck gnome/simplistic's courts:
a J, Q or K a third the height of the usual box's glyph, next to a huge letter in
the card's middle). In the usual 32x64 cut the network is unsure of such a rank
(QH at 0.53-0.85 a corner), and the second look, which only rescales the cut by
3%, does not change that. Cut from a box 0.85 times as large, anchored at the
card's corner, the glyph is larger in the patch and the network reads it surely
(0.89-0.99), by the first look's own calibrated bars.

The rule: every visible corner's zoomed cut and its usual cut must name one and the
same card (so a zoomed cut that shows another glyph, or half of one, gives
nothing), and the zoomed cuts, combined as the first look combines its corners
(`readings.combine`: pair pooling, per-suit bars, `max_none`, disagreeing
corners), must pass the FIRST look's bars. No new bar is chosen.

Measured on true quads of the calibration decks (seeds 5, 30-35, 3,007 cards, 184
left unread by the chain): ZOOM 0.85 gave 5 cards, 0 wrong (three simplistic QH,
two plastic clubs); 0.75 gave 1 and one wrong (a lone-corner 2S read 2D);
requiring both 0.85 and 0.75 gave 1; at the second look's lower bars (0.9 lone,
0.99 pooled) 0.85 gave 15 and 2 wrong (plastic spades read as diamonds). Every
veto after it in read_candidates (pips, signs, ink, lattice, one corner) still
applies.

Stills only: it costs one more network call a frame (two patches a card asked),
which the live Pipeline's frame budget does not pay for a few cards in a thousand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from vision.recognize.patch import extract_index_patches, normalize_quad
from vision.recognize.readings import Calibration, CardReading, Reading, combine

#: The zoomed box's size relative to the usual one (INDEX_BOX), anchored at the
#: card's corner. Chosen on calibration decks' true quads (module docstring): 0.85
#: gave 5 right 0 wrong, 0.75 one right one wrong.
ZOOM = 0.85


def zoomed_patches(image: np.ndarray, quad: Any, visible: Sequence[bool],
                   zoom: float = ZOOM) -> list[np.ndarray]:
    """The visible index corners (top-left, bottom-right, as `visible` says) cut
    from the card quad shrunk by `zoom` towards each corner: the same patch size,
    the index larger in it."""
    q = normalize_quad(quad)
    top = extract_index_patches(image, q[0] + zoom * (q - q[0]))[0]
    bottom = extract_index_patches(image, q[2] + zoom * (q - q[2]))[1]
    return [p for p, v in zip((top, bottom), visible) if v]


def worth_zooming(firsts: Sequence[Reading], calib: Calibration) -> bool:
    """Whether the usual cuts agree on a card (only its probability fell short):
    the zoomed look can then only confirm it, never name another."""
    free = replace(calib, min_prob=0.0, min_prob_pair=0.0, suit_min_prob=(),
                   suit_min_prob_pair=(), second_look=None)
    return bool(firsts) and all(r.rank is not None for r in firsts) \
        and combine(list(firsts), free).card is not None


def judge(firsts: Sequence[Reading], zoomed: Sequence[Reading], calib: Calibration
          ) -> CardReading | None:
    """The card the zoomed cuts `zoomed` give, by the first look's bars, when each
    names the card its usual cut (`firsts`, same corners in order) names; else None."""
    if not zoomed or len(zoomed) != len(firsts):
        return None
    if any(z.rank is None or (z.rank, z.suit) != (f.rank, f.suit)
           for z, f in zip(zoomed, firsts)):
        return None
    verdict = combine(list(zoomed), replace(calib, second_look=None))
    return verdict if verdict.card is not None else None


def read_zoomed(clf: Any, image: np.ndarray,
                cards: Sequence[tuple[Any, Sequence[bool], Sequence[Reading]]]
                ) -> list[CardReading | None]:
    """`judge` for several cards of one image, (quad, visible, first readings) each,
    in one network call; None for a card not worth zooming (`worth_zooming`) or
    not given."""
    calib: Calibration = clf.calibration
    asked = [k for k, (_, _, firsts) in enumerate(cards) if worth_zooming(firsts, calib)]
    cuts = [zoomed_patches(image, cards[k][0], cards[k][1]) for k in asked]
    out: list[CardReading | None] = [None] * len(cards)
    flat = [p for ps in cuts for p in ps]
    if not flat:
        return out
    readings = clf.classify(flat)
    start = 0
    for k, ps in zip(asked, cuts):
        mine = readings[start:start + len(ps)]
        start += len(ps)
        out[k] = judge(cards[k][2], mine, calib)
    return out
