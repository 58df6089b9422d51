"""The witnesses `read_candidates` asks about a frame's cards besides the network.

Two kinds, run in reader.read_candidates' order:

- **givers**, for a card the network left unread: the pips of a whole number card
  counting the rank its corners name (pipcheck.py), a rank whose suit sign is
  printed beside it (splitindex.py), the suit its index signs show at many cuts
  (signcuts.py, opt-in);
- **refusers**, for a card read: pips counting another rank (pipcheck.py), index
  signs of the other black suit (signsuit.py, and at ten moved cuts signveto.py),
  index ink of the other colour (inkcolour.py), a corner on a back's printed lattice
  (backpattern.py), an outline round two cards read at one corner (onecorner.py).

They live apart from the reader so that each step reads as one call there, and all
share one `FrameReads`: the frame's candidates, their corner cuts, the network's first
readings and the verdicts so far, which the steps update in place. A card one witness
gave is not asked again by the witness of the same kind (`by_pips`: its pips already
told its rank and suit), and a near-square card read from its other diagonal
(`moved`) is asked only about what its turned corners show (`shown`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vision.recognize import (
    backpattern,
    inkcolour,
    onecorner,
    pipcheck,
    signcuts,
    signsuit,
    signveto,
    splitindex,
)
from vision.recognize.classifier import CardReading

#: The reading of a card a witness spoke against: no card.
UNREAD = CardReading(None, 0.0, None, None)


def corners_of(cand: Any) -> tuple[tuple[float, float], ...]:
    """A candidate's corners as float pairs."""
    return tuple((float(x), float(y)) for x, y in np.asarray(cand.corners).reshape(4, 2))


@dataclass
class FrameReads:
    """One frame's candidates and what has been read of them so far.

    `cuts[i]`/`firsts[i]`: candidate i's visible corner patches and the network's
    readings of them; `verdicts[i]`: its card so far (None: nothing to read);
    `moved[i]`: the other diagonal's quad, for a near-square card read from it;
    `shown[i]`: the patches and readings of those turned corners; `by_pips`: cards
    their pips gave.
    """

    image: np.ndarray
    cands: Sequence[Any]
    cuts: list[list[np.ndarray]]
    firsts: list[list[Any]]
    verdicts: list[CardReading | None]
    calibration: Any
    moved: dict[int, np.ndarray] = field(default_factory=dict)
    shown: dict[int, tuple[list[np.ndarray], list[Any]]] = field(default_factory=dict)
    by_pips: set[int] = field(default_factory=set)

    def quad(self, i: int) -> np.ndarray:
        return np.asarray(corners_of(self.cands[i]), np.float32)

    def visible(self, i: int) -> tuple[bool, ...]:
        return tuple(getattr(self.cands[i], "index_visible", (True, True)))

    def face_down(self, i: int) -> bool:
        return bool(getattr(self.cands[i], "face_down", False))

    def unread(self, i: int, *, backs: bool = False) -> bool:
        """Is candidate i read as no card, on its own quad (face up unless `backs`)?"""
        v = self.verdicts[i]
        return (v is not None and v.card is None and i not in self.moved
                and (backs or not self.face_down(i)))

    def given(self, i: int) -> bool:
        """Is candidate i read as a card?"""
        v = self.verdicts[i]
        return v is not None and v.card is not None

    def what_shows(self, i: int) -> tuple[list[np.ndarray], list[Any]]:
        """The corner patches and readings that named candidate i's card."""
        return self.shown.get(i, (self.cuts[i], self.firsts[i]))


# -- givers ---------------------------------------------------------------------------

def give_by_pips(fr: FrameReads) -> None:
    """Number cards the network left unread (backs included: a detector's back may be
    a face): given when their pips count the rank their corners name (pipcheck.py)."""
    for i in range(len(fr.cands)):
        if fr.unread(i, backs=True):
            given = pipcheck.read_by_pips(fr.image, fr.cands[i], fr.firsts[i], fr.calibration)
            if given is not None and given.card is not None:
                fr.verdicts[i] = given
                fr.by_pips.add(i)


def give_split(fr: FrameReads) -> None:
    """A rank read surely, its suit sign printed beside it, not under it (splitindex.py)."""
    for i in range(len(fr.cands)):
        if fr.unread(i):
            split = splitindex.read_split(fr.image, corners_of(fr.cands[i]), fr.visible(i),
                                          fr.cuts[i], fr.firsts[i], fr.calibration)
            if split is not None:
                fr.verdicts[i] = split


def give_by_cut_signs(fr: FrameReads) -> None:
    """An unread black card whose rank and colour are sure: the suit its index signs
    show at many cuts of its corners (signcuts.py)."""
    for i in range(len(fr.cands)):
        if fr.unread(i):
            given = signcuts.read_by_cut_signs(fr.image, fr.quad(i), fr.visible(i),
                                               fr.verdicts[i], fr.cuts[i], fr.firsts[i],
                                               fr.calibration)
            if given is not None:
                fr.verdicts[i] = given


# -- refusers -------------------------------------------------------------------------

def refuse(fr: FrameReads, *, enrolled: bool, sign_veto: bool, lattice: bool,
           ink_certain: float | None) -> set[int]:
    """Unread every card a witness on it speaks against; the indices of those cards.

    Each witness is asked only about cards still given, in this order: pips counting
    another rank (not for an enrolled deck), the index signs of the other black suit
    (signsuit.py; and at ten moved cuts, signveto.py, when `sign_veto`), index ink of
    the other colour (`ink_certain`: see inkcolour.speaks_against), a corner on a
    back's lattice (when `lattice`).
    """
    spoken: set[int] = set()

    def against(i: int) -> None:
        fr.verdicts[i] = UNREAD
        spoken.add(i)

    own = [i for i in range(len(fr.cands)) if i not in fr.moved and i not in fr.by_pips]
    if not enrolled:  # a whole number card whose pips count another rank
        for i in own:
            if fr.given(i) and pipcheck.pips_contradict(fr.image, fr.cands[i],
                                                        fr.verdicts[i], fr.firsts[i]):
                against(i)
    for i in own:  # a black card whose index signs show the other suit
        if fr.given(i) and signsuit.refutes(fr.verdicts[i], fr.cuts[i], fr.firsts[i]):
            against(i)
    if sign_veto and not enrolled:  # ... at ten moved cuts
        for i in signveto.refused(fr.image, fr.cands, fr.verdicts, fr.firsts,
                                  set(fr.moved) | fr.by_pips):
            against(i)
    for i in range(len(fr.cands)):  # ink of the other colour than the card's suit
        if fr.given(i) and inkcolour.speaks_against(fr.verdicts[i], *fr.what_shows(i),
                                                    certain=ink_certain):
            against(i)
    if lattice:  # a corner naming it lies on a back's printed lattice
        for i in range(len(fr.cands)):
            if fr.given(i) and backpattern.reads_a_back(fr.verdicts[i], *fr.what_shows(i)):
                against(i)
    return spoken


def drop_two_in_one(fr: FrameReads, shape: tuple[int, ...]) -> None:
    """Unread a card read at one corner of an outline shorter than a card, seen whole:
    an outline round two cards (onecorner.py)."""
    for i in range(len(fr.cands)):
        if (fr.given(i) and i not in fr.moved and i not in fr.by_pips
                and onecorner.two_cards_in_one(fr.cands, i, fr.verdicts[i], fr.firsts[i],
                                               shape)):
            fr.verdicts[i] = UNREAD
