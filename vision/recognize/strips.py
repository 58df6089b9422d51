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
corner that would be in view is read, with the calibrated single-corner bars. A
card read is taken as the next seed along the row (rows of 3-5).

What keeps this from inventing cards (the referee trusts vision: a wrong card is
far worse than none): a strip card is reported only when its index reads a card
with the calibrated confidence, its index region lies clear of the cards found
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

from vision.recognize.patch import extract_index_patches, index_quads, normalize_quad
from vision.recognize.readings import Reading, combine

#: Shift of a strip card from its seed, as a share of the card's width.
SHIFT = (0.15, 0.92)
#: Turns of a fan card against its seed (degrees).
TURNS = (-10.0, -7.5, -5.0, -2.5, 0.0, 2.5, 5.0, 7.5, 10.0)
#: Slide of a strip card along its long side, as a share of the card's height.
SLIDE = 0.12
#: The far side must be an edge: its mean gradient across at least this (grey
#: levels per pixel, Sobel 3x3 on a 5x5 blur) ...
MIN_EDGE = 8.0
#: ... and the strips tried per seed and way: the strongest far-side edges.
PEAKS = 8
#: ... at least this share of the width apart.
PEAK_GAP = 0.04
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


def _gradients(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    blur = cv2.GaussianBlur(grey, (5, 5), 0)
    return (cv2.Sobel(blur, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(blur, cv2.CV_32F, 0, 1, ksize=3))


def _edge_along(gx: np.ndarray, gy: np.ndarray, a: np.ndarray, b: np.ndarray,
                n: int = 24) -> np.ndarray:
    """Mean gradient across segments a->b (arrays (..., 2)), sampled at n points
    from 8% to 92% of their length (the ends may be under other cards' corners);
    points outside the image count 0."""
    f = np.linspace(0.08, 0.92, n, dtype=np.float32)
    pts = a[..., None, :] + (b - a)[..., None, :] * f[:, None]
    d = b - a
    norm = np.hypot(d[..., 0], d[..., 1])[..., None] + 1e-6
    nx, ny = -d[..., 1:2] / norm, d[..., 0:1] / norm
    h, w = gx.shape
    xi = np.rint(pts[..., 0]).astype(np.int64)
    yi = np.rint(pts[..., 1]).astype(np.int64)
    ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    xi, yi = np.clip(xi, 0, w - 1), np.clip(yi, 0, h - 1)
    g = np.abs(gx[yi, xi] * nx + gy[yi, xi] * ny) * ok
    return g.mean(axis=-1)


def _turned(q: np.ndarray, deg: float) -> np.ndarray:
    c = q.mean(axis=0)
    a = np.radians(deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (q - c) @ rot.T + c


def _peaks(profile: np.ndarray, spacing: int, count: int, floor: float) -> list[int]:
    """Indices of the `count` highest local maxima of `profile` at least `floor`,
    at least `spacing` apart."""
    order = np.argsort(-profile)
    out: list[int] = []
    for i in order:
        if profile[i] < floor or len(out) >= count:
            break
        if all(abs(int(i) - j) >= spacing for j in out):
            out.append(int(i))
    return out


def strip_quads(seed: np.ndarray, way: int, gx: np.ndarray, gy: np.ndarray
                ) -> list[tuple[np.ndarray, int, float, float]]:
    """The strip cards worth reading beside the normalised card quad `seed`, `way`
    +1 (towards its corner 1 side) or -1 (its corner 0 side): per strip its quad,
    the index corner that would be in view (see module), its far side's edge
    strength and its shift (share of the width)."""
    u = seed[1] - seed[0]
    width = float(np.hypot(*u))
    v = seed[3] - seed[0]
    height = float(np.hypot(*v))
    if width < 8 or height < 8:
        return []
    ts = np.arange(SHIFT[0], SHIFT[1], 1.0 / width, dtype=np.float32)
    turned = np.stack([_turned(seed, a) for a in TURNS])  # (A, 4, 2)
    # Every (turn, shift): the far side of the strip card.
    hyp = turned[:, None] + (way * ts)[None, :, None, None] * u  # (A, T, 4, 2)
    top, bottom = (1, 2) if way > 0 else (0, 3)
    score = _edge_along(gx, gy, hyp[..., top, :], hyp[..., bottom, :])  # (A, T)
    best_turn = score.argmax(axis=0)
    profile = score.max(axis=0)
    out = []
    for i in _peaks(profile, max(2, int(PEAK_GAP * width)), PEAKS, MIN_EDGE):
        q = _fine(seed, way, TURNS[best_turn[i]], float(ts[i]), gx, gy)
        out.append((_slid(q, way, gx, gy), 2 if way > 0 else 0, float(profile[i]),
                    float(ts[i])))
    return out


#: The fine search round a coarse (turn, shift): turns (degrees) and shifts (share
#: of the width) this far either way.
FINE_TURN, FINE_SHIFT = 2.0, 0.03


def _fine(seed: np.ndarray, way: int, turn: float, t: float, gx: np.ndarray,
          gy: np.ndarray) -> np.ndarray:
    """The strip card at the coarse (`turn`, `t`) beside `seed`, its far side
    snapped onto the strongest edge within FINE_TURN degrees and FINE_SHIFT of it
    (the coarse grid's 2.5 degrees put a far corner a few pixels off the card's,
    enough to misplace a strip's whole card on a small photo)."""
    u = seed[1] - seed[0]
    width = float(np.hypot(*u))
    turns = turn + np.arange(-FINE_TURN, FINE_TURN + 1e-6, 0.5)
    ts = t + np.arange(-FINE_SHIFT, FINE_SHIFT + 1e-6, 0.5 / width, dtype=np.float32)
    turned = np.stack([_turned(seed, float(a)) for a in turns])
    hyp = turned[:, None] + (way * ts)[None, :, None, None] * u
    top, bottom = (1, 2) if way > 0 else (0, 3)
    score = _edge_along(gx, gy, hyp[..., top, :], hyp[..., bottom, :])
    a, i = np.unravel_index(int(score.argmax()), score.shape)
    return hyp[a, i].astype(np.float32)


def _slid(q: np.ndarray, way: int, gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """`q` slid along its long side to where its top and bottom sides, over the
    strip that shows (the far quarter of the card), lie on edges."""
    height = float(np.hypot(*(q[3] - q[0])))
    v = (q[3] - q[0]) / max(height, 1e-6)
    ss = np.arange(-SLIDE, SLIDE + 1e-6, 1.0 / height, dtype=np.float32) * height
    far, near = ((1, 0), (2, 3)) if way > 0 else ((0, 1), (3, 2))
    # The strip's visible stretch of the top and bottom sides: from the far corner
    # a fifth of the width in.
    a_top, b_top = q[far[0]], q[far[0]] + 0.2 * (q[far[1]] - q[far[0]])
    a_bot, b_bot = q[near[0]], q[near[0]] + 0.2 * (q[near[1]] - q[near[0]])
    shift = ss[:, None] * v
    score = (_edge_along(gx, gy, a_top + shift, b_top + shift, 8)
             + _edge_along(gx, gy, a_bot + shift, b_bot + shift, 8))
    return (q + ss[int(score.argmax())] * v).astype(np.float32)


_FIELDS = {"corners", "index_visible", "index_patches", "patch_corners", "visible"}


def _usable(cand: Any) -> bool:
    """A detector candidate (a strip card is made from it), not taken for a back."""
    return bool(is_dataclass(cand) and _FIELDS <= {f.name for f in fields(cand)}
                and not getattr(cand, "face_down", False))


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = float(cv2.contourArea(a)) + float(cv2.contourArea(b)) - inter
    return float(inter / union) if union > 0 else 0.0


def _covered(region: np.ndarray, quads: Sequence[np.ndarray]) -> float:
    """Share of the index `region` that the `quads` cover (overlaps counted twice)."""
    area = float(cv2.contourArea(region))
    if area <= 0:
        return 1.0
    return sum(float(cv2.intersectConvexConvex(region, q)[0]) for q in quads) / area


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
    if any(_iou(s.quad, q) >= SAME_CARD for q in read):
        return False
    # (A card found, not read, that a strip card half covers without being it:
    # the two are one card, one of them misplaced, training decks seed 13.)
    if any(j != s.seed and j not in replaced and _iou(s.quad, q) >= SAME_CARD
           for j, q in unread):
        return False
    # Its index beside the card it was found from, not under it: a card found whose
    # index the detector took for covered is not read again from a guess beside
    # it sharing that corner (training decks, seed 9).
    if s.base is not None and _covered(region, [s.base]) > UNDER_BASE:
        return False
    return not any(_covered(region, [r]) > ON_INDEX for i, r in indices if i not in replaced)


#: A card's long side over its short one (poker 88/63).
CARD_ASPECT = 1.4


def _side_lengths(q: np.ndarray) -> tuple[float, float]:
    """Mean lengths of sides 0-1/3-2 and of sides 0-3/1-2."""
    a = 0.5 * (np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[3])))
    b = 0.5 * (np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1])))
    return float(a), float(b)


def _aspect(quad: np.ndarray) -> float:
    """Long over short side of the quad (means of opposite sides)."""
    a, b = _side_lengths(normalize_quad(quad))
    return max(a, b) / max(min(a, b), 1e-6)


def _card_shaped(quad: np.ndarray) -> bool:
    """Is the quad's long over short side that of a card (SEED_ASPECT)?"""
    return SEED_ASPECT[0] <= _aspect(quad) <= SEED_ASPECT[1]


def row_ends(quad: np.ndarray, aspect: float = CARD_ASPECT) -> list[np.ndarray]:
    """The cards at the two ends of an outline round a row of cards standing
    across it (normalised quads), each as tall as the outline is across and
    `aspect` (the cards' long over short side) times narrower: along its long sides, or, for a near-square
    outline (which way the row runs is not told), along either pair of sides."""
    q = normalize_quad(quad)
    a, b = _side_lengths(q)  # (normalised: sides 0-1 are the short ones)
    out = []
    for p, length, across in ((q, b, a), (q[[1, 2, 3, 0]], a, b)):
        t = across / aspect / max(length, 1e-6)
        if t > 0.8:
            continue
        # The row runs along p0->p3 and p1->p2; the end cards span p0-p1, p3-p2.
        out.append(np.array([p[0], p[1], p[1] + (p[2] - p[1]) * t, p[0] + (p[3] - p[0]) * t]))
        out.append(np.array([p[3] + (p[0] - p[3]) * t, p[2] + (p[1] - p[2]) * t, p[2], p[3]]))
    return [normalize_quad(e) for e in out]


def _seeds(cands: Sequence[Any], cards: Sequence[str | None], shows: Sequence[bool]
           ) -> list[tuple[int, np.ndarray]]:
    """(candidate index, normalised card quad) to look beside: the cards found
    whole or covered, and the end cards of an outline round a row (an outline not
    shaped like a card: a card of card proportions at each end)."""
    # The cards' shape in this photo: the cards read (a photo may have been
    # resized non-uniformly), else a poker card's.
    shapes = [_aspect(np.asarray(c.corners)) for c, card in zip(cands, cards)
              if card is not None and _card_shaped(np.asarray(c.corners))]
    aspect = float(np.median(shapes)) if shapes else CARD_ASPECT
    out = []
    for i, c in enumerate(cands):
        if not _usable(c):
            continue
        q = normalize_quad(c.corners)
        # (Between a card's shape and an outline's round two cards: both. As a
        # card only when a corner of it shows an index: else it is likely a part
        # of a card, IMG_2505, whose own index a strip beside it would read.)
        ratio = _aspect(q) / aspect
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
    gx, gy = _gradients(image)
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    taken = {c for c in cards if c is not None}
    read = [q for q, c in zip(quads, cards) if c is not None]
    unread = [j for j, c in enumerate(cards) if c is None]
    shaped = [(j, quads[j]) for j in unread if _usable(cands[j]) and _card_shaped(quads[j])]
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
        sure: dict[tuple[int, int], list[tuple[Strip, str, float]]] = {}
        for s, r in zip(tries, reads):
            v = combine([r], clf.calibration)
            if v.card is not None and v.card not in taken:
                sure.setdefault((s.seed, s.way), []).append((s, v.card, v.confidence))
        new = _one_each([_nearest(xs) for xs in sure.values()], accepted)
        accepted += new
        fronts = [(s.seed, s.quad, s.way) for s, _, _ in new]
    gone = {j for s, _, _ in accepted for j in _replaced(s, quads, unread)}
    return ([c for j, c in enumerate(cands) if j not in gone]
            + [_as_card(cands[s.seed], s) for s, _, _ in accepted])


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
        if area > 0 and inter >= INSIDE * area:
            out.add(j)
        elif _card_shaped(quads[j]) and _iou(s.quad, quads[j]) >= REPLACE:
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
    regions += [(i, r) for i, c in enumerate(cands) if cards[i] is None and _usable(c)
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
        if all(_iou(group[0][0].quad, x[0].quad) >= SAME_CARD for x in group[1:]):
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
