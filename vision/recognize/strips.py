"""Cards in a row or a fan, each partly under the next: read from the strip of them
that shows (stills only).

Why here: the detector finds the card on top of a row (or an outline round the
row) and nothing of the cards under it. Each of those shows only a strip, with
one corner index at the strip's end, and the strip's outline is no card to any
shape test. But it is where geometry says: a card in a row is as big as the card
beside it, nearly parallel (a fan turns a few degrees a card), shifted along the
row by a strip's width, its far side a straight edge against the table or the card
beneath. So from each card found, both ways along its short side, the strip's far
side is looked for as a straight edge (shift and turn), its top and bottom sides as
edges continuing them (a small slide along the card's long side), and the one index
corner that would be in view is read, with the calibrated single-corner bars
(the search itself: stripgeom.py). A card read is taken as the next seed along
the row (rows of 3-5).

What keeps this from inventing cards (the referee trusts vision: a wrong card is
far worse than none): a strip card is reported only when its index reads a card
with the calibrated confidence and cuts of it a little further and nearer along
the row read no other card (`_steady`), its index region lies clear of the cards found
(a card's own index is not taken for a strip's), it lies where no card was found
(the same card found twice would be one too many), and it repeats no card read
already: a deck holds each card once. Two strips read as the same card from
different seeds are one card when they lie in one place, and none otherwise.

Stills only (`cardtable recognize`, evaluation), like unions.py: it costs a
network call or two of some dozens of patches a photo; the live pipeline keeps its
frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import cv2
import numpy as np

from vision.recognize.overlap import covered_share, quad_iou
from vision.recognize.patch import extract_index_patches, index_quads, normalize_quad
from vision.recognize.readings import Reading, combine
from vision.recognize.stripgeom import (
    CARD_ASPECT,
    gradients,
    long_over_short,
    row_ends,
    strip_quads,
)

#: Share of a strip card's read index region that may lie on a card's index corner
#: read already.
ON_INDEX = 0.05
#: Share of a strip card's read index region that may lie under the card it was
#: found beside (a strip of 15% of the width shows 60% of its index).
UNDER_BASE = 0.5
#: A strip card overlapping a candidate by this IoU is that card, found already.
SAME_CARD = 0.5
#: ... and a candidate not read that it overlaps by this IoU is that card, its
#: index unread: the strip card replaces it.
REPLACE = 0.7
#: ... as does any candidate not read lying in it (this share of its area).
INSIDE = 0.85
#: At most this many strips read a round (a crowded photo: time bounded).
MAX_TRIES = 96
#: Strips within this share of the width of the nearest one read lie next to the
#: seed (the nearest guess is not always the best placed).
NEXT = 0.12
#: How many cards along a row from one seed.
MAX_CHAIN = 4
#: A seed must be at least this share of the median area of the cards read (or of
#: the seeds, when none is).
MIN_SEED_AREA = 0.7
#: At most this many seeds a photo.
MAX_SEEDS = 12
#: A card read, or one not read the strips may replace, looks like one card: long
#: over short side within this range (a photo resized 0.8 x 1 makes a card's 1.4
#: 1.12 or 1.75).
SEED_ASPECT = (1.1, 1.8)
#: An outline whose long over short side is within this share of the cards'
#: is tried as a card ...
AS_CARD = (0.82, 1.22)
#: ... and one outside this share as a row (its end cards) too.
ONLY_CARD = (0.9, 1.1)


@dataclass(frozen=True, slots=True)
class Strip:
    """A strip card: its whole quad (normalised; its hidden part under the cards
    above), the index corner (0 or 2) in view, that corner's patch, the seed it
    was found from (index into the candidates), which way (+1/-1 along the
    seed's short side), its far side's edge strength, its shift from the seed,
    its index corner's patch, and the quad it lies beside
    (cut once it is worth reading)."""

    quad: np.ndarray
    corner: int
    seed: int
    way: int
    edge: float = 0.0
    shift: float = 0.0
    patch: np.ndarray | None = None
    base: np.ndarray | None = None



_FIELDS = {"corners", "index_visible", "index_patches", "patch_corners", "visible"}


def face_up_candidate(cand: Any) -> bool:
    """A detector candidate (a strip card is made from it by dataclasses.replace),
    not taken for a back."""
    return bool(is_dataclass(cand) and _FIELDS <= {f.name for f in fields(cand)}
                and not getattr(cand, "face_down", False))


def _clear(s: Strip, read: Sequence[np.ndarray], indices: Sequence[tuple[int, np.ndarray]],
           replaced: set[int], image_shape: tuple[int, ...],
           unread: Sequence[tuple[int, np.ndarray]] = ()) -> bool:
    """Does strip card `s` lie where no card read lies (`read`: their quads,
    strips accepted included) nor a card-shaped one not read that it does not
    replace (`unread`: (candidate, quad); the seed's own excepted), its index in
    the frame and off the index corners it may not read (`indices`, see
    `_first_reads`; those of the candidates the strip card replaces, `replaced`,
    excepted)?

    Why not off the cards read altogether: in a row, the detector's outline of the
    top card often takes in the strip beside it (the seam between two white cards
    is faint), and reads as the top card through its outer corner."""
    region = index_quads(s.quad)[s.corner // 2]
    h, w = image_shape[:2]
    if region.min() < 0 or region[:, 0].max() > w - 1 or region[:, 1].max() > h - 1:
        return False
    if any(quad_iou(s.quad, q) >= SAME_CARD for q in read):
        return False
    # (A card found, not read, that a strip card half covers without being it:
    # the two are one card, one of them misplaced, training decks seed 13.)
    if any(j != s.seed and j not in replaced and quad_iou(s.quad, q) >= SAME_CARD
           for j, q in unread):
        return False
    # Its index beside the card it was found from, not under it: a card found whose
    # index the detector took for covered is not read again from a guess beside
    # it sharing that corner (training decks, seed 9).
    if s.base is not None and covered_share(region, [s.base]) > UNDER_BASE:
        return False
    return not any(covered_share(region, [r]) > ON_INDEX for i, r in indices if i not in replaced)


def _card_shaped(quad: np.ndarray) -> bool:
    """Is the quad's long over short side that of a card (SEED_ASPECT)?"""
    return SEED_ASPECT[0] <= long_over_short(quad) <= SEED_ASPECT[1]



def _seeds(cands: Sequence[Any], cards: Sequence[str | None], shows: Sequence[bool]
           ) -> list[tuple[int, np.ndarray]]:
    """(candidate index, normalised card quad) to look beside: the cards found
    whole or covered, and the end cards of an outline round a row (an outline not
    shaped like a card: a card of card proportions at each end)."""
    # The cards' shape in this photo: the cards read (a photo may have been
    # resized non-uniformly), else a poker card's.
    shapes = [long_over_short(np.asarray(c.corners)) for c, card in zip(cands, cards)
              if card is not None and _card_shaped(np.asarray(c.corners))]
    aspect = float(np.median(shapes)) if shapes else CARD_ASPECT
    out = []
    for i, c in enumerate(cands):
        if not face_up_candidate(c):
            continue
        q = normalize_quad(c.corners)
        # (Between a card's shape and an outline's round two cards: both. As a
        # card only when a corner of it shows an index: else it is likely a part
        # of a card, IMG_2505, whose own index a strip beside it would read.)
        ratio = long_over_short(q) / aspect
        if AS_CARD[0] <= ratio <= AS_CARD[1] and shows[i]:
            out.append((i, q))
        if not ONLY_CARD[0] <= ratio <= ONLY_CARD[1]:
            out += [(i, end) for end in row_ends(q, aspect)]
    # Not a card's picture frame or a part of a card taken for one: as big as the
    # cards read (when none is, as the seeds).
    areas = [float(cv2.contourArea(q)) for _, q in out]
    sure = [float(cv2.contourArea(np.asarray(c.corners, np.float32).reshape(4, 2)))
            for c, card in zip(cands, cards) if card is not None]
    if not areas:
        return out
    typical = float(np.median(sure or areas))
    kept = [(i, q) for (i, q), a in zip(out, areas) if a >= MIN_SEED_AREA * typical]
    # (A crowded photo, IMG_2542's 21 outlines: the cards read first, time bounded.)
    kept.sort(key=lambda x: cards[x[0]] is None)
    return kept[:MAX_SEEDS]


def find_strips(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` and the strip cards read beside them (see module); a candidate not
    read, where a strip card lies (IoU SAME_CARD), gives way to it. `clf`: an
    IndexClassifier (its `classify` and `calibration`); candidates are detector
    CardCandidates (others are passed through untouched)."""
    if getattr(clf, "deck", None) is not None or not cands:
        return list(cands)
    cards, shows, indices = _first_reads(clf, cands)
    seeds = _seeds(cands, cards, shows)
    if not seeds:
        return list(cands)
    gx, gy = gradients(image)
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    taken = {c for c in cards if c is not None}
    read = [q for q, c in zip(quads, cards) if c is not None]
    unread = [j for j, c in enumerate(cards) if c is None]
    shaped = [(j, quads[j]) for j in unread if face_up_candidate(cands[j]) and _card_shaped(quads[j])]
    fronts = [(i, q, way) for i, q in seeds for way in (1, -1)]
    accepted: list[tuple[Strip, str, float]] = []
    for _ in range(MAX_CHAIN):
        tries = [Strip(q, k, i, way, e, t, base=seed)
                 for i, seed, way in fronts for q, k, e, t in strip_quads(seed, way, gx, gy)]
        tries = [s for s in tries if _clear(s, read + [a.quad for a, _, _ in accepted],
                                            indices, _replaced(s, quads, unread), image.shape,
                                            shaped)]
        if not tries:
            break
        # (A crowded photo: the strongest edges first, the network's time bounded.)
        tries = sorted(tries, key=lambda s: -s.edge)[:MAX_TRIES]
        tries = [replace(s, patch=extract_index_patches(image, s.quad)[s.corner // 2])
                 for s in tries]
        reads = clf.classify([s.patch for s in tries])
        passing = [(s, v) for s, v in ((s, combine([r], clf.calibration))
                                       for s, r in zip(tries, reads))
                   if v.card is not None and v.card not in taken]
        sure: dict[tuple[int, int], list[tuple[Strip, str, float]]] = {}
        for s, v in _steady(clf, image, passing):
            sure.setdefault((s.seed, s.way), []).append((s, v.card, v.confidence))
        new = _one_each([_nearest(xs) for xs in sure.values()], accepted)
        accepted += new
        fronts = [(s.seed, s.quad, s.way) for s, _, _ in new]
    gone = {j for s, _, _ in accepted for j in _replaced(s, quads, unread)}
    return ([c for j, c in enumerate(cands) if j not in gone]
            + [_as_card(cands[s.seed], s) for s, _, _ in accepted])


#: A strip card's index is cut again this share of its width either way along
#: the row (where the strip card lies along the row is the guess).
LOOK_SHIFTS = (-0.04, 0.04)


def _steady(clf: Any, image: np.ndarray, passing: list[tuple[Strip, Any]]
            ) -> list[tuple[Strip, Any]]:
    """The strip cards of `passing` (strip card, verdict) whose index, cut again a
    little further and nearer along the row (LOOK_SHIFTS), reads no other card
    more surely than the calibration's `disagree_prob` (one network call).

    Why: a strip card's place along the row is a guess, and a cut a few pixels off
    takes in a part of the index (or the card's edge) that the network may read as
    another card, surely: two cuts of one index are two looks at it, and where
    they name two cards the index is not read (real train photos resized 1.2 x 1,
    IMG_2650: a queen's index cut across the jack's edge read KH at 0.997, QH
    at 0.79 4% of a width further on). The same rule as for a card's two corners
    (readings.combine) and indexfind.agree's tries."""
    if not passing:
        return []
    cuts = []
    for s, _ in passing:
        step = s.quad[1] - s.quad[0]  # (normalised: the short side, across the row)
        cuts += [extract_index_patches(image, s.quad + f * step)[s.corner // 2]
                 for f in LOOK_SHIFTS]
    looks = clf.classify(cuts)
    per = len(LOOK_SHIFTS)
    bar = clf.calibration.disagree_prob
    return [(s, v) for k, (s, v) in enumerate(passing)
            if not any(r.rank is not None and f"{r.rank}{r.suit}" != v.card
                       and r.confidence > bar for r in looks[k * per:(k + 1) * per])]


def _replaced(s: Strip, quads: Sequence[np.ndarray], unread: Sequence[int]) -> set[int]:
    """The candidates strip card `s` replaces, of those not read (`unread`), its
    seed excepted (a narrow strip lies almost where its seed does, IMG_2616): a
    card-shaped one lying where it lies (REPLACE), and any lying in it (INSIDE):
    the strip itself, outlined (IMG_2648 resized 0.8 x 1). (An outline round the
    strip and more stays: it is likely the card over the strip taken together
    with it, found by nothing else, IMG_2601.)"""
    out = set()
    for j in unread:
        if j == s.seed:
            continue
        area = float(cv2.contourArea(quads[j]))
        inter = float(cv2.intersectConvexConvex(s.quad, quads[j])[0])
        lies_in = area > 0 and inter >= INSIDE * area
        if lies_in or (_card_shaped(quads[j]) and quad_iou(s.quad, quads[j]) >= REPLACE):
            out.add(j)
    return out


#: A candidate none of whose corners the network takes for an index at this
#: "not an index" probability or less shows no index: no card's outline (a part
#: of a card, IMG_2505), and no seed.
SHOWS_INDEX = 0.5


def _first_reads(clf: Any, cands: Sequence[Any]
                 ) -> tuple[list[str | None], list[bool], list[tuple[int, np.ndarray]]]:
    """The card each candidate's own patches read at the reader's first look (None:
    none, or not a detector candidate), whether a corner of it shows an index
    (SHOWS_INDEX), and the index corners a strip card may not
    read, each with its candidate: the visible corners that read a card on their
    own, and both corners of a card-shaped candidate not read, seen or taken for
    covered (a card whose index did not settle it: a strip guess there would read
    it from the wrong place, training decks seed 9; unless the strip card is that
    card, which `find_strips` then replaces)."""
    own = [(i, k, p) for i, c in enumerate(cands)
           for k, p in zip(getattr(c, "patch_corners", ()), getattr(c, "index_patches", ()))]
    reads: list[Reading] = clf.classify([p for _, _, p in own]) if own else []
    cards: list[str | None] = []
    shows: list[bool] = []
    for i in range(len(cands)):
        mine = [r for (j, _, _), r in zip(own, reads) if j == i]
        cards.append(combine(mine, clf.calibration).card if mine else None)
        shows.append(any(r.none_prob <= SHOWS_INDEX for r in mine))
    regions = [(i, index_quads(cands[i].corners)[k // 2]) for (i, k, _), r in zip(own, reads)
               if combine([r], clf.calibration).card is not None]
    regions += [(i, r) for i, c in enumerate(cands) if cards[i] is None and face_up_candidate(c)
                and _card_shaped(np.asarray(c.corners)) for r in index_quads(c.corners)]
    return cards, shows, regions


def _nearest(reads: list[tuple[Strip, str, float]]) -> tuple[Strip, str, float]:
    """Of the strips read beside one seed one way: the surest of those next to the
    seed (within NEXT of the nearest). Why not the surest of all: a card further
    on, read through the gap, would leave out the one between (IMG_2648 resized
    0.8 x 1)."""
    near = min(s.shift for s, _, _ in reads)
    return max((x for x in reads if x[0].shift <= near + NEXT), key=lambda x: x[2])


def _one_each(new: list[tuple[Strip, str, float]], old: list[tuple[Strip, str, float]]
              ) -> list[tuple[Strip, str, float]]:
    """Of strip cards read as the same card: one, when they lie in one place (found
    from two seeds), none when they do not (one of them is wrong); none repeating a
    card accepted before."""
    done = {c for _, c, _ in old}
    by_card: dict[str, list[tuple[Strip, str, float]]] = {}
    for x in new:
        if x[1] not in done:
            by_card.setdefault(x[1], []).append(x)
    out = []
    for group in by_card.values():
        group.sort(key=lambda x: -x[2])
        if all(quad_iou(group[0][0].quad, x[0].quad) >= SAME_CARD for x in group[1:]):
            out.append(group[0])
    return out


#: The share of a strip card reported as in view (`visible`): a strip.
STRIP_VISIBLE = 0.3


def _as_card(seed: Any, s: Strip) -> Any:
    """A candidate like `seed` for strip card `s`: its index seen at one corner."""
    corners = tuple((float(x), float(y)) for x, y in s.quad)
    return replace(seed, corners=corners, face_down=False, visible=STRIP_VISIBLE,
                   index_visible=(s.corner == 0, s.corner == 2),
                   index_patches=(s.patch,), patch_corners=(s.corner,))
