"""Where a card's corner index is, found from its ink alone: the geometry half of
indexfind.py (no network here).

An index is a rank glyph with a suit pip stacked under it, ink on white paper:

- ink: pixels much darker than the whitest paper around them, in the darkest
  channel (black and red ink alike), on paper that is white (all channels bright);
- a pair of ink blobs of like size, one stacked on the other a blob's size or two
  apart (`index_marks`): the rank glyph and its pip. The pip is the more solid blob
  (a filled heart, spade...; a rank glyph is strokes), so the pair says which way
  is the card's "down", and the distance between their centres gives the card's
  size: on the real train photos' decks (and most rendered training decks) the
  glyph sits 0.10 of the card's height down, the pip 0.20, both 0.09 of its width in;
- the card's corner lies up-left of the pair along those axes, and its quad
  follows (`card_quad`, patch.CARD_ASPECT);
- the card must run on as paper where such a card would (`on_paper`), which also
  turns the pair's axis a few degrees onto the card's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognize.patch import CARD_ASPECT

#: Ink: a pixel's darkest channel under this share of the brightest around it ...
INK_SHARE = 0.6
#: ... where that brightest (the paper) reaches this grey level in every channel.
PAPER_MIN = 100
#: The card's height over the glyph-pip centre distance (real photos: 0.10 of the
#: card's height; most rendered decks alike).
HEIGHT_PER_STEP = 10.0
#: Pair centre -> card corner, in glyph-pip steps along the card's right and down.
CORNER_RIGHT, CORNER_DOWN = 0.64, 1.5
#: Blob sizes (square root of the area) per glyph-pip step, and the two blobs' ratio.
BLOB_SIZE = (0.3, 0.85)
BLOB_RATIO = 1.8
#: Smallest glyph-pip step in pixels (smaller indices are no longer readable).
MIN_STEP = 7.0


@dataclass(frozen=True, slots=True)
class IndexMark:
    """A glyph over a pip: the pair's middle, the card's down (glyph to pip, unit)
    and the glyph-pip distance in pixels."""

    middle: tuple[float, float]
    down: tuple[float, float]
    step: float


def ink_mask(image: np.ndarray, step_max: float) -> np.ndarray:
    """uint8 mask of index ink (see module); `step_max` sizes the paper's window."""
    dark = image.min(axis=2) if image.ndim == 3 else image
    k = int(max(9, 2 * round(step_max) + 1))
    paper = cv2.dilate(dark, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    ink = (dark.astype(np.float32) < INK_SHARE * paper) & (paper >= PAPER_MIN)
    return ink.astype(np.uint8)


def index_marks(image: np.ndarray) -> list[IndexMark]:
    """Glyph-over-pip pairs in `image` (BGR), each as an IndexMark (see module)."""
    h, w = image.shape[:2]
    step_max = 0.1 * max(h, w)
    mask = ink_mask(image, step_max)
    _, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    size = np.sqrt(stats[:, cv2.CC_STAT_AREA].astype(np.float32))
    keep = np.where((size >= BLOB_SIZE[0] * MIN_STEP) & (size <= BLOB_SIZE[1] * step_max))[0]
    keep = keep[keep > 0]
    if len(keep) < 2:
        return []
    c, s = cents[keep].astype(np.float32), size[keep]
    d = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    ratio = s[:, None] / s[None, :]
    ok = ((d >= MIN_STEP) & (d <= step_max)
          & (s[:, None] >= BLOB_SIZE[0] * d) & (s[:, None] <= BLOB_SIZE[1] * d)
          & (s[None, :] >= BLOB_SIZE[0] * d) & (s[None, :] <= BLOB_SIZE[1] * d)
          & (ratio <= BLOB_RATIO) & (ratio >= 1 / BLOB_RATIO))
    ii, jj = np.where(np.triu(ok, 1))
    solid: dict[int, float] = {}
    marks = []
    for i, j in zip(ii.tolist(), jj.tolist()):
        si = solid.setdefault(i, _solidity(labels, stats, int(keep[i])))
        sj = solid.setdefault(j, _solidity(labels, stats, int(keep[j])))
        glyph, pip = (i, j) if si < sj else (j, i)
        v = c[pip] - c[glyph]
        dist = float(np.hypot(*v))
        mid = 0.5 * (c[pip] + c[glyph])
        marks.append(IndexMark((float(mid[0]), float(mid[1])),
                               (float(v[0] / dist), float(v[1] / dist)), dist))
    return marks


def _solidity(labels: np.ndarray, stats: np.ndarray, k: int) -> float:
    """Blob k's area over its convex hull's."""
    x, y, w, h = (int(v) for v in stats[k, :4])
    pts = cv2.findNonZero((labels[y:y + h, x:x + w] == k).astype(np.uint8)).reshape(-1, 2)
    # (the pixels' own corners: a hull through pixel centres misses half a pixel all
    # round, more than a thin stroke's area)
    hull = cv2.contourArea(cv2.convexHull(np.concatenate(
        [pts, pts + (1, 0), pts + (0, 1), pts + (1, 1)]).astype(np.float32)))
    return float(stats[k, cv2.CC_STAT_AREA]) / max(hull, 1.0)


def card_quad(mark: IndexMark, size: float = 1.0) -> np.ndarray:
    """The card a mark's index stands at the top-left of, `size` times the usual
    size: a float32 (4, 2) quad clockwise from that corner."""
    down = np.array(mark.down, np.float32)
    right = np.array([down[1], -down[0]], np.float32)
    step = mark.step * size
    corner = (np.array(mark.middle, np.float32) - CORNER_RIGHT * step * right
              - CORNER_DOWN * step * down)
    hgt = HEIGHT_PER_STEP * step
    wid = hgt * CARD_ASPECT
    return np.array([corner, corner + wid * right, corner + wid * right + hgt * down,
                     corner + hgt * down], np.float32)


#: Paper along the index's column, down from the pip towards the card's far end:
#: from and to (in glyph-pip steps from the pair's middle) and the share of its
#: SAMPLES that must be paper (0.9 let a deck printing big indices through: a
#: phantom on the rendered training decks, seed 7); the share of the top margin's
#: (TOP_ROW: a neighbour's index may lie in it, in a row; 0.5 let a phantom
#: through); a paper sample's least brightness (share of the paper's at the index).
COLUMN = (1.3, 7.5)
COLUMN_PAPER = 0.95
TOP_PAPER = 0.7
SAMPLES = 48
PAPER_SHARE = 0.7


def on_paper(image: np.ndarray, mark: IndexMark) -> IndexMark | None:
    """The mark turned by the tilt (TILTS) at which the card runs on as paper down
    the index's column and along its top margin (COLUMN, TOP_ROW), or None.

    Why: the pair alone does not tell the card's size (decks printing big indices
    put the glyph and pip twice as far apart on a card of the same size) nor, on
    every deck, its way up; a card guessed twice too big or the wrong way round
    runs off its paper onto the table, and its read index then stands at a place
    where no card is (rendered training decks: 13 such phantoms in 60 scenes).
    The tilt: a ten's pair is its "0" and pip, a few degrees off the card's axis,
    and the column, a card long, would leave a strip of a card seen in a row."""
    paper = mark_paper(image, mark)
    if paper is None:
        return None
    t = np.linspace(0.0, 1.0, SAMPLES, dtype=np.float32)[:, None]
    best: tuple[float, float, IndexMark] | None = None
    for tilt in TILTS:
        down, right = turned(mark, tilt)
        column, top = column_and_top(mark, down, right, t)
        col = _paper_share(image, column, paper)
        if col < COLUMN_PAPER or _paper_share(image, top, paper) < TOP_PAPER:
            continue
        if best is None or (col, -abs(tilt)) > best[:2]:
            best = (col, -abs(tilt), IndexMark(mark.middle, (float(down[0]), float(down[1])),
                                               mark.step))
    return None if best is None else best[2]


#: Tilts (degrees) tried for a mark's axis.
TILTS = (0.0, -4.0, 4.0, -8.0, 8.0)


def mark_paper(image: np.ndarray, mark: IndexMark) -> np.ndarray | None:
    """The card's paper colour at a mark (BGR, plus one so a ratio to it never
    divides by 0): of the pixels within a step of the mark's middle, the one whose
    darkest channel is lightest; None for a mark off the photo."""
    mid = np.array(mark.middle, np.float32)
    r = max(1, round(mark.step))
    x0, y0 = round(float(mid[0])), round(float(mid[1]))
    win = image[max(0, y0 - r):y0 + r + 1, max(0, x0 - r):x0 + r + 1].reshape(-1, 3)
    if not len(win):
        return None
    return win[int(np.argmax(win.min(axis=1)))].astype(np.float32) + 1.0


def turned(mark: IndexMark, tilt: float) -> tuple[np.ndarray, np.ndarray]:
    """The mark's axis turned by `tilt` degrees: (down the card, across it)."""
    c, s_ = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
    dx, dy = mark.down
    down = np.array([c * dx - s_ * dy, s_ * dx + c * dy], np.float32)
    return down, np.array([down[1], -down[0]], np.float32)


def column_and_top(mark: IndexMark, down: np.ndarray, right: np.ndarray, t: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Sample points (len(t), 2) down the index's column (COLUMN) and along the
    card's top margin (TOP_ROW), at shares `t` (n, 1) of each, the mark turned to
    `down`, `right` (on_paper's and the other paper tests' lines)."""
    mid = np.array(mark.middle, np.float32)
    column = mid + mark.step * (COLUMN[0] + t * (COLUMN[1] - COLUMN[0])) * down
    top = mid + mark.step * (TOP_ROW[0] * down
                             + (TOP_ROW[1] + t * (TOP_ROW[2] - TOP_ROW[1])) * right)
    return column, top


def _paper_share(image: np.ndarray, pts: np.ndarray, paper: np.ndarray) -> float:
    """Share of the points `pts` (n, 2) in the image that look like `paper`."""
    h, w = image.shape[:2]
    xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    vals = image[ys[inside], xs[inside]].astype(np.float32) + 1.0
    return float(like_paper(vals, paper).sum()) / len(xs)


#: ... and along the card's top margin (down from the middle, then from and to
#: right of it), above a court's picture and a number card's pips on usual decks:
#: a card guessed too big has its top margin off the card.
TOP_ROW = (-1.15, 1.0, 3.0)


def like_paper(vals: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Which of the BGR samples `vals` (n, 3) look like the card's `paper` (3,): as
    bright up to shading (PAPER_SHARE) and of its colour (PAPER_TINT). Why colour
    too: a light table cloth is as bright as paper in shadow, rarely of its tint."""
    bright = vals.mean(axis=1)
    level = float(paper.mean())
    tint = np.abs(vals / bright[:, None] - paper / level).max(axis=1)
    return (bright >= PAPER_SHARE * level) & (tint <= PAPER_TINT)


def paper_run(image: np.ndarray, pts: np.ndarray, d: np.ndarray,
              paper: np.ndarray) -> float | None:
    """How far along a line of samples (`pts` (n, 2) at distances `d`) the card runs
    on as `paper`: the farthest paper sample up to which COLUMN_PAPER of the samples
    are paper (samples off the photo are not); None when none is. Shared by the
    blocked-index tests, which ask where a card's paper stops under a block."""
    h, w = image.shape[:2]
    xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
    inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
    ok = np.zeros(len(d), bool)
    ok[inside] = like_paper(image[ys[inside], xs[inside]].astype(np.float32) + 1.0, paper)
    share = np.cumsum(ok) / np.arange(1, len(d) + 1)
    good = np.where((share >= COLUMN_PAPER) & ok)[0]
    return float(d[good[-1]]) if len(good) else None


#: Largest difference of a paper sample's normalised colour from the paper's.
PAPER_TINT = 0.12
