"""The paper test for a card whose index is in view and whose side lies under a book
or a board (stills; indexfind_blocked.on_paper_blocked's second case).

Why: indexfind_marks.on_paper keeps a corner index only where the card's top
margin, right of the index (TOP_ROW), is paper, so that a card guessed too big
(its margin off the card) is not reported. A block lying over the card's side,
its edge running down the card beside the index, cuts that margin: training-deck
photos seed 32, photos 5 (a 7C under a plain block) and 8 (a 2H under a board),
both with their whole index column paper and read surely at all three sizes, were
refused by both paper tests.

What is taken instead (`on_paper_side`), at one of on_paper's tilts:

- the index's column is paper as on_paper asks (COLUMN, COLUMN_PAPER): the card's
  whole length is in view along its index edge;
- the top margin, from the index's middle line to the right, is paper to at least
  SIDE_MIN steps (COLUMN_PAPER of its samples to there) and stops short of
  SIDE_MAX (a longer margin is on_paper's);
- beyond the stop, across the card's length, the photo is hardly paper
  (indexfind_blocked.NOT_PAPER) and unlike the table beside the card's part in view
  (left of its index edge, above its top edge up to the stop) by
  indexfind_blocked.BLOCK_CONTRAST in the median over the tilts judged: a book's
  page, whose printed lines make glyph-like pairs by the dozen with paper columns,
  has the same page beside them and is not taken (seed 32 photo 74).

The read that follows is indexfind's, unchanged (three sizes agreeing surely, off
every card read, of the photo's card size).
"""

from __future__ import annotations

import numpy as np

from vision.recognize.indexfind_marks import (
    COLUMN_PAPER,
    CORNER_DOWN,
    CORNER_RIGHT,
    TILTS,
    TOP_ROW,
    IndexMark,
    _paper_share,
    column_and_top,
    mark_paper,
    paper_run,
    turned,
)

#: The top margin must be paper from the index's middle line to at least this many
#: glyph-pip steps right of it (past the index: the card's edge in view is no
#: sliver) ...
SIDE_MIN = 0.6
#: ... and stop short of this (on_paper's margin runs to TOP_ROW[2] = 3 steps).
SIDE_MAX = 3.0
#: Margin samples per step.
PER_STEP = 8
#: Beyond the stop, from and to these many steps right of it, over the card's length
#: from its top margin to this many steps down (on_paper's column end).
BEYOND = (0.4, 1.6)
DOWN_TO = 7.5


def on_paper_side(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """The mark turned by the tilt at which it stands at the corner of a card whose
    side lies under an object (see module), or None."""
    from vision.recognize.indexfind_blocked import NOT_PAPER, block_contrast, blocked_way

    paper = mark_paper(image, mark)
    if paper is None:
        return None
    mid = np.array(mark.middle, np.float32)
    t = np.linspace(0.0, 1.0, 48, dtype=np.float32)[:, None]
    seen: list[tuple[float, np.ndarray]] = []  # (contrast, down) per tilt judged
    for tilt in TILTS:
        down, right = turned(mark, tilt)
        column, _ = column_and_top(mark, down, right, t)
        if _paper_share(image, column, paper) < COLUMN_PAPER:
            continue
        stop = _margin_stop(image, mid, down, right, mark.step, paper)
        if stop is None:
            continue
        beyond = _block(mid, down, right, mark.step, stop)
        if _paper_share(image, beyond, paper) > NOT_PAPER:
            continue
        c = block_contrast(image, beyond, _beside(mid, down, right, mark.step, stop), paper)
        if c is not None:
            seen.append((c, down))
    return blocked_way(mark, seen)


def _margin_stop(image: np.ndarray, mid: np.ndarray, down: np.ndarray, right: np.ndarray,
                 step: float, paper: np.ndarray) -> float | None:
    """How far right of the index's middle line (steps) the top margin runs on as
    paper (COLUMN_PAPER of its samples to there), when that is at least SIDE_MIN and
    short of SIDE_MAX; else None."""
    n = int(SIDE_MAX * PER_STEP) + 1
    d = np.linspace(0.0, SIDE_MAX, n, dtype=np.float32)
    pts = mid[None, :] + step * (TOP_ROW[0] * down[None, :] + d[:, None] * right[None, :])
    stop = paper_run(image, pts, d, paper)
    if stop is None:
        return None
    return stop if SIDE_MIN <= stop < SIDE_MAX - BEYOND[0] else None


def _block(mid: np.ndarray, down: np.ndarray, right: np.ndarray, step: float,
           stop: float) -> np.ndarray:
    """Sample points beyond the margin's stop (BEYOND steps right of it), from the
    top margin down the card's length (DOWN_TO)."""
    u = np.linspace(stop + BEYOND[0], stop + BEYOND[1], 5, dtype=np.float32) * step
    v = np.linspace(TOP_ROW[0], DOWN_TO, 12, dtype=np.float32) * step
    return (mid[None, None, :] + u[:, None, None] * right[None, None, :]
            + v[None, :, None] * down[None, None, :]).reshape(-1, 2)


#: The table: samples from and to these many steps off the card's index edge and
#: top edge (as indexfind_blocked.TABLE_OUT).
TABLE_OUT = (0.4, 1.5)


def _beside(mid: np.ndarray, down: np.ndarray, right: np.ndarray, step: float,
            stop: float) -> list[np.ndarray]:
    """Sample points of the table by the card's part in view: left of its index edge
    along the card's length, and above its top edge from its corner to the margin's
    stop (past it the object may reach over the table)."""
    corner = mid - CORNER_RIGHT * step * right - CORNER_DOWN * step * down
    out = np.linspace(TABLE_OUT[0], TABLE_OUT[1], 5, dtype=np.float32) * step
    along = np.linspace(0.0, DOWN_TO + CORNER_DOWN, 12, dtype=np.float32) * step
    left = (corner[None, None, :] - out[:, None, None] * right[None, None, :]
            + along[None, :, None] * down[None, None, :]).reshape(-1, 2)
    across = np.linspace(0.0, stop + CORNER_RIGHT, 8, dtype=np.float32) * step
    above = (corner[None, None, :] - out[:, None, None] * down[None, None, :]
             + across[None, :, None] * right[None, None, :]).reshape(-1, 2)
    return [left, above]
