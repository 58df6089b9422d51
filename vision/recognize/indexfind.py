"""Cards found by their corner index where the detector found no outline (stills).

Why: a card in a fan or a row shows a strip of itself, whose outline runs into its
neighbours' (white on white, no edge), and a single card on paper, cloth or a busy
table may have no outline the detector trusts. What such a card still shows is a
corner index: a rank glyph with a suit pip stacked under it, ink on white paper.
So this looks for the index first (marks.py-style geometry in `index_marks`):

- ink: pixels much darker than the whitest paper around them, in the darkest
  channel (black and red ink alike), on paper that is white (all channels bright);
- a pair of ink blobs of like size, one stacked on the other a blob's size or two
  apart: the rank glyph and its pip. The pip is the more solid blob (a filled
  heart, spade...; a rank glyph is strokes), so the pair says which way is the
  card's "down", and the distance between their centres gives the card's size
  (the glyph-pip distance is a tenth of the card's height on most decks: measured on
  the real train photos and the rendered training decks);
- the card's corner lies up-left of the glyph along those axes, and the card's quad
  follows from it (patch.CARD_ASPECT).

Each mark is tried as a card at a few sizes and shifts, its index corner cut and
read by the network in one call, and kept only where one corner alone passes the
calibrated single-corner bars (readings.combine). A find is dropped when its index
lies in the index region of a candidate found already (that corner was read
already), when its card is one read already (one deck: reader.one_of_each), or when
two finds overlap reading two different cards (which is right is not told).

Stills only (`cardtable recognize`, evaluation), as unions.py: one more network call
a photo; the live pipeline keeps its frame budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.recognize.patch import CARD_ASPECT, extract_index_patches, index_quads
from vision.recognize.readings import Calibration, CardReading, Reading, combine

#: Ink: a pixel's darkest channel under this share of the brightest around it ...
INK_SHARE = 0.6
#: ... where that brightest (the paper) reaches this grey level in every channel.
PAPER_MIN = 100
#: The card's height over the glyph-pip centre distance (real photos: 0.10 of the
#: card's height; most rendered decks alike), and the tries around it.
HEIGHT_PER_STEP = 10.0
SIZE_TRIES = (1.0, 0.9, 1.1)  # (the usual size first: it wins ties)
#: Pair centre -> card corner, in glyph-pip steps along the card's right and down.
CORNER_RIGHT, CORNER_DOWN = 0.64, 1.5
#: Blob sizes (square root of the area) per glyph-pip step, and the two blobs' ratio.
BLOB_SIZE = (0.3, 0.85)
BLOB_RATIO = 1.8
#: Smallest glyph-pip step in pixels (smaller indices are no longer readable).
MIN_STEP = 7.0
#: How much of the finder's own `visible` to report (a strip seen beside others).
VISIBLE = 0.5


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
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
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


@dataclass(frozen=True, slots=True)
class Find:
    """A card found by its index: its quad (from the index corner), the patch read
    and the reading."""

    quad: np.ndarray
    patch: np.ndarray
    reading: CardReading


#: Paper along the index's column, down from the pip towards the card's far end:
#: from and to (in glyph-pip steps from the pair's middle), the share of samples that
#: must be paper, and a paper sample's least darkest-channel level (share of the
#: paper's level at the index).
COLUMN = (1.3, 7.5)
COLUMN_PAPER = 0.95
TOP_PAPER = 0.85
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
    mid = np.array(mark.middle, np.float32)
    r = max(1, int(round(mark.step)))
    x0, y0 = int(round(mid[0])), int(round(mid[1]))
    win = image[max(0, y0 - r):y0 + r + 1, max(0, x0 - r):x0 + r + 1].reshape(-1, 3)
    paper = win[int(np.argmax(win.min(axis=1)))].astype(np.float32) + 1.0
    t = np.linspace(0.0, 1.0, SAMPLES, dtype=np.float32)[:, None]
    best: tuple[float, float, IndexMark] | None = None
    for tilt in TILTS:
        c, s_ = np.cos(np.radians(tilt)), np.sin(np.radians(tilt))
        dx, dy = mark.down
        down = np.array([c * dx - s_ * dy, s_ * dx + c * dy], np.float32)
        right = np.array([down[1], -down[0]], np.float32)
        column = mid + mark.step * (COLUMN[0] + t * (COLUMN[1] - COLUMN[0])) * down
        top = mid + mark.step * (TOP_ROW[0] * down
                                 + (TOP_ROW[1] + t * (TOP_ROW[2] - TOP_ROW[1])) * right)
        col = _paper_share(image, column, paper)
        if col < COLUMN_PAPER or _paper_share(image, top, paper) < TOP_PAPER:
            continue
        if best is None or (col, -abs(tilt)) > best[:2]:
            best = (col, -abs(tilt), IndexMark(mark.middle, (float(down[0]), float(down[1])),
                                               mark.step))
    return None if best is None else best[2]


#: Tilts (degrees) tried for a mark's axis.
TILTS = (0.0, -4.0, 4.0, -8.0, 8.0)


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


#: Largest difference of a paper sample's normalised colour from the paper's.
PAPER_TINT = 0.12


def find_cards(clf: Any, image: np.ndarray) -> tuple[list[Find], list[Loose]]:
    """Every mark tried as a card (SIZE_TRIES) where it runs on as paper (on_paper,
    which also sets its tilt), read from its index corner alone: per mark the
    best-reading try, where the tries agree (`agree`); and every mark whose best
    try shows an index at all (LOOSE), found or not, as a Loose."""
    marks = [m for m in (on_paper(image, m) for m in index_marks(image)) if m is not None]
    if not marks:
        return [], []
    quads = [card_quad(m, k) for m in marks for k in SIZE_TRIES]
    patches = [extract_index_patches(image, q)[0] for q in quads]
    reads = clf.classify(patches)
    out, loose = [], []
    per = len(SIZE_TRIES)
    for m in range(len(marks)):
        tries = range(m * per, (m + 1) * per)
        verdicts = {t: combine([reads[t]], clf.calibration) for t in tries}
        best = max(tries, key=lambda t: verdicts[t].confidence)
        if verdicts[best].card is not None and agree([reads[t] for t in tries],
                                                     clf.calibration):
            out.append(Find(quads[best], patches[best], verdicts[best]))
        seen = max((reads[t] for t in tries), key=lambda r: r.confidence)
        if seen.rank is not None and seen.confidence >= LOOSE:
            loose.append(Loose(index_quads(quads[best])[0].mean(axis=0),
                               f"{seen.rank}{seen.suit}"))
    return out, loose


@dataclass(frozen=True, slots=True)
class Loose:
    """An index seen (the middle of its region) and the card it seems to show."""

    at: np.ndarray
    card: str


#: A mark whose best try reads an index this surely shows a card's index.
LOOSE = 0.5


#: Of a mark's tries, this many must pass the bars (readings.combine) and read
#: their card this surely.
MIN_PASSING = 2
SURE = 0.995


def agree(reads: Sequence[Reading], calib: Calibration) -> bool:
    """Do a mark's tries agree on one card: none reading another (rank or suit) and
    MIN_PASSING of them reading it?

    Why: a find's size is a guess, a detector's outline is not; the bars were set on
    detector outlines. A card whose index reads the same cut a tenth larger or
    smaller is read from its index, not from where the cut happened to fall
    (rendered training decks: an orell two of spades read 2D at 0.98 from one cut)."""
    named = {(r.rank, r.suit) for r in reads if r.rank is not None}
    passing = sum(combine([r], calib).card is not None and r.confidence >= SURE
                  for r in reads)
    return len(named) == 1 and passing >= MIN_PASSING
def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = float(cv2.contourArea(a)) + float(cv2.contourArea(b)) - inter
    return inter / union if union > 0 else 0.0


def _inside(p: np.ndarray, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), (float(p[0]), float(p[1])),
                                False) >= 0


#: Two finds whose quads overlap this much and read one card are one find; two whose
#: index regions overlap this much and read two cards clash.
SAME = 0.3


def distinct(finds: list[Find]) -> list[Find]:
    """One find per card: of overlapping finds reading one card the surest; where
    two finds' index regions overlap reading different cards, neither (which is right
    is not told). Whole quads of different cards may overlap: a fan's cards do."""
    order = sorted(finds, key=lambda f: -f.reading.confidence)
    regions = {id(f): index_quads(f.quad)[0] for f in order}
    kept: list[Find] = []
    dropped: set[int] = set()
    for f in order:
        same = [k for k, g in enumerate(kept) if g.reading.card == f.reading.card
                and _iou(f.quad, g.quad) > SAME]
        clash = [k for k, g in enumerate(kept) if g.reading.card != f.reading.card
                 and _iou(regions[id(f)], regions[id(g)]) > SAME]
        dropped.update(clash)
        if not same and not clash:
            kept.append(f)
    return [f for k, f in enumerate(kept) if k not in dropped]


def find_by_index(clf: Any, image: np.ndarray, cands: Sequence[Any]) -> list[Any]:
    """`cands` and, after them, a candidate for each card found by its index alone
    (see module). `clf`: an IndexClassifier; an enrolled deck is left alone."""
    if getattr(clf, "deck", None) is not None or image.ndim != 3:
        return list(cands)
    found, loose = find_cards(clf, image)
    finds = distinct(found)
    if not finds:
        return list(cands)
    from vision.detect.candidate import CardCandidate
    from vision.recognize.reader import read_candidates

    sightings = read_candidates(clf, image, cands)
    read = {s.card for s in sightings if s.card}
    regions = [(r, bool(s.card)) for c, s in zip(cands, sightings)
               for r in index_quads(c.corners)]  # (candidate k // 2's corners)
    quads = [np.asarray(c.corners, np.float32).reshape(4, 2) for c in cands]
    added: list[tuple[Find, set[int]]] = []
    for f in finds:
        if f.reading.card in read:
            continue
        centre = index_quads(f.quad)[0].mean(axis=0)
        holds = {k // 2 for k, (r, _) in enumerate(regions) if _inside(centre, r)}
        if any(sightings[j].card or not _as_long(f.quad, quads[j]) for j in holds):
            continue
        same = {j for j, q in enumerate(quads) if _iou(f.quad, q) > SAME_CARD}
        if any(sightings[j].card for j in same):
            continue
        # An unread outline of this card's size there is this card, found better (an
        # outline round two, IMG_2601, is kept: it may stand for the other card).
        added.append((f, {j for j in same | holds if _not_bigger(f.quad, quads[j])}))
    kept = [q for q, s in zip(quads, sightings) if s.card] + [f.quad for f, _ in added]
    dropped: set[int] = set()
    new = []
    for f, same in added:
        if not _over_unfound(f, loose, kept):
            dropped |= same
            corners = tuple((float(x), float(y)) for x, y in f.quad)
            new.append(CardCandidate(corners, visible=VISIBLE, index_visible=(True, False),
                                     index_patches=(f.patch,), patch_corners=(0,)))
    return [c for j, c in enumerate(cands) if j not in dropped] + new


def _not_bigger(quad: np.ndarray, other: np.ndarray) -> bool:
    """Is `other` at most NOT_BIGGER times the area of the find's `quad`? (Smaller
    it may well be: a card seen slanted is shorter than a find's card proportions
    make it, rendered training decks' gnome/anglo_bitmap.)"""
    return float(cv2.contourArea(other)) <= NOT_BIGGER * float(cv2.contourArea(quad))


#: Largest area of an outline of the found card itself, as a share of the find's.
NOT_BIGGER = 1.3


def _over_unfound(f: Find, loose: Sequence[Loose], kept: Sequence[np.ndarray]) -> bool:
    """Does the find's card lie under a card read by no one: another card's index
    seen inside its quad (that card lies on it) where no `kept` quad (candidates
    read, other finds) is?

    Why: a find reports the whole card, also where another lies on it. A card on it
    that nothing found would be taken for this find by whoever looks for a card
    there (real train photos resized 0.8 x 1: IMG_2685's ten of spades, its index
    read short of the bars and its outline taken for one round it and the king,
    unread, under the king's quad)."""
    own = index_quads(f.quad)[0]
    for lo in loose:
        if lo.card == f.reading.card or not _inside(lo.at, f.quad) or _inside(lo.at, own):
            continue
        if not any(_inside(lo.at, q) for q in kept if q is not f.quad):
            return True
    return False


def _as_long(quad: np.ndarray, other: np.ndarray) -> bool:
    """Does `other` reach as far along the card `quad`'s long side as it does
    (LENGTH_AGREES)?

    Why: a candidate whose index corner holds a find's index was read there. When
    read, the find is that card or a clash; unread, it may be an outline round two
    cards in a row, as long as the card (IMG_2601: a queen's strip beside a ten),
    or the card itself, whose index the network could not read at the right size,
    and then a find twice as long is a deck printing big indices misjudged
    (rendered training decks: nicu-white, ornamental)."""
    down = quad[3] - quad[0]
    length = float(np.hypot(*down))
    along = other @ (down / max(length, 1e-6))
    return abs(float(along.max() - along.min()) / max(length, 1e-6) - 1.0) <= LENGTH_AGREES


#: ... within this share of the find's length.
LENGTH_AGREES = 0.25
#: A find overlapping a candidate by this IoU is that candidate's card.
SAME_CARD = 0.5
