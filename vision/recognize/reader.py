"""Detector candidates -> CardSightings: the one reading rule, for still images (the
CLI, evaluation) and the live pipeline alike.

`read_candidates` reads every face-up card of a frame from its visible corner
indices in one network call. For the cards still unread it then lets the pips of a
whole number card vouch for its rank (pipcheck.py), asks a pair of networks for a
second opinion (fallback.py), gives a second look (one more call) to those whose
corners agreed but fell short of the bars, then (stills only) a closer look at
their index cut zoomed towards the corner (zoomlook.py), reads a rank whose suit
sign is printed beside it, not under it (splitindex.py), and lets the frame's sure
cards tell an unsure black suit (decksuits.py): cheapest first, so that the cards
one settles spare the next. A card read whose pips count another rank is then not given
(`pipcheck.pips_contradict`), nor one whose index ink is surely of the other colour
than its suit (inkcolour.py), nor is a card read at one corner of an outline
shorter than a card, seen whole: an outline round two cards (onecorner.py), nor
one named by a corner that shows a back's printed lattice (backpattern.py; stills
only). The witnesses other than the network, givers and refusers alike, live in
witnesses.py. It reports backs as backs, and finally applies `one_of_each`. `read_image` is the
same composition without state: detect, then read (what each patch read is
remembered for that photo only, so that its reading steps show the network each
patch once: memo.py). Detection is passed in (`detect`) so that evaluation can
also feed ground-truth quads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from vision.recognize import (
    decksuits,
    turn,
    unsqueeze,
    witnesses,
    zoomlook,
)
from vision.recognize.classifier import CardReading, IndexClassifier, combine
from vision.recognize.indexfind import find_by_index
from vision.recognize.memo import ReadingMemo
from vision.recognize.oneplace import refuse_clashes
from vision.recognize.paperedge import find_paper_edges
from vision.recognize.partgrow import find_grown_parts
from vision.recognize.partial import find_partial
from vision.recognize.patch import extract_index_patches, index_quads, normalize_quad
from vision.recognize.strips import find_strips
from vision.recognize.topend import find_top_ends
from vision.recognize.unions import split_unions
from vision.types import CardSighting

Detect = Callable[[np.ndarray], list[Any]]

#: A read index region lies on another card when this share of it is covered.
COVERED_SHARE = 0.1


def default_detector() -> Detect:
    """The project's detector (vision.detect.detect_cards), imported when first needed."""
    from vision.detect import detect_cards

    return detect_cards


def _corners(cand: Any) -> tuple[tuple[float, float], ...]:
    return _points(cand.corners)


def _points(quad: Any) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(quad).reshape(4, 2))


def _patches(image: np.ndarray, cand: Any) -> list[np.ndarray]:
    """The candidate's visible corner patches: its own when it carries them, else cut
    from `image` (ground-truth quads, other detectors)."""
    own = getattr(cand, "index_patches", None)
    if own:
        return list(own)
    visible = tuple(getattr(cand, "index_visible", (True, True)))
    if not any(visible):
        return []
    cut = extract_index_patches(image, _corners(cand))
    return [p for p, v in zip(cut, visible) if v]


def read_candidates(clf: Any, image: np.ndarray, cands: Sequence[Any], *,
                    known: decksuits.SuitSigns | None = None,
                    found: list[decksuits.SuitSigns] | None = None,
                    ink_certain: float | None = None,
                    refused: set[int] | None = None,
                    lattice: bool = True,
                    sign_cuts: bool = False,
                    sign_veto: bool = True,
                    zoom: bool = True) -> list[CardSighting]:
    """One CardSighting per candidate, in order (see module).

    `ink_certain`: cards whose corners name their suit this surely are not asked
    about their ink (inkcolour.speaks_against; the live Pipeline passes
    inkcolour.CERTAIN for its frame's budget); None: every card given is.

    `known`/`found`: suit signs of the deck kept from earlier frames, and a list that
    gets this frame's sure signs appended (decksuits.settle_suits; the live Pipeline
    keeps them over a game).

    `refused`: a set that gets the index of each candidate whose card a witness
    refused (its pips, its index signs, its ink). Steps that grow an unread outline
    into another quad skip those: the card there was read and spoken against, and a
    grown quad's corners may show its ink or signs less surely (real train IMG_2385:
    a king of hearts read as a spade, refused by its red ink, came back as KS from
    paperedge's grown quad).

    `lattice`: a card named by a corner that shows a back's printed lattice is not
    given (backpattern.py; about a millisecond a patch: the live Pipeline passes
    False for its frame's budget).

    `sign_cuts`: an unread black card whose rank and colour are sure is given the
    suit its index signs show at many cuts of its corners (signcuts.py). Off unless
    asked: on held-out seed 99 (stills chain) it gave +1 right and +1 wrong.

    `sign_veto`: a black card whose index signs, cut at ten moved quads, show the
    other suit and not its own is not given (signveto.py; stills only, the live
    Pipeline passes False).

    `zoom`: the cards still unread after the second look get a closer look at their
    index (zoomlook.py; one more network call: the live Pipeline passes False).

    `clf` is an IndexClassifier or anything with its `classify`, `calibration` and
    `deck` (the second look is skipped for recognisers without `wants_second_look`).
    A candidate the detector took for a back is still shown to the classifier: if its
    corners read as one card with the calibrated confidence it is reported face up
    (the classifier is trained on backs as "not an index", so a real back does not
    pass), otherwise as a back.
    """
    enrolled = getattr(clf, "deck", None) is not None
    wants = getattr(clf, "wants_second_look", None)
    cuts = [_patches(image, c) for c in cands]
    # Near-square cards: the other diagonal's corners too, in the same network call.
    turns = {i: turn.turned_patches(image, np.asarray(_corners(c), np.float32))
             for i, c in enumerate(cands) if cuts[i] and turn.worth_turning(c, image.shape)}
    flat = [p for ps in cuts for p in ps] + [p for _, ps in turns.values() for p in ps]
    readings = clf.classify(flat) if flat else []
    turned_reads = readings[len(flat) - 2 * len(turns):]
    verdicts: list[CardReading | None] = []
    again: list[int] = []
    firsts: list[list[Any]] = []
    start = 0
    for i, ps in enumerate(cuts):
        mine = readings[start:start + len(ps)]
        firsts.append(mine)
        start += len(ps)
        if not mine:
            verdicts.append(None)
            continue
        verdict = combine(mine, clf.calibration, enrolled=enrolled)
        verdicts.append(verdict)
        if verdict.card is None and wants is not None and wants(mine):
            again.append(i)
    moved: dict[int, np.ndarray] = {}
    for k, (i, (quad, _)) in enumerate(turns.items()):
        v = verdicts[i]
        if (v is not None and v.card is None and v.rank is None and v.suit is None
                and turn.first_shows_none(firsts[i])
                and turn.both_agree(turned_reads[2 * k:2 * k + 2])):
            other = combine(turned_reads[2 * k:2 * k + 2], clf.calibration, enrolled=enrolled)
            if other.card is not None:
                verdicts[i], moved[i] = other, quad
                again = [j for j in again if j != i]
    fr = witnesses.FrameReads(image, cands, cuts, firsts, verdicts, clf.calibration, moved,
                              {i: (ps, turned_reads[2 * k:2 * k + 2])
                               for k, (i, (_, ps)) in enumerate(turns.items()) if i in moved})
    if not enrolled:  # number cards the network left unread: their pips as a witness
        # (before the second look: a count costs about a millisecond, a look a
        # network call, which the cards the pips settle are spared)
        witnesses.give_by_pips(fr)
        again = [i for i in again if verdicts[i] is None or verdicts[i].card is None]
    pair = getattr(clf, "fallback", None)
    if pair is not None:  # the cards still unread: a second opinion (fallback.py)
        asked = [i for i in range(len(cands)) if fr.unread(i)]
        opinions = pair.read([cuts[i] for i in asked], [firsts[i] for i in asked])
        for i, v in zip(asked, opinions):
            if v.card is not None:
                verdicts[i] = v
        again = [i for i in again if verdicts[i] is None or verdicts[i].card is None]
    if again:
        looks = clf.look_again_many(image, [(fr.quad(i), fr.visible(i), cuts[i])
                                            for i in again], [firsts[i] for i in again])
        for i, v in zip(again, looks):
            verdicts[i] = v
    if zoom and not enrolled:  # a closer look at the index (zoomlook.py; stills)
        closer = [i for i in range(len(cands)) if fr.unread(i)]
        zoomed = zoomlook.read_zoomed(clf, image, [
            (_corners(cands[i]), fr.visible(i), firsts[i]) for i in closer])
        for i, v in zip(closer, zoomed):
            if v is not None:
                verdicts[i] = v
    if not enrolled:  # a rank read surely, its suit sign printed beside it
        witnesses.give_split(fr)
    kept: dict[str, Any] = {} if known is None and found is None else {
        "known": known, "found": found}
    fr.verdicts[:] = decksuits.settle_suits(verdicts, cuts, firsts, clf.calibration, **kept)
    if sign_cuts and not enrolled:  # unread black cards: their signs at many cuts
        witnesses.give_by_cut_signs(fr)
    spoken = witnesses.refuse(fr, enrolled=enrolled, sign_veto=sign_veto, lattice=lattice,
                              ink_certain=ink_certain)
    if refused is not None:
        refused.update(spoken)
    witnesses.drop_two_in_one(fr, image.shape)
    out = []
    for i, (cand, v) in enumerate(zip(cands, verdicts)):
        corners = _points(moved[i]) if i in moved else _corners(cand)
        back = bool(getattr(cand, "face_down", False))
        if v is None or (back and v.card is None):
            out.append(CardSighting(corners, face_down=back))  # type: ignore[arg-type]
        else:
            out.append(CardSighting(corners, False, v.card, v.confidence,  # type: ignore
                                    v.rank, v.suit))
    visible = [tuple(getattr(c, "index_visible", (True, True))) for c in cands]
    return one_of_each(out, visible, [bool(getattr(c, "face_down", False)) for c in cands])


def one_of_each(sightings: list[CardSighting], visible: Sequence[tuple[bool, ...]],
                backs: Sequence[bool] | None = None) -> list[CardSighting]:
    """Unread the readings that a single deck makes impossible.

    A deck holds each card once, so two sightings read as the same card mean one of
    them is wrong. The likely culprit: a corner taken as visible although another card
    lies on it (the order of two overlapping cards misjudged), which then shows that
    card's own index. The sighting whose read index region lies on the other card is
    unread; when neither's does (or both do), both are, since which one is right
    cannot be told. `visible[i]`: which corner indices of sightings[i] were read;
    `backs[i]`: the detector took it for a back (unread, it is one again).
    """
    by_card: dict[str, list[int]] = {}
    for i, s in enumerate(sightings):
        if s.card is not None:
            by_card.setdefault(s.card, []).append(i)
    doubtful: set[int] = set()
    for idx in by_card.values():
        if len(idx) < 2:
            continue
        on_other = {i for i in idx for j in idx if i != j
                    and _index_on(sightings[i], visible[i], sightings[j])}
        doubtful |= on_other if 0 < len(on_other) < len(idx) else set(idx)
    if not doubtful:
        return sightings
    return [replace(s, card=None, confidence=0.0, rank=None, suit=None,
                    face_down=bool(backs and backs[i])) if i in doubtful
            else s for i, s in enumerate(sightings)]


#: An unread sighting overlapping a read one by this IoU, turned the same way within
#: SAME_WAY_DEG, is that card seen twice: on the rendered training decks (seeds
#: 7-12) all 23 such pairs at 0.6 or more were. Session 10's sweep (training and
#: calibration decks, seeds 20-25): of such pairs at 0.5-0.6, 16 were one card
#: seen twice, 4 two cards; the unread double of a card read (a strip card read
#: beside the detector's unread outline of it, IoU 0.58) took the card's truth in
#: evaluation, the read card counted where no card is. An unread card dropped is
#: a card not reported, never one reported wrong.
DOUBLE_IOU = 0.5
SAME_WAY_DEG = 20.0
#: ... or that lies this share of its own area inside the read card's quad, turned
#: its way (session 11's sweep: a tighter outline of a card read from a looser
#: quad, IoU 0.46-0.49 but 0.86-1.0 inside it, took the card's truth in
#: evaluation, the read card counted where no card is; calibration decks seed 30
#: scene 13, training decks seed 20 scene 100).
DOUBLE_INSIDE = 0.8


def without_doubles(sightings: Sequence[CardSighting]) -> list[CardSighting]:
    """`sightings` less the unread ones, taken for backs or not, that lie where a
    read card lies, turned its way (DOUBLE_IOU or DOUBLE_INSIDE, SAME_WAY_DEG).

    Why: the detector may give one card twice (its outline and a half of it grown
    whole; a card found by its index beside its outline), of which one reads and the
    other does not. The unread one would tell of a card seen but not read where
    there is no other card, and evaluation could match the card to it. Backs too:
    a second outline of a card read, mostly covered and its index corners hidden,
    is taken for a back by the detector's guess (rendered training decks seeds
    10, 11, 13: a read card reported beside "a back" in its place, the truth
    matched to the back); a back lying under a face-up card turned its way and
    overlapping it this much shows too little to be told from it."""
    read = [np.asarray(s.corners, np.float32) for s in sightings if s.card]
    if not read:
        return list(sightings)
    return [s for s in sightings
            if s.card is not None or not any(
                _double_of(q, r) for q in [np.asarray(s.corners, np.float32)] for r in read)]


def _double_of(q: np.ndarray, r: np.ndarray) -> bool:
    """Is the unread quad `q` the read card `r` seen again: IoU DOUBLE_IOU, or
    DOUBLE_INSIDE of `q` inside `r`, and turned its way (SAME_WAY_DEG)?"""
    inter, _ = cv2.intersectConvexConvex(q, r)
    if inter <= 0:
        return False
    area_q, area_r = float(cv2.contourArea(q)), float(cv2.contourArea(r))
    iou = inter / max(area_q + area_r - inter, 1e-6)
    return ((iou >= DOUBLE_IOU or inter >= DOUBLE_INSIDE * area_q)
            and same_way(q, r))


def same_way(a: np.ndarray, b: np.ndarray) -> bool:
    """Do the quads' long sides run within SAME_WAY_DEG of each other?"""
    def angle(q: np.ndarray) -> float:
        q = normalize_quad(q)
        v = (q[3] - q[0]) + (q[2] - q[1])
        return float(np.degrees(np.arctan2(v[1], v[0])))
    d = abs(angle(a) - angle(b)) % 180.0
    return min(d, 180.0 - d) <= SAME_WAY_DEG


def _index_on(s: CardSighting, visible: tuple[bool, ...], other: CardSighting) -> bool:
    """Does a read index region of `s` lie (COVERED_SHARE of it or more) on `other`?"""
    quad = np.asarray(other.corners, np.float32)
    for region, v in zip(index_quads(s.corners), visible):
        if not v:
            continue
        area = float(cv2.contourArea(region))
        inter, _ = cv2.intersectConvexConvex(region, quad)
        if area > 0 and inter >= COVERED_SHARE * area:
            return True
    return False


def read_candidate(clf: IndexClassifier, image: np.ndarray, cand: Any) -> CardSighting:
    """`read_candidates` for a single candidate (no other card to check it against)."""
    return read_candidates(clf, image, [cand])[0]


def read_image(clf: IndexClassifier, image: np.ndarray, detect: Detect | None = None
               ) -> list[CardSighting]:
    """Every card found in `image` (`still_detector`), read where the recogniser is
    sure, each card once (`without_doubles`). Stills only: the live pipeline keeps
    its frame budget. One ReadingMemo serves the photo's every step, the last
    reading included: each distinct patch goes through the network once."""
    memo = ReadingMemo(clf)
    cands = _still_candidates(memo, image, detect or default_detector())
    return without_doubles(read_candidates(memo, image, cands))


def still_detector(clf: IndexClassifier, detect: Detect | None = None) -> Detect:
    """The detection `read_image` reads from (evaluation matches its candidates
    itself): `detect` (default: the project's), then with `clf`: an outline round two
    cards in a row split where their indices say (unions.py), the cards of a row or
    fan found beside those from the strip of them in view (strips.py), cards no
    outline was found for looked for by their corner index (indexfind.py), a
    card partly under a book read from its part in view (partial.py), an unread
    outline round two cards cut to the card on top (topend.py), an unread
    outline on a card's printed frame grown to the paper's edge (paperedge.py), and
    one on a part of a card in view grown to the card (partgrow.py). Each call
    reads its photo through a ReadingMemo of its own (memo.py: a patch the steps
    share is read once)."""
    det = detect or default_detector()

    def detect_still(image: np.ndarray) -> list[Any]:
        return _still_candidates(ReadingMemo(clf), image, det)

    return detect_still


def _still_candidates(memo: ReadingMemo, image: np.ndarray, detect: Detect) -> list[Any]:
    """`_chain`'s candidates, with those it finds on the photo unsqueezed at the
    squeeze its read cards show added (unsqueeze.py: a photo resized
    non-uniformly)."""
    return unsqueeze.second_look(
        image, _chain(memo, image, detect), lambda im: _chain(memo, im, detect),
        lambda im, cands: read_candidates(memo, im, cands))


def _chain(memo: ReadingMemo, image: np.ndarray, detect: Detect) -> list[Any]:
    """`detect`'s candidates after unions, strips, indexfind, partial (a card
    under a book read from its part in view), topend (an unread outline round
    two cards cut to the card on top), paperedge (an unread outline on a card's
    printed frame grown to the paper's edge) and partgrow (an unread outline on a
    part of a card in view grown to the card), all reading through the photo's
    `memo`."""
    seen = split_unions(memo, image, detect(image))
    cands = find_by_index(memo, image, find_strips(memo, image, seen))
    cands = find_partial(memo, image, refuse_clashes(memo, image, cands, seen))
    cands = find_paper_edges(memo, image, find_top_ends(memo, image, cands))
    return find_grown_parts(memo, image, cands)
