"""`detect_cards`: every card on the table, face up or down, with its corners, which
card lies on which, and the upright crops of its visible corner indices.

How (see the modules for why): gather edge evidence at a bounded work scale; propose
quads from closed outlines (whole cards: whole.py), from right-angled corners of
merged outlines (overlapping cards: proposals.py) and from straight borders
crossing an outline found whole (a fan whose outline is card-shaped itself:
splits.py) and at faint seams and
the ends of a row of cards each partly over the next (rows.py), and beside a card
found whole at the end of an outline holding it (beside.py); snap them onto the
edges, the ones falling just short again from further away (rescue.py); credit a
card running out of the picture the outline it cannot show (cutoff.py); drop
shapes printed on a card (printed.py), outlines far smaller than the cards
(sizes.py), blank sheets (blank.py), outlines split by a seam or holding a card
along three sides (seams.py, prune.py); keep a consistent set, cards on top
first, covered cards as big as the ones seen whole, half a card chosen as the
card grown to the card (extend.py), a court card whose border hardly shows grown
from the frame printed round its picture (frames.py);
then decide, for each pair that overlaps, which is on top, so that an index hidden
under another card is not handed to the recogniser (stacking.py), and describe each
card as a `CardCandidate` (describe.py). A photo whose cards show it
resized non-uniformly is searched once more unsqueezed, the two looks merged
(squeeze.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import beside, darkest, proposals, prune, refine, rows, select, splits
from vision.detect import geometry as g
from vision.detect.candidate import CardCandidate
from vision.detect.cutoff import credit_cut_off
from vision.detect.describe import describe
from vision.detect.evidence import Evidence, gather
from vision.detect.extend import extend_parts
from vision.detect.frames import grow_frames
from vision.detect.printed import printed_on_card, white_level
from vision.detect.rescue import snap_again
from vision.detect.sizes import drop_tiny
from vision.detect.squeeze import second_look
from vision.detect.stacking import stack_order
from vision.detect.whole import contours, outline_quads
from vision.types import VisionError

__all__ = ["BadFrame", "DetectorConfig", "check_image", "detect_cards"]


class BadFrame(VisionError, ValueError):
    """An array that is not a BGR/grey/BGRA uint8 image (None, empty, wrong shape)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"not an image frame: {what}")
        self.what = what


@dataclass(frozen=True, slots=True)
class DetectorConfig:
    """Knobs of the detector; the defaults suit a table seen from 0.5-1.5 m.

    `min_card_frac`: smallest card short side, as a share of the image's long side.
    `with_patches`: cut index patches (the pipeline needs them; recall tests don't).
    `unsqueeze`: look again at a frame whose cards show it squeezed (squeeze.py;
    a photo resized non-uniformly, a steep camera), or at 0.8 and 1.25 when no card
    of the first look is sure enough to tell: 17-30 ms a look, on such frames only.
    """

    min_card_frac: float = 0.04
    max_cards: int = 60
    min_support: float = 0.75
    max_refine: int = 50
    with_patches: bool = True
    unsqueeze: bool = True


def check_image(image: object) -> np.ndarray:
    """Return `image` as a contiguous BGR uint8 array, or raise BadFrame."""
    if not isinstance(image, np.ndarray):
        raise BadFrame(f"expected a numpy array, got {type(image).__name__}")
    if image.size == 0 or image.ndim not in (2, 3):
        raise BadFrame(f"array of shape {image.shape}")
    if image.dtype != np.uint8:
        raise BadFrame(f"dtype {image.dtype} (expected uint8)")
    if image.ndim == 2:
        return np.ascontiguousarray(np.repeat(image[:, :, None], 3, axis=2))
    if image.shape[2] == 4:
        return np.ascontiguousarray(image[:, :, :3])
    if image.shape[2] == 1:
        return np.ascontiguousarray(np.repeat(image, 3, axis=2))
    if image.shape[2] != 3:
        raise BadFrame(f"{image.shape[2]} channels")
    return image


def detect_cards(image: np.ndarray, config: DetectorConfig = DetectorConfig()) -> list[CardCandidate]:
    """Find the cards in a BGR image; see the module docstring.

    Returns candidates ordered top-to-bottom in the pile order found (cards lying on
    top first), then by position. A black or empty-table frame gives an empty list.

    Raises:
        BadFrame: `image` is not an image array.
    """
    image = check_image(image)
    if min(image.shape[:2]) < 16:
        return []
    ev = gather(image)
    quads = find_quads(ev, config)
    support = [x.support for x in select.score_many(ev, quads)]
    # A frame resized non-uniformly: a second look at it unsqueezed (squeeze.py).
    merged = (second_look(image, ev, quads, support, lambda e: find_quads(e, config))
              if config.unsqueeze else None)
    if merged is not None:
        quads = stack_order(merged, ev)
        support = [x.support for x in select.score_many(ev, quads)]
    full = refine.refine_full(image, [q / ev.scale for q in quads], ev.scale)
    box = g.boxes(quads)
    return [describe(image, ev, i, quads, box, full, support[i], config.with_patches)
            for i in range(len(quads))]


def find_quads(ev: Evidence, config: DetectorConfig) -> list[np.ndarray]:
    """Card quads at work scale, on-top cards first."""
    h, w = ev.shape
    min_short = max(10.0, config.min_card_frac * max(h, w))
    min_area = min_short * min_short * g.ASPECT_MIN * 0.8
    cs = contours(ev, min_area)
    whole: list[np.ndarray] = []
    rest: list[np.ndarray] = []
    for c in cs:
        found, plain = outline_quads(c)
        whole.extend(found)
        if not plain:
            rest.append(c)  # not plainly a card: also try it corner by corner
    loose = list(rest)  # (a row's outline is no card: beside.row_rects)
    found, corners = darkest.darkest_quads(ev, cs, min_area)  # busy tables only
    whole.extend(found)
    rest.extend(corners)
    # The same outline comes from several contours: one of each before polishing.
    outlines = _polish(ev, select.nms(select.dedupe(select.score_many(ev, whole)), 0.8))
    first = select.nms([s for s in outlines if s.support >= 0.3], 0.8)
    white = white_level(ev)
    deduped = select.dedupe(first)
    scored = _not_printed(ev, deduped, white)
    kept = {id(s) for s in scored}
    printed = [s for s in deduped if id(s) not in kept]  # frames, pips (frames.py)
    strong = [s for s in scored if s.support >= 0.88]
    sizes = _typical_sizes(strong)
    # Where the cards found whole lie (asked twice below: made once).
    strong_mask = _strong_mask(strong, ev.shape) if strong else None
    rest, inner = _unexplained(rest, strong, sizes, ev.shape, strong_mask)
    guesses = proposals.corner_hypotheses(rest, sizes, min_short)
    # A row of cards (a spread): its end cards, which no corner gives (rows.py).
    guesses += rows.end_guesses(rest, sizes, min_short)
    # A big outline inside a strong one may be a card of a touching pair (the strong
    # outline being the pair): guess from its own sides, not from the pair's size.
    halves = [(min(s, l / 2), max(s, l / 2)) for s, l in sizes]
    # (Coarsely simplified only: finely, the picture frame of a court card found
    # whole gave corners whose halves beat the card.)
    guesses += proposals.corner_hypotheses(inner, halves, min_short, side_guesses=True,
                                           fine=False)
    # A fan whose outline is card-shaped was found whole: its cards' borders cross it.
    # (Outlines found whole only: splitting every one of 0.75 support or more
    # found no card more on the training decks or the real train photos.)
    guesses += splits.split_guesses(ev, [s.quad for s in strong])
    # A row of cards each partly over the next, found whole as one card: its
    # seams are too faint for the edge map (rows.py): the row is no card.
    seams = rows.row_seams(ev, *rows.candidates([s.quad for s in strong]))
    # (Not snapped: a covered end card's hidden side snapped onto the pips of
    # the card on it, too wide a card holding both, IMG_2632.)
    in_row = [s for s in select.score_many(ev, rows.row_guesses(seams)) if s.support >= 0.3]
    if rest or not strong:
        # Overlapping or merged cards somewhere: also look for corners made by
        # straight border segments, outside the cards already found whole.
        corners = proposals.segment_corners(ev.edges, min_short * 0.8, strong_mask)
        guesses += proposals.complete_corners(corners, sizes, min_short, side_guesses=True)
    hyps = select.score_many(ev, _distinct(guesses))
    # Corner guesses ignore perspective: snap the promising ones onto the edges.
    hyps = select.dedupe([s for s in hyps if s.support >= 0.3])
    hyps.sort(key=lambda s: -s.support)
    polished = _polish(ev, hyps[: config.max_refine])
    pool = select.dedupe(scored + _not_printed(ev, polished + hyps[config.max_refine:] + in_row, white))
    pool, groups = prune.split_groups(pool, frame=(ev.shape[1], ev.shape[0]))
    if groups:
        # The other cards of a fan or a sloppy stack start at the group's
        # corners, and are as big as the card found on top of it (the group's
        # sides run on past theirs: proposals.RUN_ON).
        more = [q for group, card in groups for q in proposals.complete_corners(
            proposals.quad_corners(group.quad), _typical_sizes([card]), min_short,
            run_on=proposals.RUN_ON)
            if g.iou(q, group.quad) < 0.8]  # not the group again
        paired = _not_printed(ev, _polish(ev, select.score_many(ev, more)), white)
    else:
        paired = []
    # (Not the group's cards: with their far side hidden under the top card,
    # the wide snap tilted it onto the top card's pictures, IMG_2632.)
    pool += _not_printed(ev, snap_again(ev, pool, config.min_support, sizes), white)
    pool += paired
    if seams:
        pool = rows.drop_rows(pool, seams)
    # The card under one found whole, beside it at the end of an outline
    # holding both; that outline, nearly square, is no card (beside.py).
    pool, ends = beside.split_rows(pool, loose)
    # (Not the printed test: a guess stands on a row's end side, an outline's;
    # it cost 0.14 ms a bench frame and changed nothing on the development sets.)
    pool += select.score_many(ev, ends)
    stacked = np.stack([s.quad for s in pool]).astype(np.float32) if pool else None
    pool = credit_cut_off(ev, pool, sizes, stacked)
    pool = drop_tiny(ev, pool, config.min_support, stacked)
    chosen = select.choose(
        ev, pool, min_support=config.min_support, max_cards=config.max_cards
    )
    # A part of a card chosen as the card (a cut through its print): grown (extend.py).
    cards = extend_parts(ev, [c.quad for c in chosen])
    # A court card whose border hardly shows: grown from its picture frame (frames.py).
    grown, pieces = grow_frames(ev, printed, cards, white)
    if grown:
        cards = [c for i, c in enumerate(cards) if i not in pieces] + grown
    return stack_order(cards, ev)


def _distinct(quads: list[np.ndarray], grid: float = 2.0) -> list[np.ndarray]:
    """The quads without repeats (the same corner comes from a contour and from
    straight segments, and several sizes coincide): one of each on a 2 px grid."""
    if len(quads) < 2:
        return list(quads)
    keys = np.rint(np.stack(quads).reshape(len(quads), 8) / grid).astype(np.int32)
    return [quads[i] for i in select.first_per_key(keys, np.arange(len(quads)))]


def _not_printed(
    ev: Evidence, hyps: list[select.Scored], white: tuple[float, float]
) -> list[select.Scored]:
    """Drop pips and frames printed on a card (see printed.py)."""
    if not hyps:
        return []
    printed = printed_on_card(ev, np.stack([s.quad for s in hyps]), white)
    return [s for s, p in zip(hyps, printed) if not p]


def _polish(ev: Evidence, hyps: list[select.Scored]) -> list[select.Scored]:
    """Snap outlines onto the edges before judging them, keeping the better of
    before and after.

    Why before: the paper mask's outline runs a few pixels inside the card's border
    (light falls off at the rim), so judged where it lies a plain card on busy wood
    grain, whose edge contour merged with the grain, looks unsupported.
    """
    if not hyps:
        return []
    moved = g.order_quads(refine.refine_many(ev, np.stack([s.quad for s in hyps])))
    shaped = g.card_shaped_many(moved, max_angle_dev=35.0)
    rescored = select.score_many(ev, list(moved))
    return [r if ok and r.support >= s.support else s for s, r, ok in zip(hyps, rescored, shaped)]


def _unexplained(
    rest: list[np.ndarray], strong: list[select.Scored], sizes: list[tuple[float, float]],
    shape: tuple[int, int], mask: np.ndarray | None = None,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Split outlines not already found whole as cards into those outside every
    strong card and big ones inside one; drop the rest (pips and pictures of a card
    found whole, and outlines much smaller than a card). `mask`: `_strong_mask` of
    `strong`, if already made."""
    if not strong:
        return rest, []
    typical = min(s * l for s, l in sizes)
    if mask is None:
        mask = _strong_mask(strong, shape)
    top, right = shape[0] - 1, shape[1] - 1
    outside, inner = [], []
    for c in rest:
        area = cv2.contourArea(c)
        if area < 0.3 * typical:
            continue
        p = c.reshape(-1, 2)
        # (np.clip's figures on these integer points, without its Python wrapper)
        ys = np.minimum(np.maximum(p[:, 1], 0), top)
        if not mask[ys, np.minimum(np.maximum(p[:, 0], 0), right)].all():
            outside.append(c)
            continue
        # Inside: worth a look only if about half of its container (one of a pair).
        x, y = float(p[:, 0].mean()), float(p[:, 1].mean())
        for s in strong:
            qc = s.quad.reshape(-1, 1, 2)
            if cv2.pointPolygonTest(qc, (x, y), False) >= 0:
                if 0.3 <= area / max(g.quad_area(s.quad), 1.0) <= 0.62:
                    inner.append(c)
                break
    return outside, inner


def _strong_mask(strong: list[select.Scored], shape: tuple[int, int]) -> np.ndarray:
    """Pixels inside (or within 3 px of) the cards found whole."""
    mask = np.zeros(shape, dtype=np.uint8)
    cv2.fillPoly(mask, [np.rint(s.quad).astype(np.int32) for s in strong], 255)
    return cv2.dilate(mask, np.ones((7, 7), np.uint8))


def _typical_sizes(scored: list[select.Scored]) -> list[tuple[float, float]]:
    """(short, long) of cards found whole: likely sizes for covered cards too."""
    if not scored:
        return []
    dims = []
    for s in scored:
        e = g.edge_lengths(s.quad)
        a, b = (e[0] + e[2]) / 2, (e[1] + e[3]) / 2
        dims.append((min(a, b), max(a, b)))
    arr = np.array(dims)
    med = tuple(float(v) for v in np.median(arr, axis=0))
    out = {(round(med[0], 1), round(med[1], 1))}
    if len(arr) > 2:  # perspective: nearer cards are bigger
        lo, hi = arr.min(axis=0), arr.max(axis=0)
        out.add((float(lo[0]), float(lo[1])))
        out.add((float(hi[0]), float(hi[1])))
    return sorted(out)
