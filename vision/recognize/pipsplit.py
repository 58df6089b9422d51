"""Pips that touch in the canonical card split apart again, so that they can be counted.

Why: pips.py counts a number card's pips as the connected components of its ink,
at a canonical 100 x 140 px. Decks with broad pips print the nine's and ten's so
close that two or more of them touch there: gnome/plastic's 9C showed its centre
club joined to a side club (one component of twice a pip's area), its 10C two
blobs of four and five clubs. Such a card was never counted, so it never had the
pips' witness for its rank and suit: on the calibration decks its nines and tens
of clubs were the most common whole black number cards left unread (14 in five
60-scene sets, rank sure and suit 0.57-0.94 at the corners).

How: a component whose area is close to a whole multiple (2..5) of the single
pips' area (the median of the components no larger than 1.4 times the smallest)
is cut into that many parts of like size around as many centres (k-means on its
pixels' positions: touching pips meet at a neck, so the cut falls there). Nothing else is changed, and the
count that follows keeps all of pips.py's checks (like sizes and shapes, a
number card's layout, symmetry), so a split that does not give a number card's
clean set of pips gives no count. Split pips are not used for the suit
(pips.py): their touching edge is cut, not printed.

Figures (session 10; the /tmp/s6a development pickles of training and calibration
decks, true and detected quads, whole cards): 8330 counts, 187 of them through a
split, 0 counts of a wrong rank (courts, aces, backs, phantoms included) and 0
wrong suits; rendered calibration decks, true quads seeds 5/7/8 (60 scenes): right
393/385/375 -> 396/390/377, detected seed 5: 340 -> 347; training decks and real
train photos unchanged (one more count there: cam_image41's motion-blurred 9S,
its pips run together, counted 9 and given spades; by eye right). Time: 0.04-0.05
ms per count with nothing to split; 0.6 ms (a nine) to 3.7 ms (a ten of two
blobs) for a card split, in numpy; the k-means compiled (kernels/kmeans.py, same
parts): a component of two pips 1.25 -> 0.013 ms, of four 4.8 -> 0.07 ms, of five
(840 px) 23 -> 0.5 ms.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognize.kernels import split_pixels

#: A component this close (share of one pip's area) to a whole multiple of it is
#: tried as that many touching pips.
MULTIPLE_TOL = 0.2

#: Most pips one component is split into (a ten's side column and centre pip).
MAX_PARTS = 5

#: Lloyd iterations at most (the parts of a few touching pips settle in a few).
KMEANS_STEPS = 20

#: The k-means has settled when no centre moves by more than this (pixels; as
#: np.allclose judges it).
SETTLED = 0.05

#: The parts of one component must be alike: largest over smallest at most this
#: (pips.py then asks the same of all pips at 1.6).
PART_SPREAD = 1.5


def single_area(areas: np.ndarray) -> float | None:
    """One pip's area: the median of the components no larger than 1.4 times the
    smallest (`areas` of the pip-sized components); None when there are none."""
    if areas.size == 0:
        return None
    small = areas[areas <= 1.4 * float(areas.min())]
    return float(np.median(small))


def split_touching(labels: np.ndarray, stats: np.ndarray, cents: np.ndarray, ids: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(labels, stats, centroids, split) with each component of `ids` that is a
    whole multiple of one pip's area (see module) split into that many parts, the
    parts given new labels after the last one (the component keeps its own label
    for its first part); `split` flags the labels that were split (index by label).
    `labels`, `stats`, `cents` as from cv2.connectedComponentsWithStats. None when
    nothing was split (no component a multiple, or none fell into like cores)."""
    one = single_area(stats[ids, cv2.CC_STAT_AREA].astype(np.float64))
    if one is None or one <= 0:
        return None
    out = labels.copy()
    parts: list[tuple[int, np.ndarray, np.ndarray]] = []  # (label, ys, xs)
    next_label = int(stats.shape[0])
    for i in ids:
        ratio = float(stats[i, cv2.CC_STAT_AREA]) / one
        k = round(ratio)
        if k < 2 or k > MAX_PARTS or abs(ratio - k) > MULTIPLE_TOL * k:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        owner = _split(labels[y:y + h, x:x + w], int(i), k)
        if owner is None:
            continue
        for part in range(k):
            label = int(i) if part == 0 else next_label
            next_label += part > 0
            ys, xs = np.nonzero(owner == part + 1)
            out[y + ys, x + xs] = label
            parts.append((label, ys + y, xs + x))
    if not parts:
        return None
    n_old = int(stats.shape[0])
    new_stats = np.zeros((next_label, 5), stats.dtype)
    new_stats[:n_old] = stats
    new_cents = np.zeros((next_label, 2), np.float64)
    new_cents[:n_old] = cents
    flags = np.zeros(next_label, bool)
    for label, ys, xs in parts:
        new_stats[label] = (xs.min(), ys.min(), xs.max() - xs.min() + 1,
                            ys.max() - ys.min() + 1, ys.size)
        new_cents[label] = (xs.mean(), ys.mean())
        flags[label] = True
    return out, new_stats, new_cents, flags


def _split(labels: np.ndarray, label: int, k: int) -> np.ndarray | None:
    """Each pixel of `labels == label` (a component's box of the int32 label image)
    numbered 1..k by the nearest of k centres (Lloyd's k-means on the pixels'
    positions, started from points spread by farthest-first: deterministic), or
    None when the parts come out unlike in size (PART_SPREAD). Why not erosion: a
    club's lobes fall apart before the neck between two clubs does. The loop is
    compiled (kernels/kmeans.py: numpy's overhead on a few hundred points was ~2 ms
    a split card; same arithmetic, same parts)."""
    alike, owner = split_pixels(np.asarray(labels, np.int32), label, k, KMEANS_STEPS,
                                 SETTLED, PART_SPREAD)
    return owner if alike else None
