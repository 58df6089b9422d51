"""What the network says of a corner, and the one rule turning a card's corners into
a verdict: the value types (`Reading`, `CardReading`), the calibrated bars they face
(`Calibration`, stored in vision/models/index.json) and `combine`.

Why apart from classifier.py: the rule is pure arithmetic on probabilities, used
alike by the network's first look, its second look, the pair's second opinion
(fallback.py), the pips' check (pipcheck.py) and calibration (vision.training),
none of which need the network itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from vision.types import RANKS, SUITS


@dataclass(frozen=True, slots=True)
class Calibration:
    """Abstention thresholds (chosen by vision.training.calibrate on calibration decks).

    The network's logits are divided by `temperature` (fitted on the calibration
    decks) before the softmax. A card read from one corner is accepted when its rank
    probability reaches `min_prob` and its suit probability the suit's bar. Two
    agreeing corners are two looks at the same index, so their evidence multiplies
    (`joint_prob`): the joint rank probability must reach `min_prob_pair`, the joint
    suit probability the suit's pair bar. In both cases the "not an index" probability
    must stay below `max_none` and no visible corner may disagree confidently
    (> `disagree_prob`). Enrolled decks are accepted when the cosine similarity to the
    best template reaches `min_similarity` and beats the best other card by
    `min_margin`.

    Suit bars are per suit read (`suit_min_prob`, `suit_min_prob_pair`, in SUITS
    order; empty = the rank bars) because the network's suit mistakes are lopsided:
    on unfamiliar decks clubs are read as spades with near-certainty while nothing is
    read as a heart that is not one, so "spade" needs far more evidence than "heart".
    """

    min_prob: float = 0.9
    min_prob_pair: float = 0.9  # on the joint probability of two agreeing corners
    max_none: float = 0.3
    disagree_prob: float = 0.5
    min_similarity: float = 0.8
    min_margin: float = 0.05
    temperature: float = 1.0
    suit_min_prob: tuple[float, ...] = ()  # per suit (SUITS order) for one corner
    suit_min_prob_pair: tuple[float, ...] = ()  # per suit, on two pooled corners
    #: Bars for the second look (`IndexClassifier.look_again`) at a card the first did
    #: not settle; None: no second look.
    second_look: Calibration | None = None

    def suit_bar(self, suit: str, pooled: bool) -> float:
        """The probability the suit `suit` must reach (pooled: two agreeing corners)."""
        bars = self.suit_min_prob_pair if pooled else self.suit_min_prob
        if bars:
            return bars[SUITS.index(suit)]
        return self.min_prob_pair if pooled else self.min_prob

    @classmethod
    def from_json(cls, path: Path) -> Calibration:
        if not path.is_file():
            return cls()
        return cls.from_dict(json.loads(path.read_text()).get("calibration", {}))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Calibration:
        """From index.json's "calibration" object (unknown keys ignored)."""
        fields: dict[str, Any] = {}
        for k, v in data.items():
            if k not in cls.__dataclass_fields__:
                continue
            if k == "second_look":
                fields[k] = None if v is None else cls.from_dict(v)
            elif isinstance(v, list):
                fields[k] = tuple(float(x) for x in v)
            else:
                fields[k] = float(v)
        return cls(**fields)

    def to_dict(self) -> dict[str, Any]:
        """For index.json (the inverse of `from_dict`)."""
        out: dict[str, Any] = {}
        for k in self.__dataclass_fields__:
            v = getattr(self, k)
            out[k] = v.to_dict() if isinstance(v, Calibration) else \
                list(v) if isinstance(v, tuple) else v
        return out


@dataclass(frozen=True, slots=True)
class Reading:
    """What one patch shows: rank/suit (None = "not an index") with probabilities.

    `none_prob` is the network's probability that the patch is no index at all
    (the larger of the rank and suit heads' "none" outputs). `probs`: the rank and
    suit heads' whole rows (after the temperature), kept so that a second look need
    not run this cut through the network again.
    """

    rank: str | None
    suit: str | None
    confidence: float
    rank_prob: float = 0.0
    suit_prob: float = 0.0
    none_prob: float = 0.0
    probs: tuple[np.ndarray, np.ndarray] | None = field(default=None, compare=False,
                                                        repr=False)


@dataclass(frozen=True, slots=True)
class CardReading:
    """A card's verdict: `card` when accepted, else None (rank/suit may still be sure)."""

    card: str | None
    confidence: float
    rank: str | None
    suit: str | None

    def __iter__(self):  # unpack as (card, confidence, rank, suit)
        return iter((self.card, self.confidence, self.rank, self.suit))


def readings_from_rows(pr: np.ndarray, ps: np.ndarray) -> list[Reading]:
    """One Reading per pair of rank (N, 14) and suit (N, 5) probability rows: the most
    likely rank and suit, or None for both where a head's "not an index" wins."""
    out = []
    for r, s in zip(pr, ps):
        ri, si = int(r[:13].argmax()), int(s[:4].argmax())
        none = float(max(r[13], s[4]))
        is_none = r[13] > r[ri] or s[4] > s[si]
        out.append(Reading(
            None if is_none else RANKS[ri], None if is_none else SUITS[si],
            float(min(r[ri], s[si])), float(r[ri]), float(s[si]), none, (r, s)))
    return out


def joint_prob(probs: list[float]) -> float:
    """Probability that independent looks agreeing on one class are right, from each
    look's probability: their odds multiply (naive Bayes, the alternatives lumped, a
    flat prior). Two corners at 0.9 give 0.988; one corner gives its own probability.
    """
    if len(probs) == 1:
        return float(probs[0])
    log_odds = 0.0
    for p in probs:
        p = min(max(p, 1e-7), 1 - 1e-7)
        log_odds += float(np.log(p / (1 - p)))
    return float(1.0 / (1.0 + np.exp(-log_odds)))


def least_reading(rank_probs: np.ndarray, suit_probs: np.ndarray) -> Reading:
    """One corner's Reading from several cuts of it (rows; the usual cut first).

    The class is what the first cut reads; its probability is the least any cut gives
    it, so the cuts must agree: a cut reading something else pulls it down. Why not a
    mean: the network's doubt on a card is mostly about where the crop sits, and a
    class that survives every crop is the one the index shows. "Not an index" as the
    first cut sees it.
    """
    r0, s0 = rank_probs[0], suit_probs[0]
    ri, si = int(r0[:13].argmax()), int(s0[:4].argmax())
    rp, sp = float(rank_probs[:, ri].min()), float(suit_probs[:, si].min())
    none = float(max(r0[13], s0[4]))
    if r0[13] > rp or s0[4] > sp:
        return Reading(None, None, min(rp, sp), rp, sp, none)
    return Reading(RANKS[ri], SUITS[si], min(rp, sp), rp, sp, none)


#: A corner that surely shows an index (its "not an index" probability at most
#: CONTRADICT_NONE) and gives a card's rank less than CONTRADICT shows another card.
CONTRADICT, CONTRADICT_NONE = 0.01, 0.05


def contradicts(r: Reading, rank: str | None) -> bool:
    """Does corner reading `r` show an index that is surely not of rank `rank`?

    Why: an unsure corner (best rank under `disagree_prob`) does not block a card
    read from the other corner, so that a blurred index costs no card. But an
    outline drawn round two cards shows each card's index at one corner: the
    network may be unsure *which* other rank it sees (Q 0.49, 9 0.28, J 0.16 for a
    nine's index) and still sure it is not the rank the other corner reads (A: 0.000).
    Seen on a training-deck scene with the two-network model: AH given through a
    quad round AH and 9H.
    """
    if rank is None or r.probs is None or r.none_prob > CONTRADICT_NONE:
        return False
    return bool(r.probs[0][RANKS.index(rank)] < CONTRADICT)


def combine(readings: list[Reading], calib: Calibration, enrolled: bool = False
            ) -> CardReading:
    """Merge the readings of one card's corners into a verdict (see `read_card`).

    A corner that sees "not an index" (covered, glare) neither votes for nor against;
    two corners that read different cards make the whole card unreadable. Agreeing
    corners pool their evidence (`joint_prob`) and face the pair bars, a lone corner
    the single ones (`Calibration`: a rank bar and per-suit bars). The verdict's
    confidence is the pooled min(rank, suit) probability. Readings from an enrolled
    deck were already thresholded (by similarity) per corner.
    """
    if enrolled:
        calib = Calibration(min_prob=0.0, min_prob_pair=0.0, max_none=1.0, disagree_prob=0.0)
    votes = [r for r in readings if r.rank is not None and r.suit is not None]
    if not votes:
        return CardReading(None, 0.0, None, None)
    best = max(votes, key=lambda r: r.confidence)
    for r in votes:
        if (r.rank, r.suit) != (best.rank, best.suit) and (
                r.confidence > calib.disagree_prob or contradicts(r, best.rank)):
            return CardReading(None, 0.0, None, None)
    agree = [r for r in votes if (r.rank, r.suit) == (best.rank, best.suit)]
    rank_p = joint_prob([r.rank_prob for r in agree])
    suit_p = joint_prob([r.suit_prob for r in agree])
    none_p = float(min(r.none_prob for r in agree))
    conf = min(rank_p, suit_p)
    if enrolled:
        conf = float(np.mean([r.confidence for r in agree]))
    pooled = len(agree) >= 2
    assert best.suit is not None  # votes all carry a suit
    need = calib.min_prob_pair if pooled else calib.min_prob
    rank = best.rank if rank_p >= need else None
    suit = best.suit if suit_p >= calib.suit_bar(best.suit, pooled) else None
    if rank is None or suit is None or none_p > calib.max_none:
        return CardReading(None, 0.0, rank, suit)
    return CardReading(f"{rank}{suit}", conf, rank, suit)
