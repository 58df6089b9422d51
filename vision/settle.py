"""The settled look: a frame that stayed unchanged read once more by the stills chain,
merged with what the live read found.

Why: the live Pipeline keeps a camera frame within 30 ms, so it runs the detector
alone (LIVE_DETECTOR), none of the stills steps (unions, strips, indexfind, partial,
vision.recognize.reader.still_detector) that find the cards a plain outline misses.
The referee only records cards that were laid down and stayed, and at a card table
most frames are unchanged: once the table has settled, one slow look (100-300 ms) at
the frame that stayed costs nothing the referee waits for, and reads more of its
cards (`vision.evaluate_game.evaluate_settled_game`).

`merge` puts the two readings together: every stills sighting, plus every live
sighting that no stills sighting lies on (a card the stills look missed is not lost).
Where both saw one card (`same_place`) and read it differently, the live reading is
never kept over the stills one; an unread stills sighting over a card the live read
gave takes the live reading (the live read is the chain's own first steps, read
alike). See MERGE_DISAGREE for the measurement that chose what a disagreement gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.detect import DetectorConfig
from vision.recognize.reader import same_way
from vision.types import CardSighting

__all__ = ["SettleConfig", "merge", "same_place", "settled_look"]


@dataclass(frozen=True, slots=True)
class SettleConfig:
    """When and how the Pipeline takes its settled look.

    `after`: unchanged frames after a change before the look (the table has
    settled): at 30 frames a second, 2 is 70 ms of a still table. A hand hovering
    over the cards changes the frame on its own, so a short wait rarely looks at a
    table still being played on; and each look that a change then makes stale only
    costs a worker's time.
    `inline`: `Pipeline.read` takes the look itself on the frame it falls due (that
    frame then costs the look's time); False: the caller runs `Pipeline.settle`
    (e.g. on a worker thread) when `Pipeline.claim_settle()` says so, and `read`
    never waits for it.
    `detector`: the stills chain's detector config (None: the project's default,
    DetectorConfig(), as `cardtable recognize` and evaluation's detect mode).
    """

    after: int = 2
    inline: bool = True
    detector: DetectorConfig | None = None


#: Two sightings are one card seen twice when their quads overlap by this IoU, or
#: SAME_PLACE_INSIDE of the smaller lies inside the other, turned the same way
#: (reader.same_way, 20 degrees): reader.without_doubles' test (DOUBLE_IOU 0.5,
#: DOUBLE_INSIDE 0.8), here asked of read cards too. A card crossing another (a Durak
#: beat) overlaps it turned a quarter, and is another card.
SAME_PLACE_IOU = 0.5
SAME_PLACE_INSIDE = 0.8

#: A card only the stills look found (no live sighting at its place) lying this
#: share of its area or more inside a back the live read saw is a picture printed
#: on that back, not a card: kde/nicu-white's back shows a fan of aces, one of which
#: the stills chain read as AH (training decks seed 30, 4 scenes a deck: 0.73 of it
#: inside the back). Cards truly lying on a back showed 0.45 and 0.47 there (two
#: of 150 stills-only cards over training decks seeds 8, 30, 31 and calibration seed
#: 5, all others 0-0.16): 0.6 lies between. A card the live read found on a back
#: is at its own place and kept.
BACK_INSIDE = 0.6

#: What a card read one way by the live read and another by the stills look, at one
#: place, is given as: "stills" (the stills look's reading) or "unread" (neither).
#: Over 168 training-deck scenes (seeds 7 and 8, one deck a scene) the two never read
#: one card differently (the four seeming disagreements were two cards piled turned
#: alike, each read right by both: hence a live card is matched to a stills sighting
#: of its own reading first, else the one overlapping it most). With nothing
#: measured to favour either reading, neither is given: abstaining is never wrong.
MERGE_DISAGREE = "unread"


def settled_look(recognizer: Any, image: np.ndarray,
                 detect: Callable[[np.ndarray], list[Any]] | None = None
                 ) -> list[CardSighting]:
    """The stills chain's reading of `image` (reader.read_image: still_detector's
    steps, read_candidates, without_doubles), `detect` its detector (default the
    project's, as `cardtable recognize`)."""
    from vision.recognize.reader import read_image

    return read_image(recognizer, image, detect)


def same_place(a: CardSighting, b: CardSighting) -> bool:
    """Are `a` and `b` one card seen twice (see SAME_PLACE_IOU)?"""
    qa = np.asarray(a.corners, np.float32)
    qb = np.asarray(b.corners, np.float32)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    if inter <= 0:
        return False
    aa, ab = float(cv2.contourArea(qa)), float(cv2.contourArea(qb))
    iou = inter / max(aa + ab - inter, 1e-6)
    return ((iou >= SAME_PLACE_IOU or inter >= SAME_PLACE_INSIDE * min(aa, ab))
            and same_way(qa, qb))


def _iou(a: CardSighting, b: CardSighting) -> float:
    qa = np.asarray(a.corners, np.float32)
    qb = np.asarray(b.corners, np.float32)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    aa, ab = float(cv2.contourArea(qa)), float(cv2.contourArea(qb))
    return float(inter) / max(aa + ab - float(inter), 1e-6)


def merge(stills: Sequence[CardSighting], live: Sequence[CardSighting],
          disagree: str = MERGE_DISAGREE) -> tuple[CardSighting, ...]:
    """The settled reading: `stills` (the settled look's sightings) with `live` (the
    live read's of the same frame) put in (see module).

    - A card the stills look alone read, lying inside a back the live read saw
      (BACK_INSIDE), is dropped: a picture on the back.
    - A live sighting no stills sighting lies on is added; if it reads a card that
      the stills look reads elsewhere, it is added unread (a deck holds each card
      once, and the stills reading is of the broader look).
    - A stills sighting on a live one: an unread stills sighting takes the live
      reading; two readings that differ give `disagree` ("stills": the stills one;
      "unread": neither, the card seen but not read).
    """
    if disagree not in ("stills", "unread"):
        raise ValueError(f"disagree must be 'stills' or 'unread', not {disagree!r}")
    out = list(stills)
    alone: list[CardSighting] = []
    for seen in live:
        where = [j for j, s in enumerate(stills) if same_place(seen, s)]
        if not where:
            alone.append(seen)
            continue
        if seen.card is None or any(out[j].card == seen.card for j in where):
            continue
        # Cards piled one on another may lie at one place to the test: the live
        # card is matched with the stills sighting that overlaps it most.
        j = max(where, key=lambda k: _iou(seen, stills[k]))
        s = out[j]
        if s.card is None:
            if not _read_elsewhere(seen.card, out, j):
                out[j] = seen
        elif disagree == "unread":
            out[j] = _unread(s)
    backs = [s for s in live if s.face_down and s.card is None]
    out = [s for s in out if not _on_a_back(s, backs, live)]
    read = {s.card for s in out if s.card}
    out += [_unread(s) if s.card in read else s for s in alone]
    return tuple(_without_unread_doubles(out))


def _on_a_back(s: CardSighting, backs: Sequence[CardSighting],
               live: Sequence[CardSighting]) -> bool:
    """Is `s` a card read by the stills look alone inside a live back (BACK_INSIDE)?"""
    if s.card is None or not backs or any(same_place(s, seen) for seen in live):
        return False
    q = np.asarray(s.corners, np.float32)
    area = float(cv2.contourArea(q))
    return any(cv2.intersectConvexConvex(q, np.asarray(b.corners, np.float32))[0]
               >= BACK_INSIDE * area for b in backs)


def _read_elsewhere(card: str, sightings: Sequence[CardSighting], skip: int) -> bool:
    return any(s.card == card for j, s in enumerate(sightings) if j != skip)


def _unread(s: CardSighting) -> CardSighting:
    return replace(s, card=None, confidence=0.0, rank=None, suit=None)


def _without_unread_doubles(sightings: list[CardSighting]) -> list[CardSighting]:
    """An unread sighting where a read one lies is that card seen twice (as
    reader.without_doubles), and two unread ones at one place are one."""
    out: list[CardSighting] = []
    for s in sorted(sightings, key=lambda s: s.card is None):
        if s.card is None and any(same_place(s, o) for o in out):
            continue
        out.append(s)
    return out
