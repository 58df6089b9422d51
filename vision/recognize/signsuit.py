"""A black suit told by the card's own index sign, scored by the pip network.

Why: on a deck it never saw, the corner network often reads a card's rank and
colour surely but not spade against club (the calibration deck gnome/plastic's
clubs read as spades; a lone corner of a covered card has no second corner to pool
with, and the spade bars are steep for that reason). decksuits.py tells such a suit
from the frame's sure cards of the same deck, but only where the frame shows sure
clubs AND spades. The index itself prints the suit sign under the rank glyph, and
the pip network (pipnet.py), trained on many decks' pips and random sign shapes
under blur, tells a club's shape from a spade's at the sign's own size: measured
on the calibration decks (true quads, seeds 5, 30-35: 2,019 black-card corners
with a sign found), no sign past SIGN_BAR on the wrong side (worst 2.78).

Why only against a card: on the training decks (seeds 7, 8, 30, 31) the sign is
sometimes confidently wrong (anglo_modern's JS, tigullio's KS as clubs at
4.8-10.8, gnomangelo's 5C as a spade at 9.5; 10 of 346 signs past 3) where the
corners name the right suit at 0.998+. A step that GAVE unread black cards their
sign's suit (session 14's `read_by_sign`, with a floor of 0.3 on the corners'
own probability of that suit) gave wrong cards on sets none of its bars were
chosen on: calibration seed 38 (300 scenes, stills chain) plastic's 4S as 4C, and
a held-out seed 0 -> 2 wrong; it was switched off, then deleted (session 15: a
wrong card is worse than a missed one, and its gain was ~+11 cards in 2,839).

Rule (`refutes`, a veto): a black card given whose index signs (each corner
naming its rank whose sign stands alone on paper, decksuits.sign_blob, scored by
pipnet.crop_pip and PipNet.log_odds, both ways up) all show the other black suit
past SIGN_BAR, no corner naming its rank at CERTAIN for its suit, is not given.

Figures: see vision/recognize/README.md ("A black suit told by the index sign").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.recognize.decksuits import sign_blob
from vision.recognize.pipnet import crop_pip, load_pipnet
from vision.recognize.readings import CardReading, Reading

#: Club-minus-spade log-odds each scored sign must pass, on one side (calibration
#: decks, true quads, seeds 5, 30-35: worst wrong-side sign 2.78 of 2,019, so 3).
SIGN_BAR = 3.0


def sign_odds(patch: np.ndarray) -> float | None:
    """Club-minus-spade log-odds of the index sign of one upright corner patch, or
    None: no clean sign (decksuits.sign_blob) or no pip network."""
    net = load_pipnet()
    found = sign_blob(patch)
    if net is None or found is None:
        return None
    return float(net.log_odds(crop_pip(found[0])[None])[0])


def sign_suit(patches: Sequence[np.ndarray]) -> str | None:
    """"C" or "S" when at least one patch's sign is scored and all scored ones lie
    past SIGN_BAR on that side; None otherwise."""
    zs = [z for z in (sign_odds(p) for p in patches) if z is not None]
    if not zs:
        return None
    if min(zs) >= SIGN_BAR:
        return "C"
    if max(zs) <= -SIGN_BAR:
        return "S"
    return None


#: A card whose every corner naming its rank gives its suit at least this is not
#: asked about (`refutes`): the sign is confidently wrong on some training decks
#: (anglo_modern's JS as a club at 10.8) whose corners are sure (0.9976-1.0), while
#: the corners of the wrong cards the sign refutes on the calibration decks (true
#: quads, seeds 5, 30-35: gnome/plastic's KC, QC, QC, KC read as spades) gave the
#: spade 0.907-0.989. The least right card refuted on training decks seeds 7, 8,
#: 30-32 had a corner at 0.9938 (lattmann's AC, its other corner 0.971).
CERTAIN = 0.99


def refutes(card: CardReading, patches: Sequence[np.ndarray],
            readings: Sequence[Reading]) -> bool:
    """Do the index signs of a black card given (`card`) show the other black suit
    past SIGN_BAR, its corners naming its rank all under CERTAIN for its suit? It
    only takes cards away (reader.read_candidates' vetoes)."""
    if card.card is None or card.suit not in ("C", "S"):
        return False
    mine = [(p, r) for p, r in zip(patches, readings) if r.rank == card.rank]
    if not mine or any(r.suit == card.suit and r.suit_prob >= CERTAIN for _, r in mine):
        return False
    shown = sign_suit([p for p, _ in mine])
    return shown is not None and shown != card.suit
