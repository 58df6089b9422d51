"""An outline on a card's own printed inner frame, grown out to the paper's edge
(stills only).

Why: many decks print a frame inside the card (a line or corner brackets round the
pips, the frame round a court picture), crisp, straight and of card proportions.
The detector sometimes takes it for the card's edge, most when the card's real
edge against the table is faint. Its corners then cut the index boxes inside the
frame, where the pips or the picture are, not the index printed in the margin
outside it, and it reads nothing (rendered training decks seed 7: the trace's
"off" cards 6C, KC, 9D, outlines 0.6-0.75 of the card's area lying wholly on
it).

How: an unread face-up outline has each side looked beyond, along its outward
normal, up to OUT_MAX of its short side: the band just outside a printed frame is
the card's white margin (paper as bright and as grey as the brightest of the
outline's inside), and it ends at the card's edge, a step in the image. Along
SAMPLES lines across the side the edge is where a band of paper meets no paper,
and a line is fitted through those points (the frame need not be parallel to the
card's edge under perspective); a side where fewer than half the lines find one
stays (it is the card's edge already). The grown quad replaces the outline only
when it and its slight scalings (STEADY) all read one card with the pair bars
(topend.both_read), no other candidate reads that card or lies there, and it is
shaped like the cards read. Stills only (reader._chain's last step): two
gradients of the photo and 6 patches an unread outline grown.

Training decks seed 7 and 8, calibration decks seed 5 (60 scenes each, the chain
without unsqueeze, scripts/trace_chain.py): 371 -> 376/436, 370 -> 373/432 and
360 -> 360/423 read right; 0 wrong, 0 phantoms before and after.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from vision.recognize.overlap import covered_share, quad_iou
from vision.recognize.patch import extract_index_patches, normalize_quad
from vision.recognize.stripgeom import CARD_ASPECT, gradients, long_over_short, side_lengths
from vision.recognize.topend import both_read

#: How far a side may move out, as a share of the outline's short side (a poker
#: card's margin outside a printed frame is at most ~20% of its width).
OUT_MAX = 0.5
#: The paper band must be at least this many lines wide ...
BAND_MIN = 3
#: ... and the AFTER pixels beyond the edge no paper.
AFTER = 3
#: A sample is paper when at least this share of the inside's paper brightness ...
PAPER_BRIGHT = 0.85
#: ... and at most this much more coloured (max - min channel, grey levels).
PAPER_TINT = 30.0
#: Lines across a side looked along, and the share of them that must find the
#: edge (the index in the margin hides it from some).
SAMPLES = 24
FOUND_SHARE = 0.5
#: The fitted edge must lie within this median distance of the points found.
FIT_PX = 1.5
#: The card's edge must be at least this strong (grey levels a pixel across,
#: stripgeom.gradients' scale; stripgeom.MIN_EDGE is 8).
MIN_EDGE = 8.0
#: The grown quad's area over the outline's (the seed's frames: 1.35-1.65).
GROWN_AREA = (1.1, 2.2)
#: Its long over short side within this share of the median of the cards read
#: (perspective: training seed 7 scene 34 reads cards of 1.18-1.44, median 1.26,
#: and its 6C is 1.58).
AS_CARD = (0.75, 1.33)
#: The grown quad is read as it is and scaled by these about its centre: all must
#: read the one card with the pair bars (training seed 7 scene 11: a blurred 4S,
#: its grown quad 0.9 IoU off the card, read 6S at both corners).
STEADY = (1.0, 0.97, 1.03)
#: A grown quad overlapping another candidate by this IoU is that card, found
#: already (topend.SAME_CARD).
SAME_CARD = 0.5
#: ... unless it is an outline not read lying in it (this share of its area):
#: the card found twice, that outline gives way (strips.INSIDE).
INSIDE = 0.85


def _sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """BGR float values at `pts` (..., 2) (nearest pixel, clipped to the image)."""
    h, w = image.shape[:2]
    xi = np.clip(np.rint(pts[..., 0]).astype(np.int64), 0, w - 1)
    yi = np.clip(np.rint(pts[..., 1]).astype(np.int64), 0, h - 1)
    return image[yi, xi].astype(np.float32)


def paper_colour(image: np.ndarray, quad: np.ndarray) -> tuple[float, float]:
    """The paper inside `quad`: the brightness (grey) and tint (max - min channel)
    of its brightest tenth."""
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w - 1, h - 1])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int), 0, [w - 1, h - 1])
    mask = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillConvexPoly(mask, np.rint(quad - [x0, y0]).astype(np.int32), 1)
    px = image[y0:y1 + 1, x0:x1 + 1][mask > 0].astype(np.float32)
    if len(px) < 16:
        return 0.0, 0.0
    grey = px.mean(axis=1)
    top = px[grey >= np.quantile(grey, 0.9)]
    return float(top.mean()), float(np.median(top.max(axis=1) - top.min(axis=1)))


def side_line(image: np.ndarray, gx: np.ndarray, gy: np.ndarray, a: np.ndarray,
              b: np.ndarray, outward: np.ndarray, reach: int, paper: tuple[float, float]
              ) -> tuple[np.ndarray, np.ndarray] | None:
    """The card's edge beyond side a->b, as (point, direction), or None when the
    side lies on it already (or the card lies on paper-white cloth).

    Along each of SAMPLES lines across the side, outward, the edge is where a band
    of paper (BAND_MIN pixels) meets AFTER pixels of no paper, snapped to the
    strongest gradient within 2 px; a line is fitted through them (the printed
    frame need not be parallel to the card's edge under perspective: 10 degrees
    apart on training seed 7's KC). Most lines must find the edge, and the line
    must fit them within FIT_PX."""
    t = np.linspace(0.15, 0.85, SAMPLES, dtype=np.float32)
    base = a + (b - a) * t[:, None]  # (S, 2)
    ds = np.arange(0, reach + 1, dtype=np.float32)
    pts = base[None] + ds[:, None, None] * outward  # (D, S, 2)
    bgr = _sample(image, pts)
    grey = bgr.mean(axis=-1)
    tint = bgr.max(axis=-1) - bgr.min(axis=-1)
    bright, tinted = paper
    is_paper = (grey >= PAPER_BRIGHT * bright) & (tint <= tinted + PAPER_TINT)  # (D, S)
    g = np.abs(_sample(gx[..., None], pts)[..., 0] * outward[0]
               + _sample(gy[..., None], pts)[..., 0] * outward[1])  # (D, S)
    found = []
    for s in range(len(t)):
        col = is_paper[:, s]
        for d in range(BAND_MIN + 1, reach - AFTER):
            if col[d - BAND_MIN:d].all() and not col[d + 1:d + 1 + AFTER].any():
                lo = d - 2
                best = lo + int(np.argmax(g[lo:d + 3, s]))
                if g[best, s] >= MIN_EDGE:
                    found.append(pts[best, s])
                break
    if len(found) < FOUND_SHARE * len(t):
        return None
    xy = np.array(found, np.float32)
    vx, vy, x0, y0 = cv2.fitLine(xy, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    d = np.array([vx, vy], np.float32)
    p0 = np.array([x0, y0], np.float32)
    resid = np.abs((xy - p0) @ np.array([-vy, vx], np.float32))
    if float(np.median(resid)) > FIT_PX:
        return None
    return p0, d


def _meet(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Where the line p + s u meets the line q + r v."""
    m = np.array([[u[0], -v[0]], [u[1], -v[1]]], np.float64)
    s = np.linalg.solve(m, (q - p).astype(np.float64))[0]
    return (p + s * u).astype(np.float32)


def grown(image: np.ndarray, gx: np.ndarray, gy: np.ndarray, outline: np.ndarray
          ) -> np.ndarray | None:
    """`outline` ((4, 2), normalised, clockwise on screen) with each side moved out
    to the paper's edge (see module); None when no side moves."""
    q = np.asarray(outline, np.float32).reshape(4, 2)
    short = min(side_lengths(q))
    reach = int(OUT_MAX * short)
    if reach < BAND_MIN + AFTER + 4:
        return None
    paper = paper_colour(image, q)
    centre = q.mean(axis=0)
    lines = []
    moved = 0
    for i in range(4):
        a, b = q[i], q[(i + 1) % 4]
        d = b - a
        n = np.array([-d[1], d[0]], np.float32) / max(float(np.hypot(*d)), 1e-6)
        if float(np.dot((a + b) / 2 - centre, n)) < 0:
            n = -n
        line = side_line(image, gx, gy, a, b, n, reach, paper)
        moved += line is not None
        lines.append((a, d) if line is None else line)
    if not moved:
        return None
    try:
        out = np.array([_meet(*lines[i - 1], *lines[i]) for i in range(4)], np.float32)
    except np.linalg.LinAlgError:
        return None
    return normalize_quad(out)


def _area(q: Any) -> float:
    return float(cv2.contourArea(np.asarray(q, np.float32).reshape(4, 2)))


def find_paper_edges(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` with each unread face-up outline seen whole that lies on a card's
    printed frame replaced by the card grown to its paper's edge (see module).
    `clf`: the photo's ReadingMemo (or an IndexClassifier)."""
    from vision.recognize.reader import read_candidates

    if getattr(clf, "deck", None) is not None or not cands:
        return list(cands)
    refused: set[int] = set()  # read, and spoken against: not grown (reader.py)
    sights = read_candidates(clf, image, cands, refused=refused)
    read = {s.card for s in sights if s.card is not None}
    shapes = [long_over_short(np.asarray(c.corners)) for c, s in zip(cands, sights)
              if s.card is not None]
    aspect = float(np.median(shapes)) if shapes else CARD_ASPECT
    h, w = image.shape[:2]
    grads: tuple[np.ndarray, np.ndarray] | None = None
    tries: list[tuple[int, np.ndarray]] = []
    for i, (c, s) in enumerate(zip(cands, sights)):
        if s.card is not None or i in refused or getattr(c, "face_down", False):
            continue
        if grads is None:
            grads = gradients(image)
        q = grown(image, *grads, normalize_quad(c.corners))
        if q is None or q.min() < 0 or q[:, 0].max() > w - 1 or q[:, 1].max() > h - 1:
            continue
        ratio = _area(q) / max(_area(c.corners), 1e-6)
        if not GROWN_AREA[0] <= ratio <= GROWN_AREA[1]:
            continue
        if not AS_CARD[0] <= long_over_short(q) / aspect <= AS_CARD[1]:
            continue
        tries.append((i, q))
    if not tries:
        return list(cands)
    cuts = [c for _, q in tries for c in steady_cuts(q)]
    reads = clf.classify([p for c in cuts for p in extract_index_patches(image, c)])
    per = 2 * len(STEADY)
    out: dict[int, Any] = dict(enumerate(cands))
    for k, (i, q) in enumerate(tries):
        mine = reads[k * per:(k + 1) * per]
        cards = {both_read(mine[m:m + 2], clf.calibration) for m in range(0, per, 2)}
        if len(cards) != 1:
            continue
        card = cards.pop()
        if card is None or card in read or i not in out:
            continue
        # (An unread outline lying in the card grown is the card too, found twice:
        # training seed 7, scene 34, 6C's printed frame outlined twice.)
        if put_grown(out, cands, sights, image, i, q):
            read.add(card)
    return list(out.values())


def put_grown(out: dict[int, Any], cands: Sequence[Any], sights: Sequence[Any],
              image: np.ndarray, i: int, quad: np.ndarray) -> bool:
    """Put the card grown from outline `i` to `quad` in its place in `out` (candidates
    by index), unless a candidate lying there (IoU SAME_CARD) is read or lies less
    than INSIDE in it; the unread outlines inside it give way. Whether it was put
    (paperedge and partgrow)."""
    there = [j for j in out if j != i and quad_iou(quad, cands[j].corners) >= SAME_CARD]
    if any(sights[j].card is not None or _inside(cands[j].corners, quad) < INSIDE
           for j in there):
        return False
    for j in there:
        del out[j]
    out[i] = as_whole_card(cands[i], image, quad)
    return True


def as_whole_card(cand: Any, image: np.ndarray, quad: np.ndarray) -> Any:
    """`cand` moved to `quad`, a whole card grown from it: both index corners in view,
    its patches cut there (what paperedge and partgrow put in an outline's place)."""
    return replace(cand, corners=tuple((float(x), float(y)) for x, y in quad),
                   index_visible=(True, True),
                   index_patches=tuple(extract_index_patches(image, quad)),
                   patch_corners=(0, 2))


def steady_cuts(quad: np.ndarray) -> list[np.ndarray]:
    """`quad` scaled about its centre by each of STEADY."""
    c = quad.mean(axis=0)
    return [((quad - c) * f + c).astype(np.float32) for f in STEADY]


def _inside(quad: Any, card: np.ndarray) -> float:
    """Share of `quad`'s area lying in `card`."""
    return covered_share(np.asarray(quad, np.float32).reshape(4, 2), [card])
