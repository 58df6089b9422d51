"""Which card lies on which: where two cards overlap, the one on top shows its
border there and the one below does not.

Why its own module: the detector orders its cards by it (cards on top first, so
that an index hidden under another card is not handed to the recogniser), once
more after merging the cards of its second look at a frame (squeeze.py).
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect import outline
from vision.detect.evidence import Evidence

__all__ = ["on_top", "stack_order"]


def on_top(ev: Evidence, a: np.ndarray, b: np.ndarray) -> bool:
    """True if card `a` lies on `b`: where they overlap, `a`'s border is visible (it
    casts an edge) while `b`'s border runs hidden under `a`."""
    pts, on = outline.outline_on(ev, np.stack([a, b]).astype(np.float32), 40)
    return _on_top(pts, on, a, b)


def _on_top(pts: np.ndarray, on: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """`on_top` from the outline samples of a and b (outline.outline_on, n=40)."""
    ia = outline.inside_quads(pts[0], [_shrink(b, 3.0)], 0.0)
    ib = outline.inside_quads(pts[1], [_shrink(a, 3.0)], 0.0)
    sa = float(on[0][ia].mean()) if ia.any() else 0.5
    sb = float(on[1][ib].mean()) if ib.any() else 0.5
    return sa >= sb


def _shrink(q: np.ndarray, px: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    n = np.linalg.norm(d, axis=1, keepdims=True) + 1e-9
    return (c + d * np.maximum(0.0, n - px) / n).astype(np.float32)


def stack_order(quads: list[np.ndarray], ev: Evidence) -> list[np.ndarray]:
    """Order so that every card comes after all the cards lying on it."""
    n = len(quads)
    above: list[set[int]] = [set() for _ in range(n)]
    if n < 2:
        return list(quads)
    # Every card's outline sampled once (outline_on is the same row by row).
    pts, on = outline.outline_on(ev, np.stack(quads).astype(np.float32), 40)
    box = g.boxes(quads)
    for i in range(n):
        for j in range(i + 1, n):
            if g.apart(box[i], box[j]) or g.intersection_area(quads[i], quads[j]) <= 1.0:
                continue
            if _on_top(pts[[i, j]], on[[i, j]], quads[i], quads[j]):
                above[j].add(i)
            else:
                above[i].add(j)
    order: list[int] = []
    placed: set[int] = set()
    while len(order) < n:
        ready = [i for i in range(n) if i not in placed and above[i] <= placed]
        if not ready:  # a cycle (three cards each on the next): keep detection order
            ready = [min(i for i in range(n) if i not in placed)]
        ready.sort(key=lambda i: (quads[i][:, 1].mean(), quads[i][:, 0].mean()))
        for i in ready:
            order.append(i)
            placed.add(i)
    return [quads[i] for i in order]
