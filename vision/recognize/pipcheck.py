"""A number card's pips as a second witness for the rank its corner indices show.

The index network's bars are set so that it is almost never wrong on its own, which
makes it refuse many number cards it has read right (a ten of diamonds read "10D
0.95 | 10D 0.89" on a real photo; held-out decks' eights and sixes at 0.8-0.95). The
middle of a number card prints its rank again, as its count of suit pips
(pips.count_pips), a witness that shares nothing with the network: other pixels,
no learning. A wrong card through this path needs both to be wrong *the same way*:
the network's best rank wrong and the pips counted to that same wrong rank (the
counter gave 0 wrong counts on 2,429 whole rendered training-deck cards, README).

So a card the network left unread is given when, on a card lying whole in view:
- the pips give a count N, and the network's corner readings that name a rank name
  N, their pooled rank probability reaching `RANK_BAR`;
- no visible corner reads another rank with probability over `OVERRULE` (a corner
  that saw another card's index is overruled only when it was unsure);
- the suit is the one the pips' shape shows (pips.PipCount.suit: 0 wrong suits
  over some 10,000 counted rendered cards, held-out decks included, and the real
  photos checked by eye), even against the network's suit: unfamiliar decks' clubs
  are read as spades with near certainty, which is why its black-suit bars are
  steep. When the pips show no suit, the corners must agree on one, the pips' colour
  must be its colour (red for hearts and diamonds), and it must pass the network's
  own calibrated suit bar, or be the suit the pips lean to (PipCount.lean: looser
  bars, clubs only) with a pooled probability of LEAN_SUIT_BAR. Why the lean:
  the network's suit mistakes run from clubs to spades, and the pips' from
  clubs to spades too (never a spade scored as a club), so a club named by both,
  each short of its own bar, shares no pixels and no failure; a spade named by
  both does share one (a blurred club), which is why spades get no lean
  (pipsuit.LEAN_BARS). A black suit the pip network shows (pipnet.py, a small
  network scoring each pip; only where pipsuit gave no sure suit) is a witness of
  the same kind, beside the corners' best suit at NET_SUIT_BAR (`_net_suit`).

The pips also speak against a card: a card read from its corners that lies whole in
view and whose pips count another rank, or show the other colour or (surely) another
suit, is not given (`pips_contradict`). Two witnesses that share nothing disagree,
so one of them is wrong, and the counter is the one that was never seen wrong: a
held-out deck's six of hearts read "5H" at both corners (0.93, 0.98) passed the pair
bars. Only cards some corner gave its rank short of `CERTAIN` are counted: a count
costs about 1.5 ms and the live frame has 30 (at 0.999 on rank or suit, 3.7 counts
a bench frame, +4 ms; at 0.99 on the rank, 0.75).

An ace has no count but one big middle pip: where the corners read a black ace,
the rank past its bars and every corner naming the same black suit (pooled 0.5)
but short of its bar, that pip vouches for the suit (`read_by_ace`, reached
through `read_by_pips`, so the reader needs no hook): its silhouette (acepip.py,
spades only) or the pip network on it (pipnet.ACE_BAR). Black aces read right,
session 11 (ev-style scenes; before -> after the network's witness, 0 wrong in
all): cal:5:60 truth 11 -> 14 of 17, detect 10 -> 12; cal:6:60 truth 10 -> 10 of
13; train:7:60 truth 10 -> 12 of 13.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.acepip import ace_suit, pip_soft
from vision.recognize.classifier import Calibration, CardReading, Reading, joint_prob
from vision.recognize.pipnet import ACE_BAR, load_pipnet, pip_crops, suit_from
from vision.recognize.pips import PipCount, count_pips

#: Pooled rank probability the network must give the pips' rank.
RANK_BAR = 0.5
#: Pooled suit probability of the corners naming the suit the pips lean to
#: (PipCount.lean) for the two to give it: the corners' best suit.
LEAN_SUIT_BAR = 0.5
#: Pooled suit probability of the corners naming the black suit the pip network
#: shows (pipnet.py) for the two to give it: the corners' best suit.
NET_SUIT_BAR = 0.5
#: A corner reading another rank more surely than this blocks the card.
OVERRULE = 0.9
#: Share of the card that must be in view (detector's `visible`) for its middle to be
#: trusted: another card over the middle can hide pips or show its own.
MIN_VISIBLE = 0.98
_RED = ("D", "H")


def uncovered(cand: Any, min_visible: float) -> bool:
    """Is the candidate face up, at least `min_visible` of it seen (detector's
    `visible`) and both its index corners clear?"""
    if getattr(cand, "face_down", False):
        return False
    if float(getattr(cand, "visible", 1.0)) < min_visible:
        return False
    return all(getattr(cand, "index_visible", (True, True)))


def whole_in_view(cand: Any, shape: tuple[int, ...]) -> bool:
    """Does the candidate lie whole in the frame, uncovered (its middle can be read)?"""
    if not uncovered(cand, MIN_VISIBLE):
        return False
    q = np.asarray(cand.corners, np.float32).reshape(4, 2)
    h, w = shape[:2]
    return bool(q.min() >= 0 and q[:, 0].max() <= w - 1 and q[:, 1].max() <= h - 1)


def pip_verdict(readings: Sequence[Reading], pips: PipCount | None, calib: Calibration
                ) -> CardReading | None:
    """The card, if the pips and the corner readings together settle it (see module);
    None otherwise."""
    if pips is None:
        return None
    rank = str(pips.count)
    agree = _rank_witnesses(readings, rank, calib)
    if not agree:
        return None
    rank_p = joint_prob([r.rank_prob for r in agree])
    shown = pips.suit  # the suit the pips' shape shows, when sure
    if shown is not None:
        return CardReading(f"{rank}{shown}", rank_p, rank, shown)
    suits = {r.suit for r in agree}
    if len(suits) != 1:
        return None
    suit = suits.pop()
    assert suit is not None
    if (suit in _RED) != pips.red:
        return None
    suit_p = joint_prob([r.suit_prob for r in agree])
    leaning = pips.lean == suit and suit_p >= LEAN_SUIT_BAR  # two witnesses (module)
    if (not leaning and suit_p < calib.suit_bar(suit, len(agree) >= 2)
            and not (suit_p >= NET_SUIT_BAR and _net_suit(pips) == suit)):
        return None
    return CardReading(f"{rank}{suit}", min(rank_p, suit_p), rank, suit)


def _net_suit(pips: PipCount) -> str | None:
    """The black suit the pip network (pipnet.py) shows for pips pipsuit left
    without a sure suit (PipCount.crops are kept only for those), or None.

    Why beside the corners' own best suit only (NET_SUIT_BAR), not alone as
    pipsuit's sure suit: a network trained with some decks left out read one of
    them wrong with certainty (gnome/orell, vision/training/pipnet.py), while
    the corner network, trained on other pixels, gets the targeted cards' suit
    right as its best guess (held-out decks: spade/club 0.5-0.84)."""
    if pips.crops is None or pips.red:
        return None
    net = load_pipnet()
    return net.suit(pips.crops) if net is not None else None


def _rank_witnesses(readings: Sequence[Reading], rank: str, calib: Calibration
                    ) -> list[Reading]:
    """The corner readings that vouch for `rank` (see module: they name it with a
    pooled probability of RANK_BAR or more, no corner names another rank over
    OVERRULE, and none is mostly "not an index"); empty when they do not."""
    named = [r for r in readings if r.rank is not None]
    if any(r.rank != rank and r.rank_prob > OVERRULE for r in named):
        return []
    agree = [r for r in named if r.rank == rank and r.suit is not None]
    if not agree or joint_prob([r.rank_prob for r in agree]) < RANK_BAR:
        return []
    if min(r.none_prob for r in agree) > calib.max_none:
        return []
    return agree


#: A card whose every corner naming a rank gives it at least this is not counted
#: again (`pips_contradict`).
CERTAIN = 0.99


def pips_contradict(image: np.ndarray, cand: Any, card: CardReading,
                    readings: Sequence[Reading]) -> bool:
    """Do the pips of `cand`, read as `card` from its corners, speak against it (see
    module)? False when they cannot tell: not lying whole in view, a count that is
    not clean, or corners all but certain (CERTAIN)."""
    if card.card is None or card.rank is None or card.suit is None:
        return False
    named = [r for r in readings if r.rank is not None]
    if named and min(r.rank_prob for r in named) >= CERTAIN:
        return False
    if not whole_in_view(cand, image.shape):
        return False
    pips = count_pips(image, cand.corners)
    if pips is None:
        return False
    return (str(pips.count) != card.rank or pips.red != (card.suit in _RED)
            or (pips.suit is not None and pips.suit != card.suit))


#: The ranks a pip count can vouch for.
NUMBER_RANKS = tuple(str(n) for n in range(2, 11))


def read_by_pips(image: np.ndarray, cand: Any, readings: Sequence[Reading],
                 calib: Calibration) -> CardReading | None:
    """`pip_verdict` for a detector candidate, counting its pips when it lies whole
    and its corners could vouch for a number rank (else the count, ~1-2 ms, would
    be wasted: court cards, aces, outlines showing no index); an ace's one pip
    (`read_by_ace`) otherwise."""
    if not readings:
        return None
    if {r.rank for r in readings if r.rank is not None} == {"A"}:
        return read_by_ace(image, cand, readings, calib)
    if not whole_in_view(cand, image.shape):
        return None
    if not any(_rank_witnesses(readings, rank, calib) for rank in
               {r.rank for r in readings if r.rank in NUMBER_RANKS}):
        return None
    return pip_verdict(readings, count_pips(image, cand.corners), calib)


#: Least pooled spade probability of the corners for the ace's pip to vouch: the
#: network must lean to spades itself (the pip is a second witness, not the only one).
ACE_SUIT_BAR = 0.5


def ace_verdict(readings: Sequence[Reading], calib: Calibration, suit: str = "S"
                ) -> float | None:
    """The pooled rank probability when the corner readings name the ace of `suit`
    as a whole card but for the suit's bar: every corner naming a card names it,
    none is mostly "not an index", the pooled rank passes the network's own rank bar
    and the pooled suit probability ACE_SUIT_BAR; else None."""
    named = [r for r in readings if r.rank is not None]
    if not named or any((r.rank, r.suit) != ("A", suit) for r in named):
        return None
    if max(r.none_prob for r in named) > calib.max_none:
        return None
    rank_p = joint_prob([r.rank_prob for r in named])
    if rank_p < (calib.min_prob_pair if len(named) >= 2 else calib.min_prob):
        return None
    if joint_prob([r.suit_prob for r in named]) < ACE_SUIT_BAR:
        return None
    return rank_p


def read_by_ace(image: np.ndarray, cand: Any, readings: Sequence[Reading],
                calib: Calibration) -> CardReading | None:
    """The black ace the corners read short of the suit's bar (`ace_verdict`: the
    rank sure, every corner naming the same black suit, pooled ACE_SUIT_BAR) for an
    uncovered card when its middle pip vouches for that suit; None otherwise.

    Two witnesses of the pip, either enough beside the corners: its silhouette
    (acepip.py, spades only) and the pip network (pipnet.py, `ace_net_suit`). Why:
    the spade bars are steep against unfamiliar decks' clubs, and an ornate ace of
    spades is the unfamiliar print that keeps the corner network unsure; neither
    pip witness shares its pixels. The network as for number cards (`_net_suit`):
    beside the corners' own best suit only, never alone."""
    named = {r.suit for r in readings if r.rank is not None}
    if len(named) != 1 or not named <= {"C", "S"}:
        return None
    suit = named.pop()
    assert suit is not None
    rank_p = ace_verdict(readings, calib, suit)
    if rank_p is None or not uncovered(cand, MIN_VISIBLE):
        return None
    # (the pip alone is read: a corner off the frame's edge does not matter, acepip
    # checks that the pip lies in the frame)
    if suit == "S" and ace_suit(image, cand.corners) == "S":
        return CardReading("AS", rank_p, "A", "S")
    if ace_net_suit(image, cand.corners) == suit:
        return CardReading(f"A{suit}", rank_p, "A", suit)
    return None


def ace_net_suit(image: np.ndarray, quad: Any) -> str | None:
    """The black suit the pip network shows for an ace's one middle pip
    (acepip.pip_soft) at pipnet.ACE_BAR, or None (no clean pip, no network, unsure)."""
    net = load_pipnet()
    if net is None:
        return None
    soft = pip_soft(image, quad)
    if soft is None:
        return None
    return suit_from(net.log_odds(pip_crops([soft])), ACE_BAR)
