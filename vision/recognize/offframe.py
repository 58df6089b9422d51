"""A card running off the photo's edge: the part in view is grown past it (stills).

Why: a phone photo of a table often cuts a card at its edge. The detector
outlines the part in view, whose corners cut no index (the quad is a part of a
card, not a card), so the card goes unread although one of its corner indices
lies in view: real train photos, as they are, IMG_2611's 9 and ace of diamonds
and IMG_2613's queen of spades, outlined to the photo's right edge and unread.
partial.py reads a card partly under a book from such a part, grown across the
side where the book cuts it; the photo's own edge hides the rest of a card just
as a book does, but partial.py asks the band beyond a side to look unlike the
table, and beyond the photo's edge there is no band to look at (object_edges
gives such a side 0).

So a side of an unread outline lying along the photo's edge (both its ends
within AT_EDGE pixels of one edge of the photo, or beyond it) counts as a cut
side too: partial.find_partial grows the outline across it and reads it with
all its own rules (three lengths agreeing surely, off the cards read, one card
named, no card twice). The part grown lies beyond the photo, where nothing is
seen, so partial.hidden_by_object has nothing to refuse it on.

A card the photo cuts may have no outline at all, only its corner index in view
(real train photos, as they are: IMG_2615's king at the left edge, IMG_2642's
ace in the top-left corner, IMG_2588's king at the right edge). indexfind.py
finds such an index, but indexfind_marks.on_paper asks the card's paper to run
on down the index's column and along its top margin, and counts the samples
beyond the photo as no paper. `on_paper_cut` asks the same of the samples in
the photo only, where some lie beyond it and enough (IN_VIEW) lie in it; the
find is then read and judged as any other (three sizes agreeing surely, off
read cards, of the frame's cards' size).
"""

from __future__ import annotations

import numpy as np

from vision.recognize.indexfind_marks import (
    COLUMN_PAPER,
    SAMPLES,
    TILTS,
    TOP_PAPER,
    IndexMark,
    column_and_top,
    like_paper,
    mark_paper,
    turned,
)

#: A side lies along the photo's edge when both its ends are this close to one
#: edge (pixels) or beyond it: the detector's outlines of a card cut by the edge
#: end 0-3 px inside it (real train photos IMG_2611, 2613).
AT_EDGE = 4.0


def on_photo_edge(quad: np.ndarray, side: int, shape: tuple[int, ...]) -> bool:
    """Does side `side` (corner `side` to `side` + 1) of `quad` lie along an edge of
    a photo of `shape`?"""
    h, w = shape[:2]
    q = np.asarray(quad, np.float32).reshape(4, 2)
    ends = q[[side, (side + 1) % 4]]
    return bool((ends[:, 0] <= AT_EDGE).all() or (ends[:, 0] >= w - 1 - AT_EDGE).all()
                or (ends[:, 1] <= AT_EDGE).all() or (ends[:, 1] >= h - 1 - AT_EDGE).all())


#: Share of a mark's column samples, and of its top margin's, that must lie in the
#: photo for the rest to be taken as running off it (the column runs 1.3 to 7.5
#: glyph-pip steps down: 0.4 of it reaches 3.8 steps, past a number card's first
#: pips and a court's frame corner).
IN_VIEW = 0.4


def on_paper_cut(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """indexfind_marks.on_paper for a card running off the photo: the mark turned by
    the tilt (TILTS) at which its column and top margin are paper where they lie
    in the photo (COLUMN_PAPER, TOP_PAPER of those samples), some of them lying
    beyond it and IN_VIEW of each in it; None where none is."""
    h, w = image.shape[:2]
    paper = mark_paper(image, mark)
    if paper is None:
        return None
    t = np.linspace(0.0, 1.0, SAMPLES, dtype=np.float32)[:, None]
    best: tuple[float, float, IndexMark] | None = None
    for tilt in TILTS:
        down, right = turned(mark, tilt)
        column, top = column_and_top(mark, down, right, t)
        cin, tin = _in_photo(column, h, w), _in_photo(top, h, w)
        if cin.all() and tin.all():
            continue  # (all in the photo: on_paper's to judge)
        if cin.mean() < IN_VIEW or tin.mean() < IN_VIEW:
            continue
        col = _paper_in_view(image, column[cin], paper)
        if col < COLUMN_PAPER or _paper_in_view(image, top[tin], paper) < TOP_PAPER:
            continue
        if best is None or (col, -abs(tilt)) > best[:2]:
            best = (col, -abs(tilt), IndexMark(mark.middle, (float(down[0]), float(down[1])),
                                               mark.step))
    return None if best is None else best[2]


def _in_photo(pts: np.ndarray, h: int, w: int) -> np.ndarray:
    """Which of the points `pts` (n, 2) lie in a photo h x w (as they are sampled)."""
    xs, ys = np.round(pts[:, 0]), np.round(pts[:, 1])
    return (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)


def _paper_in_view(image: np.ndarray, pts: np.ndarray, paper: np.ndarray) -> float:
    """Share of the points `pts` (all in the photo) that look like `paper`."""
    xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    vals = image[ys, xs].astype(np.float32) + 1.0
    return float(like_paper(vals, paper).mean())
