"""Near-square cards: which diagonal carries the corner indices.

A card's indices sit at its printed top-left and bottom-right corners, and a quad is
cut (patch.normalize_quad) starting at a corner of a short edge. That rule needs the
card to look oblong. A card seen nearly square does not tell its short edge: a photo
squeezed to 80% of its height turns an upright card's 63 x 88 into 63 x 70, and a
steep camera angle does the same. Then the rule may cut the two blank corners, the
network rightly says "not an index" there, and the card goes unread.

So for such cards the reader also cuts the other diagonal's corners (one more pair
of patches in the same network call) and reads the card from them when, and only
when, every corner of the first diagonal clearly shows no index and both corners of
the other show the same one. A card then gets
its corners re-ordered to start at the corner where its index was read.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.recognize.patch import (
    AMBIGUOUS_ASPECT,
    extract_index_patches,
    index_quads,
    mean_aspect,
    normalize_quad,
)

#: Each first-diagonal corner must be "not an index" with at least this probability
#: before the other diagonal is believed: an index seen on both diagonals means the
#: quad is wrong (two cards in one outline), not that the card lies turned.
NONE_FIRST = 0.5

#: Share of the card that must be seen (no other card on it): the detector says
#: which corners of its own diagonal are covered, not which of the other one.
MIN_VISIBLE = 0.97


def worth_turning(cand: Any, shape: tuple[int, ...]) -> bool:
    """Whether the other diagonal of detector candidate `cand` should be read too:
    a near-square quad of a card lying whole in view, both of its first corners seen."""
    if getattr(cand, "face_down", False) and not getattr(cand, "index_visible", ()):
        return False
    if float(getattr(cand, "visible", 1.0)) < MIN_VISIBLE:
        return False
    if not all(getattr(cand, "index_visible", (True, True))):
        return False
    q = normalize_quad(np.asarray(cand.corners, dtype=np.float32))
    if mean_aspect(q) >= AMBIGUOUS_ASPECT:
        return False
    h, w = shape[:2]
    regions = np.concatenate(index_quads(turned(q)))
    return bool(regions.min() >= -1.0 and regions[:, 0].max() <= w
                and regions[:, 1].max() <= h)


def turned(quad: np.ndarray) -> np.ndarray:
    """The quad (clockwise) started one corner on: the other diagonal's corners
    become the index corners."""
    q = normalize_quad(quad)
    return q[[1, 2, 3, 0]]


def turned_patches(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    """The turned quad and the two index patches cut at its corners."""
    t = turned(quad)
    return t, extract_index_patches(image, t)


def first_shows_none(readings: list[Any]) -> bool:
    """Every corner read on the first diagonal is clearly no index."""
    return bool(readings) and all(r.rank is None and r.none_prob >= NONE_FIRST
                                  for r in readings)


def both_agree(readings: list[Any]) -> bool:
    """Both turned corners show the same index. A card lying whole in view shows its
    index at both ends; one index on the other diagonal alone is the mark of an
    outline drawn round two cards (one card's corner at each end), not of a turned
    card."""
    return (len(readings) == 2 and readings[0].rank is not None
            and all((r.rank, r.suit) == (readings[0].rank, readings[0].suit) for r in readings))
