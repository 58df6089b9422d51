"""Counting readings and matching them to the truth: what every evaluation's
figures rest on.

`Tally` counts cards read right, read wrong and not read, apart (a wrong reading is
far worse than an abstention). `best_matches` pairs truths with sightings best IoU
first; `match_rendered` matches the true cards of a rendered scene (whole cards)
and `match_real` the labelled boxes of a real photo (what is seen of each card) to
the sightings read from it.

Why its own module: the rendered and real evaluations (evaluate.py,
evaluate_real.py), the phone-like photos' (evaluate_photos.py) and the game's
(evaluate_game.py) count and match alike; the tests check this arithmetic alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.recognize.overlap import quad_iou
from vision.recognize.patch import index_quads


@dataclass(slots=True)
class Tally:
    """Counts of cards read right, read wrong and not read (abstained or missed)."""

    correct: int = 0
    wrong: int = 0
    abstained: int = 0
    wrong_examples: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return self.correct + self.wrong + self.abstained

    @property
    def accuracy(self) -> float:
        return self.correct / self.n if self.n else 0.0

    @property
    def wrong_rate(self) -> float:
        return self.wrong / self.n if self.n else 0.0

    @property
    def abstain_rate(self) -> float:
        return self.abstained / self.n if self.n else 0.0

    def add(self, truth: str | None, got: str | None, where: str = "") -> None:
        if got is None:
            self.abstained += 1
        elif got == truth:
            self.correct += 1
        else:
            self.wrong += 1
            if len(self.wrong_examples) < 20:
                self.wrong_examples.append(f"{where}: {truth} read as {got}")

    def row(self) -> str:
        return (f"n={self.n:5d}  right {self.accuracy:7.2%}  wrong {self.wrong_rate:6.2%}  "
                f"abstain {self.abstain_rate:6.2%}")


def box_iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
            ) -> float:
    """IoU of two boxes (xmin, ymin, xmax, ymax)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    ua = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / ua if ua > 0 else 0.0


def best_matches(iou: list[list[float]], min_iou: float) -> list[int | None]:
    """For each truth (row), the detection (column) it is matched with, or None:
    pairs taken best IoU first, each detection once, only above `min_iou`.

    Why not each truth in turn taking its best: a card mostly hidden under another
    would take the top card's detection when listed first, and the top card's right
    reading would count as a wrong reading of the card below.
    """
    pairs = sorted(((v, i, j) for i, row in enumerate(iou) for j, v in enumerate(row)
                    if v > min_iou), reverse=True)
    out: list[int | None] = [None] * len(iou)
    used: set[int] = set()
    for _, i, j in pairs:
        if out[i] is None and j not in used:
            out[i] = j
            used.add(j)
    return out


#: Rendered truth: a read sighting no truth took by IoU is that card's when one of
#: its index corners covers this share of the smaller of it and a truth's visible
#: index corner (the truth still unmatched) ...
RENDERED_INDEX_SHARE = 0.5
#: ... and the two quads overlap at least this much (a card read from its own
#: index, outlined loosely: IoU 0.3-0.5).
RENDERED_MIN_IOU = 0.25


def match_rendered(truth: Sequence[Any], read: Sequence[Any]) -> list[int | None]:
    """For each true card of a rendered scene, the sighting it is matched with, or
    None, in three passes: read sightings by IoU over 0.5 (best_matches); read
    sightings still unmatched to the unmatched truth whose visible index corner
    they lie on (RENDERED_INDEX_SHARE, RENDERED_MIN_IOU; the most shared first);
    then the unread sightings by IoU.

    Why the index pass: the truth is the whole card, covered parts included, and
    the stills' finders outline a card partly covered from its index in view (a
    strip, a find grown from its index at a guessed size, an end cut from an
    outline round two cards): a card read right from its own index with a quad of
    IoU 0.31-0.49 was counted as a card read where none lies, and the card as
    unread (session 11: most of the rendered training and calibration decks'
    "phantoms"). match_real does the same for the real photos. It looks only at
    where the sighting and the truth's index corners lie, never at what was read:
    a sighting matched so and read as another card counts as a wrong reading. A
    sighting whose quad lies elsewhere (a strip card laid over the wrong card)
    stays a phantom.

    Why read sightings before unread ones: a card outlined twice, read on one
    outline and not on the other (a part of it turned another way, so that
    without_doubles keeps it), gave its truth to the unread one, the card read
    counting as a card where none lies (training decks seed 31 scene 148, IoU 0.57
    read against 0.65 unread; seed 32 scene 39, an end cut read at IoU 0.36 from the
    card's index against an unread outline at 0.59). An unread sighting reports no
    card: it takes a truth only when no read one does.
    """
    iou = [[quad_iou(t.corners, s.corners) for s in read] for t in truth]
    match: list[int | None] = [None] * len(truth)
    given = [j for j, s in enumerate(read) if s.card is not None]
    _take(match, iou, given, set())
    used = {j for j in match if j is not None}
    pairs = []
    for k, t in enumerate(truth):
        if match[k] is not None or t.face_down:
            continue
        shown = [np.asarray(r.quad, np.float32) for r in t.index_regions if r.visible]
        for j in given:
            if j in used or iou[k][j] < RENDERED_MIN_IOU:
                continue
            share = max((_shared(a, b) for a in shown for b in index_quads(read[j].corners)),
                        default=0.0)
            if share >= RENDERED_INDEX_SHARE:
                pairs.append((share, k, j))
    for _, k, j in sorted(pairs, reverse=True):
        if match[k] is None and j not in used:
            match[k] = j
            used.add(j)
    _take(match, iou, [j for j, s in enumerate(read) if s.card is None], used)
    return match


def _take(match: list[int | None], iou: list[list[float]], cols: list[int],
          used: set[int]) -> None:
    """Give the truths still unmatched the sightings `cols` by IoU (best_matches)."""
    cols = [j for j in cols if j not in used]
    rows = [k for k, m in enumerate(match) if m is None]
    for k, c in zip(rows, best_matches([[iou[k][j] for j in cols] for k in rows], 0.5)):
        if c is not None:
            match[k] = cols[c]


def _shared(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection of two convex quads over the smaller one's area."""
    small = min(float(cv2.contourArea(a)), float(cv2.contourArea(b)))
    return float(cv2.intersectConvexConvex(a, b)[0]) / small if small > 0 else 0.0


#: Real labels: a sighting and a label box are the same card at this box IoU ...
REAL_MIN_IOU = 0.4
#: ... or, for a card mostly covered (its label box holds only what is seen of it,
#: the sighting the whole card), when this share of the label box lies in the
#: sighting's quad and the box is at least MIN_SEEN of the quad's area.
REAL_INSIDE = 0.85
MIN_SEEN = 0.12
#: ... and this share of one of the sighting's index corners lies in the box: what
#: is seen of a card in a fan is the strip holding its index (a whole-card quad
#: reaching over a neighbour's strip from under it shows no index there).
INDEX_SHOWN = 0.5


def match_real(boxes: list[tuple[float, float, float, float]], quads: list[Any]
               ) -> list[int | None]:
    """For each labelled box of a real photo, the sighting (its corners) it is
    matched with, or None.

    The labels box the *visible* part of each card, the sightings give the whole
    card's corners: the same for a card lying free, but a card in a fan shows a
    strip of itself, whose box overlaps the whole card's by little. So pairs are
    taken by box IoU first (best_matches, REAL_MIN_IOU), then the boxes still
    unmatched are matched to the sightings still unmatched that hold them
    (REAL_INSIDE, MIN_SEEN) with one of their index corners in the box
    (INDEX_SHOWN), the most shown index first.
    """
    qs = [np.asarray(q, np.float32).reshape(4, 2) for q in quads]
    qboxes = [(q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()) for q in qs]
    match = best_matches([[box_iou(b, qb) for qb in qboxes] for b in boxes], REAL_MIN_IOU)
    used = {j for j in match if j is not None}
    pairs = []
    for i, b in enumerate(boxes):
        if match[i] is not None:
            continue
        area = (b[2] - b[0]) * (b[3] - b[1])
        rect = np.array([[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]], np.float32)
        for j, q in enumerate(qs):
            qarea = float(cv2.contourArea(q))
            if j in used or area <= 0 or qarea <= 0 or area < MIN_SEEN * qarea:
                continue
            inter, _ = cv2.intersectConvexConvex(rect, cv2.convexHull(q))
            if inter < REAL_INSIDE * area:
                continue
            shown = max(cv2.intersectConvexConvex(rect, r)[0] / max(cv2.contourArea(r), 1e-6)
                        for r in index_quads(q))
            if shown >= INDEX_SHOWN:
                pairs.append((shown, inter / area, i, j))
    for _, _, i, j in sorted(pairs, reverse=True):
        if match[i] is None and j not in used:
            match[i] = j
            used.add(j)
    return match
