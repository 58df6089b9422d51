"""What the detector reports of a card it found: its corners at full resolution,
the share of it and of each index corner not covered by the cards lying on it,
the upright index patches of the corners in view, and whether it shows its back.

Why its own module: finding the cards (detector.py) ends in quads; this turns
each quad into the `CardCandidate` the recogniser and the referee read.
"""

from __future__ import annotations

import numpy as np

from vision.detect import geometry as g
from vision.detect.candidate import CardCandidate
from vision.detect.evidence import Evidence
from vision.detect.faces import looks_face_down
from vision.recognize.patch import index_quads_and_patches

__all__ = ["describe"]


def describe(
    image: np.ndarray, ev: Evidence, i: int, quads: list[np.ndarray],
    box: list[tuple[float, float, float, float]], full: list[np.ndarray],
    support: float, with_patches: bool,
) -> CardCandidate:
    """Build the candidate for quads[i] (work scale, bounding boxes `box`; full[i]
    at full resolution); quads[:i] may lie on it."""
    q_work = quads[i]
    q = g.ordered(full[i])
    covers = [quads[j] / ev.scale for j in range(i)
              if not g.apart(box[i], box[j]) and g.intersection_area(q_work, quads[j]) > 1.0]
    area = g.quad_area(q)
    hidden = sum(g.intersection_area(q, c) for c in covers)
    visible = float(max(0.0, 1.0 - hidden / area)) if area > 0 else 0.0
    regions, both = index_quads_and_patches(image, q)
    flags = []
    for iq in regions:
        ia = g.quad_area(iq)
        hid = sum(g.intersection_area(iq, c) for c in covers)
        inside = _inside_image(iq, image.shape)
        flags.append(bool(hid <= 0.08 * ia and inside))
    index_visible = (flags[0], flags[1])
    patches: tuple[np.ndarray, ...] = ()
    corners: tuple[int, ...] = ()
    if with_patches and any(flags):
        patches = tuple(p for p, f in zip(both, flags) if f)
        corners = tuple(c for c, f in zip((0, 2), flags) if f)
    seen = [p for p, f in zip(both, flags) if f] or both
    return CardCandidate(
        corners=g.to_quad(q),
        face_down=looks_face_down(image, q, seen),
        score=round(support, 3),
        visible=round(visible, 3),
        index_visible=index_visible,
        index_patches=patches,
        patch_corners=corners,
    )


def _inside_image(q: np.ndarray, shape: tuple[int, ...], margin: float = 1.0) -> bool:
    """Whether the quad lies within the image, give or take `margin` pixels
    (compared as plain floats: the same test as on numpy's float32 minima and
    maxima, without eight numpy calls a corner of every card)."""
    h, w = shape[:2]
    xs, ys = q[:, 0].tolist(), q[:, 1].tolist()
    return bool(
        min(xs) >= -margin and min(ys) >= -margin
        and max(xs) <= w - 1 + margin and max(ys) <= h - 1 + margin
    )
