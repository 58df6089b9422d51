"""The paper test for a card whose index is in view and whose far part lies under
a book or a board (stills; the indexfind.py step).

Why: indexfind_marks.on_paper keeps a corner index only where the card runs on as
paper down the index's column for three quarters of a card (COLUMN), so that a
card guessed too big or the wrong way round is not reported where none lies. A
card half under a book stops being paper at the book's edge, and its index, the
one thing of it in view, is refused: rendered phone-like photos of training decks,
seeds 7 and 8, 48 of the 82 cards under a block missed had their index found
(a glyph over a pip) and refused so, most of them never outlined at all.

What is taken for such a card instead (`on_paper_blocked`), at one of on_paper's
tilts:

- the top margin is paper as on_paper asks (TOP_ROW, TOP_PAPER): the card's top
  edge is in view;
- down the column the card is paper (COLUMN_PAPER) from the pip to at least
  MIN_DOWN glyph-pip steps (the index and some card below it: the index read at
  its three sizes lies in view), and then stops at once: the rows beyond the stop
  across the card's whole width (`_rows`) are hardly paper (NOT_PAPER: a slanted
  edge leaves a little), where a card on the table goes on being paper;
- what lies beyond the stop is an object, unlike the table: its colours differ
  (BLOCK_CONTRAST, in the median over the tilts judged) from the table beside the
  card's part in view (left of it and above it, past its edges: `_beside`), so
  that a card whose column runs off its end onto the table, or a mark inside a
  card's picture, is not taken.

The read that follows is indexfind's (three sizes that must agree, the surest
of finds of one card, off every card read, of the photo's card size, no unfound
card on it): only the paper test is eased, and only where an object's edge
crosses the card. It costs some 16 ms a real train photo (median; the marks
on_paper refuses, a few hundred samples each).

Figures when written (with partial.py's session-11 rules; rank right, cards of
photos with a block, French training decks, 200 photos, 0.3 resized): seed 7
62/95 -> 64/95, seed 8 68/119 -> 74/119, 0 wrong, 0 phantoms; held-out photos
seed 8338 349/410 -> 350/410.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognize.indexfind_marks import (
    COLUMN,
    CORNER_DOWN,
    CORNER_RIGHT,
    TILTS,
    TOP_PAPER,
    IndexMark,
    _paper_share,
    column_and_top,
    like_paper,
    mark_paper,
    paper_run,
    turned,
)

#: The card must be paper down the column from the pip (in glyph-pip steps from
#: the pair's middle) to at least this far (the index read at 1.1 times its size
#: ends some 3 steps down) ...
MIN_DOWN = 3.5
#: ... and no further than this (on_paper's whole column: paper to there is a card
#: on_paper judges).
MAX_DOWN = 7.5
#: Column samples per step.
PER_STEP = 6
#: Beyond the stop, the rows from and to these many steps past it, across the card's
#: width (from its left edge in to this share of it), must be paper at most this share.
BEYOND = (0.4, 2.0)
WIDTH = (0.1, 0.9)
NOT_PAPER = 0.1
#: The table: samples from and to these many steps off the card's left and top
#: edges, beside the card's part in view (`_beside`).
TABLE_OUT = (0.4, 1.5)
#: What lies beyond the stop must differ from the table (objectedge.contrast) by
#: this much, in the median over the tilts at which the rest holds: an edge of an
#: object is one at any tilt, a table's grain only by chance (rendered calibration
#: decks, seed 5: a plastic five of spades, its card shorter than its index says,
#: ran off its end onto wood grain differing from the wood above it by 24-46).
BLOCK_CONTRAST = 40.0
#: The card's width in glyph-pip steps (indexfind_marks.card_quad: 10 steps tall,
#: patch.CARD_ASPECT wide).
CARD_WIDTH = 7.1


def on_paper_blocked(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """The mark turned by the tilt at which it stands at the corner of a card whose
    paper stops at an object's edge down its column (see module) or across its top
    margin (indexfind_side.on_paper_side: a block over the card's side), or None."""
    from vision.recognize.indexfind_side import on_paper_side

    return _column_blocked(image, mark) or on_paper_side(image, mark)


def _column_blocked(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """on_paper_blocked's first case: the card's paper stops down its column at an
    object's edge (see module)."""
    mid = np.array(mark.middle, np.float32)
    paper = mark_paper(image, mark)
    if paper is None:
        return None
    seen: list[tuple[float, np.ndarray]] = []  # (contrast, down) per tilt judged
    for tilt in TILTS:
        down, right = turned(mark, tilt)
        t = np.linspace(0.0, 1.0, 48, dtype=np.float32)[:, None]
        _, top = column_and_top(mark, down, right, t)
        if _paper_share(image, top, paper) < TOP_PAPER:
            continue
        stop = _paper_stop(image, mid, down, mark.step, paper)
        if stop is None:
            continue
        beyond = _rows(mid, down, right, mark.step, stop + BEYOND[0], stop + BEYOND[1])
        if _paper_share(image, beyond, paper) > NOT_PAPER:
            continue
        c = block_contrast(image, beyond, _beside(mid, down, right, mark.step, stop), paper)
        if c is not None:
            seen.append((c, down))
    return blocked_way(mark, seen)


def block_contrast(image: np.ndarray, beyond: np.ndarray, besides: list[np.ndarray],
                   paper: np.ndarray) -> float | None:
    """How far what lies `beyond` a card's paper stop differs from the table
    `besides` the card (the least objectedge.contrast over the table samples); None
    when either shows no off-paper sample."""
    from vision.recognize.objectedge import contrast

    obj_pts = _off_paper(image, beyond, paper)
    tables = [_lab_at(image, p) for p in (_off_paper(image, q, paper) for q in besides)
              if len(p)]
    if not len(obj_pts) or not tables:
        return None
    obj = _lab_at(image, obj_pts)
    return min(contrast(obj, table) for table in tables)


def blocked_way(mark: IndexMark, seen: list[tuple[float, np.ndarray]]) -> IndexMark | None:
    """The mark turned the first way up whose block stands out, when the tilts judged
    (`seen`: contrast, down) show a block by their median (BLOCK_CONTRAST)."""
    if not seen or float(np.median([c for c, _ in seen])) < BLOCK_CONTRAST:
        return None
    down = next(d for c, d in seen if c >= BLOCK_CONTRAST)
    return IndexMark(mark.middle, (float(down[0]), float(down[1])), mark.step)


def _paper_stop(image: np.ndarray, mid: np.ndarray, down: np.ndarray, step: float,
                paper: np.ndarray) -> float | None:
    """How far down the column (steps from the pair's middle) the card runs on as
    paper (COLUMN_PAPER of the samples from the pip to there), when that is at
    least MIN_DOWN and short of MAX_DOWN; else None."""
    n = int((MAX_DOWN - COLUMN[0]) * PER_STEP) + 1
    d = np.linspace(COLUMN[0], MAX_DOWN, n, dtype=np.float32)
    pts = mid[None, :] + (step * d)[:, None] * down[None, :]
    stop = paper_run(image, pts, d, paper)
    if stop is None:
        return None
    return stop if MIN_DOWN <= stop < MAX_DOWN - BEYOND[1] + BEYOND[0] else None


def _rows(mid: np.ndarray, down: np.ndarray, right: np.ndarray, step: float,
          d0: float, d1: float) -> np.ndarray:
    """Sample points across the card's width (WIDTH shares of it, from its left
    edge) from `d0` to `d1` steps down from the pair's middle."""
    left = mid - CORNER_RIGHT * step * right
    u = np.linspace(WIDTH[0], WIDTH[1], 12, dtype=np.float32) * CARD_WIDTH * step
    v = np.linspace(d0, d1, 5, dtype=np.float32) * step
    return (left[None, None, :] + u[:, None, None] * right[None, None, :]
            + v[None, :, None] * down[None, None, :]).reshape(-1, 2)


def _beside(mid: np.ndarray, down: np.ndarray, right: np.ndarray, step: float,
            stop: float) -> list[np.ndarray]:
    """Sample points of the table by the card's part in view: left of its left edge
    beside the paper part of its column (from the top to `stop`), and above its top
    edge along the index's width and beyond (TABLE_OUT off the card's edges); a card
    at the photo's edge has one of them in view."""
    corner = mid - CORNER_RIGHT * step * right - CORNER_DOWN * step * down
    out = np.linspace(TABLE_OUT[0], TABLE_OUT[1], 5, dtype=np.float32) * step
    along = np.linspace(0.0, stop + CORNER_DOWN, 12, dtype=np.float32) * step
    left = (corner[None, None, :] - out[:, None, None] * right[None, None, :]
            + along[None, :, None] * down[None, None, :]).reshape(-1, 2)
    across = np.linspace(0.0, 0.5 * CARD_WIDTH, 12, dtype=np.float32) * step
    above = (corner[None, None, :] - out[:, None, None] * down[None, None, :]
             + across[None, :, None] * right[None, None, :]).reshape(-1, 2)
    return [left, above]


def _off_paper(image: np.ndarray, pts: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """The points of `pts` in the image that do not look like the card's `paper`:
    a few samples of the card's own edge (the tilt tried is a guess) would count
    as the object's print (the L spread objectedge.contrast weighs)."""
    h, w = image.shape[:2]
    xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    keep = inside.copy()
    keep[inside] = ~like_paper(image[ys[inside], xs[inside]].astype(np.float32) + 1.0, paper)
    return pts[keep] if keep.sum() >= 0.6 * len(pts) else pts[:0]


def _lab_at(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Lab (8-bit, float32) of the BGR pixels at the points `pts` (in the image):
    only they are converted, not the photo."""
    xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    px = np.ascontiguousarray(image[ys, xs].reshape(-1, 1, 3))
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
