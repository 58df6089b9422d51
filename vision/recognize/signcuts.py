"""An unread black card's suit from its index signs seen at many cuts (stills only).

Why: the largest kind of card the recogniser leaves unread from its true quads on
decks it never saw is a black card whose rank and colour the corners name surely
but not spade against club (scripts/trace_truth.py, calibration decks seeds 5,
30-36: ~140 of ~165 misses, gnome/plastic's clubs read as spades). The index prints
its suit's sign under the rank, and the pip network (signsuit.sign_odds,
club-minus-spade log-odds) tells a club's shape from a spade's at that size. Given
from ONE cut of the corner that was unsafe (session 14's read_by_sign, deleted in
session 15): on calibration seed 38 scene 152 (stills chain) a candidate cut a
little off a 4S showed its spade sign cropped at its stem, and the pip network
scored it a club at +5.1, while every sign scored on true quads of that deck stayed
past -5.

A sign that names its suit only for one crop is a crop's accident; the sign of an
index names it for every crop. So a card is given here only when all of these hold
(`read_by_cut_signs`):
* its corners name one rank surely (`sure_rank`) and a black colour surely
  (decksuits.sure_pair, the card unread);
* the usual cut of every corner naming that rank shows a sign past
  signsuit.SIGN_BAR on one side (signsuit.sign_suit);
* the corners' own pooled probability of that suit reaches SUIT_FLOOR (the sign
  alone is confidently wrong on some training decks whose corners are sure);
* each of those corners, cut again from the card's quad moved a little every way
  (`cut_quads`: tighter and looser, turned +-2 degrees, shifted along its sides),
  finds a clean sign (decksuits.sign_blob) at >= MIN_SCORED of the cuts, and every
  scored sign lies past SIGN_BAR on the same side (`suit_at_cuts`).
The reader's vetoes still apply after it.

Stills only (`reader.read_candidates(..., sign_cuts=False)` for the live
Pipeline): up to 2 x 11 signs scored per card asked about.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.recognize import signsuit
from vision.recognize.decksuits import sure_pair
from vision.recognize.patch import extract_index_patches
from vision.recognize.readings import Calibration, CardReading, Reading, joint_prob
from vision.types import SUITS

#: The quad's moves (the usual cut is asked separately): scaled about its centre,
#: turned about it (degrees), shifted along its sides (fractions of each side).
#: Chosen in session 15 from the one wrong card of the single-cut rule (calibration
#: seed 38 scene 152), not fitted on a measured set.
SCALES: tuple[float, ...] = (0.94, 0.97, 1.03, 1.06)
TURNS: tuple[float, ...] = (-2.0, 2.0)
SHIFTS: tuple[tuple[float, float], ...] = ((0.012, 0.0), (-0.012, 0.0),
                                          (0.0, 0.012), (0.0, -0.012))
#: Of a corner's ten moved cuts, at least this many must find a clean sign: a sign
#: found at a few cuts only sits at the crop's edge. (Re-chosen in session 16 on the
#: fine-tuned first network: see README "The index sign at many cuts".)
MIN_SCORED = 7
#: The corners' pooled probability of the sign's suit must reach this (session 14,
#: old network: with no floor the single-cut sign would have given 7 training-deck
#: cards wrong, their corners at <= 0.03 for the sign's suit). Re-chosen in session
#: 16 on the fine-tuned first network: see README.
SUIT_FLOOR = 0.1


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


def by_usual_cut(verdict: CardReading | None, patches: Sequence[np.ndarray],
                 readings: Sequence[Reading], calib: Calibration,
                 floor: float = SUIT_FLOOR) -> CardReading | None:
    """The card an unread black card's usual-cut signs and corners tell (the first
    three rules of the module), or None. `patches`/`readings`: its visible corners."""
    if verdict is None or verdict.card is not None:
        return None
    rank = sure_rank(readings, calib)
    if rank is None:
        return None
    pair = sure_pair(CardReading(None, 0.0, rank, None), readings, calib)
    if pair is None:
        return None
    mine = [(p, r) for p, r in zip(patches, readings) if r.rank == rank]
    suit = signsuit.sign_suit([p for p, _ in mine])
    if suit is None or suit not in pair:
        return None
    k = SUITS.index(suit)
    suit_p = joint_prob([float(r.probs[1][k]) for _, r in mine if r.probs is not None])
    if suit_p < floor:
        return None
    rank_p = joint_prob([r.rank_prob for _, r in mine])
    return CardReading(f"{rank}{suit}", min(rank_p, suit_p), rank, suit)


def cut_quads(quad: np.ndarray) -> list[np.ndarray]:
    """The card quad moved each way (SCALES, TURNS, SHIFTS), float32 (4, 2) each."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    out = [(q - c) * s + c for s in SCALES]
    for deg in TURNS:
        a = np.deg2rad(deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        out.append((q - c) @ rot.T + c)
    side_u, side_v = q[1] - q[0], q[3] - q[0]
    out += [q + du * side_u + dv * side_v for du, dv in SHIFTS]
    return [o.astype(np.float32) for o in out]


def odds_at_cuts(image: np.ndarray, quad: np.ndarray, visible: Sequence[bool],
                 keep: Sequence[bool]) -> list[list[float]]:
    """Per kept visible corner, its sign's log-odds at each moved cut where a clean
    sign is found. `keep`: per visible corner, is it asked."""
    per_cut = [[p for p, v in zip(extract_index_patches(image, q), visible) if v]
               for q in cut_quads(quad)]
    return [[z for z in (signsuit.sign_odds(cut[i]) for cut in per_cut if i < len(cut))
             if z is not None] for i, asked in enumerate(keep) if asked]


def side_of(odds: Sequence[Sequence[float]], min_scored: int = MIN_SCORED) -> str | None:
    """"C" or "S" when every corner's signs number at least `min_scored` and all lie
    past SIGN_BAR on that side, all corners the same side; None otherwise."""
    sides: set[str] = set()
    for zs in odds:
        if len(zs) < max(min_scored, 1):
            return None
        if min(zs) >= signsuit.SIGN_BAR:
            sides.add("C")
        elif max(zs) <= -signsuit.SIGN_BAR:
            sides.add("S")
        else:
            return None
    return sides.pop() if len(sides) == 1 else None


def suit_at_cuts(image: np.ndarray, quad: np.ndarray, visible: Sequence[bool],
                 keep: Sequence[bool]) -> str | None:
    """"C" or "S" when every kept visible corner's sign, scored at each of the quad's
    moved cuts, is found at least MIN_SCORED times and always past SIGN_BAR on that
    side (see module); None otherwise. `keep`: per visible corner, is it asked (the
    corners naming the card's rank)."""
    return side_of(odds_at_cuts(image, quad, visible, keep))


def read_by_cut_signs(image: np.ndarray, quad: np.ndarray, visible: Sequence[bool],
                      verdict: CardReading | None, patches: Sequence[np.ndarray],
                      readings: Sequence[Reading], calib: Calibration
                      ) -> CardReading | None:
    """The card `by_usual_cut` gives, when its signs at every moved cut agree
    (`suit_at_cuts`); None otherwise. `patches`/`readings`: the visible corners'
    usual cuts, in `visible`'s order."""
    given = by_usual_cut(verdict, patches, readings, calib)
    if given is None or given.card is None:
        return None
    if len(patches) != sum(bool(v) for v in visible):
        return None  # (the patches are not the quad's visible corners)
    keep = [r.rank == given.rank for r in readings]
    if suit_at_cuts(image, quad, visible, keep) != given.suit:
        return None
    return given
