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

Why a witness beside the corners, not alone: on the training decks (seeds 7, 8,
30, 31) the sign is sometimes confidently wrong (anglo_modern's JS, tigullio's KS
as clubs at 4.8-10.8, gnomangelo's 5C as a spade at 9.5; 10 of 346 signs past 3)
where the corners name the right suit at 0.998+. So the corners' own pooled
probability of the sign's suit must reach SUIT_FLOOR: the two witnesses must
agree, and their failures seen run apart (the corner network's club -> spade on
unseen decks, the sign's on decks whose sign the blob finder cuts badly).

Rule (`read_by_sign`, for a card the reader's other steps left unread): the
corners name one rank past the reader's bars with "not an index" under
`max_none` and are surely black (decksuits.sure_pair, COLOUR_BAR); every corner
naming that rank whose sign stands alone on paper (decksuits.sign_blob) is scored
(pipnet.crop_pip, PipNet.log_odds, both ways up); at least one is, all past
SIGN_BAR on one side; the corners' pooled probability of that suit reaches
SUIT_FLOOR. The card is given with that suit. The reader's vetoes (pips, ink, one
corner, one of each) still apply.

Figures: see vision/recognize/README.md ("A black suit told by the index sign").
"""

from __future__ import annotations

#: Is `read_by_sign` asked at all (reader.read_candidates)? Off: on a calibration
#: seed none of its bars were chosen on (38, 300 scenes, stills chain) it gave one
#: wrong card (gnome/plastic's 4S as 4C, scene 152) against 0 without it, and a
#: fresh held-out seed went from 0 to 2 wrong with it among session 14's steps.
#: `refutes`, which only takes cards away, stays on.
GIVE_BY_SIGN = False

from collections.abc import Sequence

import numpy as np

from vision.recognize.decksuits import sign_blob, sure_pair
from vision.recognize.pipnet import crop_pip, load_pipnet
from vision.recognize.readings import Calibration, CardReading, Reading, joint_prob
from vision.types import SUITS

#: Club-minus-spade log-odds each scored sign must pass, on one side (calibration
#: decks, true quads, seeds 5, 30-35: worst wrong-side sign 2.78, so 3; the
#: per-card sweep gave 0 wrong at 2, 3 and 4 there, gains 122 / 114 / 107 of 202
#: cards missed at floor 0.1).
SIGN_BAR = 3.0
#: The corners' pooled probability of the sign's suit must reach this: with no
#: floor the sign alone would have given 7 training-deck cards wrong (their
#: corners at <= 0.03 for the sign's suit); 0.3 leaves calibration gains at
#: 98 of 122 (floor 0.05), 0 wrong on training and calibration decks at any floor
#: from 0.05.
SUIT_FLOOR = 0.3


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


def read_by_sign(verdict: CardReading | None, patches: Sequence[np.ndarray],
                 readings: Sequence[Reading], calib: Calibration) -> CardReading | None:
    """The card, when its index signs and its corners settle an unread black card's
    suit (see module); None otherwise. `patches`/`readings`: its visible corners."""
    if verdict is None or verdict.card is not None:
        return None
    rank = sure_rank(readings, calib)
    if rank is None:
        return None
    pair = sure_pair(CardReading(None, 0.0, rank, None), readings, calib)
    if pair is None:
        return None
    mine = [(p, r) for p, r in zip(patches, readings) if r.rank == rank]
    suit = sign_suit([p for p, _ in mine])
    if suit is None or suit not in pair:
        return None
    k = SUITS.index(suit)
    suit_p = joint_prob([float(r.probs[1][k]) for _, r in mine if r.probs is not None])
    if suit_p < SUIT_FLOOR:
        return None
    rank_p = joint_prob([r.rank_prob for _, r in mine])
    return CardReading(f"{rank}{suit}", min(rank_p, suit_p), rank, suit)


def sure_rank(readings: Sequence[Reading], calib: Calibration) -> str | None:
    """The rank every corner naming an index names, past the first look's rank bar
    (pooled: the pair bar), or None. Why not the verdict's rank: corners naming
    one rank but different black suits (gnome/plastic's AC read "AS 0.66" at one
    corner, "AC 0.69" at the other) leave the verdict without a rank at all."""
    votes = [r for r in readings if r.rank is not None]
    if not votes or len({r.rank for r in votes}) != 1:
        return None
    rank_p = joint_prob([r.rank_prob for r in votes])
    return votes[0].rank if rank_p >= (
        calib.min_prob_pair if len(votes) >= 2 else calib.min_prob) else None


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
