"""A game's sure suit signs, kept over its frames for vision.recognize.decksuits.

Why: decksuits tells an unsure black suit by comparing the card's index suit sign
with sure spades' and clubs' signs of the same deck. One frame often has sure cards
of one black suit only (of 16 unread black cards on held-out scenes, 7 had no sure
examples of both suits in their frame), but the referee watches ONE deck all game:
what earlier frames showed surely stands in for what this frame lacks.

Bounded and ageing (`GameSigns`): per suit and rank kind (index letters A J Q K,
digits 2-10: the sign may sit otherwise beside a letter than beside a digit) the
newest `per_kind` cards are kept, each card with the signs of one sighting (a card
held is not cut again, so a game costs a descriptor per card it shows, not per
frame), for at most `max_age` frames read: then it is cut again when next seen
sure. A bad example (a card read surely but wrongly) ages out as newer cards of its
suit and kind come, or with age (a suit has only four letter cards: newer ones
alone would never push a wrong "QS" out); until then the rules of decksuits keep it
from deciding (see there: an odd example can only block; a card is never told by
signs kept under its own rank, which might be its own wrong sighting).

Only a card the caller finally reported is kept (`add(..., reported=...)`): the
frame's rules after decksuits (the pips' veto, one card of each) may unread one.
Plain state, one per Pipeline (no module state): `clear()` on a new game or deck.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np

from vision.recognize.decksuits import SuitSigns

#: Cards kept per (suit, rank kind): enough examples for decksuits' NEAREST best,
#: few enough that a bad one ages out within a few hands.
PER_KIND = 6
#: Frames read (`add` calls) a card's signs are kept before it must be seen again.
MAX_AGE = 30
#: Ranks printed as letters in a French deck's index (the rest are digits).
LETTERS = frozenset({"A", "J", "Q", "K"})


def rank_kind(card: str) -> str:
    """"letter" (A J Q K) or "digit" (2-10): `card` is rank + suit ("10S")."""
    return "letter" if card[:-1] in LETTERS else "digit"


class GameSigns:
    """The newest sure suit signs of one deck, `per_kind` cards per suit and rank kind
    (module). `known` is what decksuits.settle_suits takes as `known=`."""

    def __init__(self, per_kind: int = PER_KIND, max_age: int = MAX_AGE) -> None:
        if per_kind < 1 or max_age < 1:
            raise ValueError(f"per_kind {per_kind} and max_age {max_age} must be >= 1")
        self.per_kind = per_kind
        self.max_age = max_age
        # (suit, kind) -> [(card, signs of its corners, frame kept)], oldest first
        self._kept: dict[tuple[str, str], list[tuple[str, SuitSigns, int]]] = {}
        self._known: SuitSigns | None = None
        self._frames = 0

    @property
    def known(self) -> SuitSigns | None:
        """All kept signs as one SuitSigns (None when none are kept)."""
        if self._known is None and len(self):
            self._known = SuitSigns(tuple(s for cards in self._kept.values()
                                          for _, signs, _ in cards for s in signs.signs))
        return self._known if len(self) else None

    def cards(self) -> frozenset[str]:
        """The cards whose signs are kept."""
        return frozenset(c for cards in self._kept.values() for c, _, _ in cards)

    def add(self, found: SuitSigns, reported: Collection[str] | None = None) -> None:
        """Keep `found`'s signs (a frame's sure cards, decksuits.frame_signs), only of
        cards in `reported` when given (what the frame finally reported); the oldest
        card of its suit and kind beyond `per_kind` is forgotten. A card already
        held is left as it is. One call is one frame read: cards kept `max_age`
        frames ago are forgotten first."""
        self._frames += 1
        old = self._frames - self.max_age
        for kept in self._kept.values():
            if kept and kept[0][2] <= old:  # (oldest first)
                kept[:] = [k for k in kept if k[2] > old]
                self._known = None
        held = self.cards()
        new: dict[str, list[tuple[str, str, np.ndarray]]] = {}
        for card, suit, d in found.signs:
            if card in held or (reported is not None and card not in reported):
                continue
            new.setdefault(card, []).append((card, suit, d))
        for card, signs in new.items():
            key = (signs[0][1], rank_kind(card))
            kept = self._kept.setdefault(key, [])
            kept.append((card, SuitSigns(tuple(signs)), self._frames))
            del kept[:-self.per_kind]
        if new:
            self._known = None

    def clear(self) -> None:
        """Forget every sign (a new game, another deck)."""
        self._kept.clear()
        self._known = None
        self._frames = 0

    def __len__(self) -> int:
        return sum(len(v) for v in self._kept.values())
