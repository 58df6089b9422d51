"""How much two card quads overlap: one definition for the reading steps and the
evaluation (stills' finders ask "is this the card found already?", the evaluation
"is this sighting that card?": both must measure alike).

Kept apart from vision.detect.geometry (which has the same measure for the
detector's hypotheses) so that reading a card does not import the detector.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np


def quad_iou(a: Any, b: Any) -> float:
    """Intersection over union of two convex quads (any (4, 2) array-likes)."""
    qa = np.asarray(a, np.float32).reshape(4, 2)
    qb = np.asarray(b, np.float32).reshape(4, 2)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    union = float(cv2.contourArea(qa)) + float(cv2.contourArea(qb)) - inter
    return float(inter / union) if union > 0 else 0.0


def covered_share(region: np.ndarray, quads: Any) -> float:
    """Share of the convex `region` that the `quads` cover (overlaps counted twice);
    1 for an empty region. Stills' finders ask it of an index corner: does a read
    card or index lie on it?"""
    area = float(cv2.contourArea(region))
    if area <= 0:
        return 1.0
    return sum(float(cv2.intersectConvexConvex(region, q)[0]) for q in quads) / area
