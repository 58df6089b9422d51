"""A black card refused when its index signs, cut again at ten moved quads, keep
its suit at too few cuts (stills only).

Why: on decks it never saw the corner network reads some clubs as spades (and a few
spades as clubs) at 0.999: the calibration deck gnome/plastic's 8C, KC, JC, 4C
read as spades on calibration seeds 38 and 40, stills chain. signsuit.refutes, the
single-cut veto, does not ask a card whose corner names its suit at CERTAIN
(0.99): the sign of one cut is confidently wrong on some training decks whose
corners are right (anglo_modern's JS as a club at 10.8). A sign that names the
other suit at one cut may be that crop's accident; an index's own sign names its
suit at every crop. So the question asked here is the other way round: at how
many of ten moved cuts of its quad (signcuts.cut_quads) does each corner naming
the card's rank show a sign past signsuit.SIGN_BAR on the card's own side
(`kept_at_cuts`)? A right card's sign keeps its suit at most cuts; a club read as
a spade whose sign is a club's keeps the spade at none.

Rule (`refuses`): a black card given, read from its own quad's corners (not a
turned quad, not a card whose pips told it), is not given when every corner naming its rank keeps the card's suit
at <= MAX_KEPT of the ten cuts AND shows the other suit at many of them
(MIN_AGAINST_LONE for a lone corner, MIN_AGAINST_EACH each for two). The second half is what spares a right card whose sign is hard to find
(no clean sign: neither side is counted).

Figures: vision/recognize/README.md ("A cut-based veto on black cards").
Cost: ten index cuts and up to 2 x 10 pip-network calls per black card given;
the live Pipeline does not run it (`reader.read_candidates(..., sign_veto=False)`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.recognize import signsuit
from vision.recognize.readings import CardReading, Reading
from vision.recognize.signcuts import odds_at_cuts

#: The sweep (scripts/sweep_veto.py, true quads, signcuts off): every black card
#: given, calibration decks seeds 5, 30-36 (1,305 cards, 1 wrong) and 38, 40 (300
#: scenes each, 1,632, 1 wrong), training decks seeds 7, 8, 30-33 (1,215, 0 wrong).
#: Cards whose every corner keeps its suit at <= 2 cuts, by the other suit's count:
#:   wrong: plastic's 10C read 10S (cal 30 scene 9, one corner): against 10 of 10;
#:          plastic's QC read QS (cal 38 scene 200, two corners): 7 of 7 and 8 of 8.
#:   right, most against: a KS (train 33 scene 43, one corner) 7 of 7; a 4S (train
#:          8 scene 5) 7 and 5; a KS (train 32 scene 48) 6 of 9; a 9S (cal 30
#:          scene 15) 5 of 5; all other right cards <= 4 at every corner.
#: Hence: a corner keeping its suit at more than MAX_KEPT cuts speaks for the card;
#: a lone corner must show the other suit at >= MIN_AGAINST_LONE of its ten cuts
#: (the right lone KS shows it at 7), two corners each at >= MIN_AGAINST_EACH (two
#: corners agreeing are the stronger witness; the right 4S has one at 5). Refused:
#: both wrong cards, no right card.
MAX_KEPT = 2
MIN_AGAINST_LONE = 9
MIN_AGAINST_EACH = 7


@dataclass(frozen=True, slots=True)
class CutVotes:
    """One corner's signs at the moved cuts: how many lie past SIGN_BAR on the
    card's side (`kept`), on the other side (`against`), and how many cuts found a
    clean sign at all (`scored`)."""

    kept: int
    against: int
    scored: int


def votes(odds: Sequence[float], suit: str) -> CutVotes:
    """A corner's CutVotes from its club-minus-spade log-odds at the cuts."""
    bar = signsuit.SIGN_BAR
    clubs = sum(z >= bar for z in odds)
    spades = sum(z <= -bar for z in odds)
    return CutVotes(*((clubs, spades) if suit == "C" else (spades, clubs)), len(odds))


def kept_at_cuts(image: np.ndarray, quad: np.ndarray, visible: Sequence[bool],
                 card: CardReading, readings: Sequence[Reading]) -> list[CutVotes]:
    """Per visible corner naming the card's rank, its CutVotes (`readings`: the
    visible corners', in `visible`'s order)."""
    keep = [r.rank == card.rank for r in readings]
    return [votes(zs, str(card.suit)) for zs in odds_at_cuts(image, quad, visible, keep)]


def refuses(corners: Sequence[CutVotes]) -> bool:
    """Does every corner keep the suit at <= MAX_KEPT cuts and show the other at
    >= MIN_AGAINST_LONE cuts (a lone corner) or MIN_AGAINST_EACH (two corners)?
    No corner: no."""
    bar = MIN_AGAINST_LONE if len(corners) == 1 else MIN_AGAINST_EACH
    return bool(corners) and all(c.kept <= MAX_KEPT and c.against >= bar
                                 for c in corners)


def asked(card: CardReading | None, cand: Any, readings: Sequence[Reading]) -> bool:
    """Is a card given of this candidate one the veto asks about: black, face up,
    every visible corner read (the readings are the quad's visible corners)?"""
    if card is None or card.card is None or card.suit not in ("C", "S"):
        return False
    if getattr(cand, "face_down", False):
        return False
    visible = tuple(getattr(cand, "index_visible", (True, True)))
    return len(readings) == sum(bool(v) for v in visible) and any(
        r.rank == card.rank for r in readings)


def refused(image: np.ndarray, cands: Sequence[Any],
            verdicts: Sequence[CardReading | None], firsts: Sequence[Sequence[Reading]],
            skip: set[int]) -> set[int]:
    """The indices of the candidates whose black card the veto refuses (`skip`:
    candidates read from a turned quad or by their pips)."""
    out = set()
    for i, (cand, v, rs) in enumerate(zip(cands, verdicts, firsts)):
        if i in skip or v is None or not asked(v, cand, rs):
            continue
        quad = np.asarray(cand.corners, np.float32).reshape(4, 2)
        visible = tuple(getattr(cand, "index_visible", (True, True)))
        if refuses(kept_at_cuts(image, quad, visible, v, rs)):
            out.add(i)
    return out
