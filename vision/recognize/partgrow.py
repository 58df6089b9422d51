"""An outline on part of a card lying in view, cut through the card's print, grown to
the card and read at both its index corners (stills only).

Why: a card whose border hardly shows against the table (a cream deck on light
cloth, a low-contrast lamp) is outlined by three of its sides and a straight line
of its own print: the edge of a court picture, a row of pips (rendered calibration
decks seed 5: plastic's QS, 6S, QD, 4C, 6C outlined on 0.4-0.65 of the card). Its
corners cut one index at most, at the wrong size, and it reads nothing.
partial.py grows such parts only where the cut side ends at an object (a card
under a book); here the card lies whole in view, so both its index corners are.

How: each way partial.grown_cards grows an unread face-up outline across one of
its sides to card proportions is read at both index corners, at the guessed
length and a tenth shorter and longer (partial.SIZE_TRIES). A way reads card X
when the guess and at least one other length read X at the pair bars
(topend.both_read) and no corner of any length names another card. The outline
gives way to X when every way that reads names X, which no other candidate reads,
and X lies in the photo where no other candidate does (IoU paperedge.SAME_CARD), unread
outlines lying inside it excepted (they are the card found again, and give way).

Chain without unsqueeze, after paperedge (60 scenes each): calibration decks seeds
5 and 30 360 -> 361/423 and 374 -> 374, training decks seeds 7 and 8 376 -> 377/436
and 373 -> 373/432 read right; 0 wrong, 0 phantoms before and after. Stills only
(reader._chain's last step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.paperedge import put_grown
from vision.recognize.partial import grow_across, grown_cards, start_short
from vision.recognize.patch import extract_index_patches, normalize_quad
from vision.recognize.stripgeom import edge_along, gradients
from vision.recognize.topend import both_read

#: Of the lengths tried (the one snapped first), at least this many must read the card.
MIN_LENGTHS = 2
#: The grown card's length across the cut is searched over these shares of the
#: poker guess (partial's CARD_ASPECT; the camera's slant changes a card's shape:
#: calibration seed 5's plastic QS and 6S grown at the guess lay 0.77-0.8 IoU on
#: the card), its far side put on the strongest edge ...
SEARCH = (0.7, 1.35)
#: ... and read there and this share shorter and longer.
AROUND = (1.0, 0.97, 1.03)


def snapped(grads: tuple[np.ndarray, np.ndarray], part: np.ndarray, cut: int,
            guess: float) -> tuple[np.ndarray, ...]:
    """The quads to read a way at: the card grown from `part` (normalised) across
    side `cut`, its far side snapped onto the strongest edge within SEARCH of the
    guessed length, and AROUND it (normalised, starting at a short side)."""
    ks = np.arange(SEARCH[0], SEARCH[1] + 1e-6, 1.0 / max(guess, 1.0))
    cards = np.array([grow_across(part, cut, guess * k, 1.0) for k in ks], np.float32)
    score = edge_along(*grads, cards[:, cut], cards[:, (cut + 1) % 4])
    best = float(ks[int(np.argmax(score))]) * guess
    return tuple(start_short(grow_across(part, cut, best * k, 1.0), 1.0) for k in AROUND)


def _named(reading: Any) -> tuple[str, str] | None:
    return None if reading.rank is None else (reading.rank, reading.suit)


def way_reads(readings: Sequence[Any], calibration: Any) -> str | None:
    """The card one way reads from its lengths' corner readings (pairs, the guess
    first), or None (see module)."""
    pairs = [readings[k:k + 2] for k in range(0, len(readings), 2)]
    cards = [both_read(p, calibration) for p in pairs]
    if cards[0] is None or sum(c == cards[0] for c in cards) < MIN_LENGTHS:
        return None
    named = {n for r in readings if (n := _named(r)) is not None}
    return cards[0] if len(named) == 1 else None


def find_grown_parts(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` with each unread face-up outline that is a part of a card in view
    replaced by the card grown from it (see module). `clf`: the photo's ReadingMemo
    (or an IndexClassifier)."""
    from vision.recognize.reader import read_candidates

    if getattr(clf, "deck", None) is not None or not cands:
        return list(cands)
    refused: set[int] = set()  # read, and spoken against: not grown (reader.py)
    sights = read_candidates(clf, image, cands, refused=refused)
    read = {s.card for s in sights if s.card is not None}
    h, w = image.shape[:2]
    tries: list[tuple[int, np.ndarray, tuple[np.ndarray, ...]]] = []
    grads: tuple[np.ndarray, np.ndarray] | None = None
    for i, (c, s) in enumerate(zip(cands, sights)):
        if s.card is not None or i in refused:
            continue
        part = normalize_quad(c.corners)
        done: set[tuple[int, int]] = set()
        for g in grown_cards(part):
            guess = float(np.hypot(*(g.hidden[3] - part[(g.cut + 3) % 4])))
            if (g.cut, round(guess)) in done:
                continue  # (the same way again, for its other corner in view)
            done.add((g.cut, round(guess)))
            if grads is None:
                grads = gradients(image)
            ts = snapped(grads, part, g.cut, guess)
            q = ts[0]
            if q.min() < 0 or q[:, 0].max() > w - 1 or q[:, 1].max() > h - 1:
                continue
            tries.append((i, q, ts))
    if not tries:
        return list(cands)
    patches = [p for _, _, ts in tries for t in ts for p in extract_index_patches(image, t)]
    reads = clf.classify(patches)
    by_cand: dict[int, list[tuple[np.ndarray, str | None]]] = {}
    at = 0
    for i, q, ts in tries:
        n = 2 * len(ts)
        by_cand.setdefault(i, []).append((q, way_reads(reads[at:at + n], clf.calibration)))
        at += n
    out: dict[int, Any] = dict(enumerate(cands))
    for i, ways in by_cand.items():
        cards = {card for _, card in ways if card is not None}
        if len(cards) != 1 or i not in out:
            continue
        card = cards.pop()
        if card in read:
            continue
        q = next(q for q, got in ways if got == card)
        if put_grown(out, cands, sights, image, i, q):
            read.add(card)
    return list(out.values())
