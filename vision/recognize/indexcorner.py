"""Cards found by their index in a photo where no card is read: the index's own card
corner is the witness (stills; a step of indexfind.py).

Why: indexfind.py grows a card from a glyph-over-pip mark and keeps it where the
card runs on as paper (indexfind_marks.on_paper, or up to a block's edge:
indexfind_blocked.py). A mark refused there is tried again at the frame's card
size (indexsize.py) or its own (indexown.py), both sized by the cards read in the
photo. A photo whose only face card lies half under a book reads no card, so those
steps have no size and try nothing: rendered phone-like photos of training decks,
seed 31, photos 23, 47 and 63 (a JH under a book's page, a big-index KS and 2D),
whose index marks read their card at 0.998-1.000 at all three sizes.

What is asked instead of a frame size: the card's own corner by its index. From
the mark, the card is paper out to its left edge and up to its top edge, each a
straight line (EDGE_SPREAD over several parallel scans) at a distance a card's
corner stands from its index (LEFT_EDGE, TOP_EDGE, in glyph-pip steps: the usual
deck 0.64 and 1.5, big-index decks nearer), and past each the photo is not paper
(BEYOND_NOT_PAPER). A mark inside a card's picture or pips has that card's paper
past its "edges", a book's line of print the next word and line.

The find is then read as indexown reads it (the card at the mark's own size,
indexfind.SIZE_TRIES, kept where the tries agree surely) and faces indexfind's
every rule. Only where the photo tells no card size (no card read, none found on
paper): elsewhere indexsize.py and indexown.py judge the marks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.indexfind_marks import (
    TILTS,
    IndexMark,
    card_quad,
    like_paper,
    mark_paper,
    turned,
)
from vision.recognize.patch import extract_index_patches
from vision.recognize.readings import combine

#: Distance (glyph-pip steps from the mark's middle) of the card's left edge: the
#: usual deck's corner is 0.64 steps left of it (indexfind_marks.CORNER_RIGHT) ...
LEFT_EDGE = (0.35, 1.1)
#: ... and of its top edge (1.5 steps up on the usual deck).
TOP_EDGE = (0.8, 2.2)
#: The left scans run along rows this many steps below the middle (below the pip:
#: the column's paper), the top scans up columns this many steps right of it
#: (right of the glyph's top).
LEFT_ROWS = (1.0, 1.2, 1.4, 1.6, 2.0, 2.4)
TOP_COLS = (0.6, 0.9, 1.2, 1.5)
#: Where each scan starts (steps from the mark's middle: its own line).
FROM = 0.0
#: Samples per step along a scan, and how far a scan looks past its edge.
PER_STEP = 10
BEYOND = (0.2, 0.9)
#: Of the samples past an edge, at least this share must not be paper.
BEYOND_NOT_PAPER = 0.85
#: The scans' edges must agree within this many steps (a straight edge), and at
#: least this many scans of each side must find one.
EDGE_SPREAD = 0.25
MIN_SCANS = 3


def corner_seen(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """The mark turned by the first tilt (indexfind_marks.TILTS) at which the card's
    corner by its index is seen (see module), or None."""
    paper = mark_paper(image, mark)
    if paper is None:
        return None
    mid = np.array(mark.middle, np.float32)
    for tilt in TILTS:
        down, right = turned(mark, tilt)
        left = _edge(image, mid, -right, down, LEFT_ROWS, LEFT_EDGE,
                     mark.step, paper)
        if left is None:
            continue
        top = _edge(image, mid, -down, right, TOP_COLS, TOP_EDGE, mark.step, paper)
        if top is not None:
            return IndexMark(mark.middle, (float(down[0]), float(down[1])), mark.step)
    return None


def _edge(image: np.ndarray, mid: np.ndarray, way: np.ndarray, across: np.ndarray,
          offsets: Sequence[float], span: tuple[float, float], step: float,
          paper: np.ndarray) -> float | None:
    """Where the card's paper ends going `way` from the mark, along scans offset
    `offsets` steps `across` (see module): the median edge distance (steps), or None
    when fewer than MIN_SCANS scans end in `span` with no paper past, or they do not
    agree (EDGE_SPREAD)."""
    h, w = image.shape[:2]
    d = np.arange(FROM, span[1] + BEYOND[1] + 1e-6, 1.0 / PER_STEP, dtype=np.float32)
    o = np.asarray(offsets, np.float32)
    pts = (mid[None, None, :] + step * o[:, None, None] * across[None, None, :]
           + step * d[None, :, None] * way[None, None, :])  # (scans, samples, 2)
    xs, ys = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    shown = ((xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)).all(axis=1)
    if shown.sum() < MIN_SCANS:
        return None
    xs, ys = xs[shown], ys[shown]
    ok = like_paper(image[ys.ravel(), xs.ravel()].astype(np.float32) + 1.0,
                    paper).reshape(xs.shape)
    off = np.where(ok.all(axis=1), len(d), np.argmin(ok, axis=1))  # first sample off paper
    edge = d[np.maximum(off - 1, 0)]
    past = ((d[None, :] >= edge[:, None] + BEYOND[0])
            & (d[None, :] <= edge[:, None] + BEYOND[1]))
    not_paper = (~ok & past).sum(axis=1) / np.maximum(past.sum(axis=1), 1)
    good = (ok[:, 0] & (edge >= span[0]) & (edge <= span[1]) & (past.sum(axis=1) > 0)
            & (not_paper >= BEYOND_NOT_PAPER))
    stops = edge[good]
    if len(stops) < MIN_SCANS or float(stops.max() - stops.min()) > EDGE_SPREAD:
        return None
    return float(np.median(stops))


def cornered_finds(clf: Any, image: np.ndarray, marks: Sequence[IndexMark]) -> list[Any]:
    """indexfind Finds for the `marks` whose card corner is seen (`corner_seen`),
    each read at its own size (indexfind.SIZE_TRIES) and kept where the tries agree
    surely (indexfind.agree)."""
    from vision.recognize.indexfind import SIZE_TRIES, Find, agree

    seen = [c for c in (corner_seen(image, m) for m in marks) if c is not None]
    if not seen:
        return []
    quads = [card_quad(m, k) for m in seen for k in SIZE_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    per = len(SIZE_TRIES)
    out = []
    for m in range(len(seen)):
        tries = range(m * per, (m + 1) * per)
        verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
        best = max(tries, key=lambda t: verdicts[t].confidence)
        if verdicts[best].card is not None and agree([reads[t] for t in tries],
                                                     clf.calibration):
            out.append(Find(quads[best], patches[best], verdicts[best]))
    return out
