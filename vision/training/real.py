"""Corner patches from the labelled real photos (images/train only), for fine-tuning.

The real photos carry whole-card boxes with a rank label, no corners and no suit; the
project's detector supplies the quads (matched to the labelled boxes by IoU) and so
the patches, exactly as at run time. Suits stay unknown (label -1: ignored by the
loss). images/test is never read here: it only measures (vision.evaluate).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.evaluate import REAL_PHOTOS, _box_iou, real_labels
from vision.types import RANKS

IGNORE = -1


def real_patches(root: Path = REAL_PHOTOS, split: str = "train"
                 ) -> tuple[np.ndarray, np.ndarray]:
    """(patches uint8 (N, H, W, 3), rank labels) from every matched visible corner."""
    if split == "test":
        raise ValueError("images/test is for measuring only; never train on it")
    from vision.detect import detect_cards
    from vision.recognize.imagefile import load_image
    from vision.recognize.patch import extract_index_patches

    xs: list[np.ndarray] = []
    ys: list[int] = []
    for name, boxes in sorted(real_labels(root, split).items()):
        image = load_image(root / "images" / split / name)
        cands = detect_cards(image)
        for rank, box in boxes:
            best, best_iou = None, 0.6
            for c in cands:
                q = np.asarray(c.corners)
                b = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
                iou = _box_iou(box, b)
                if iou > best_iou:
                    best, best_iou = c, iou
            if best is None:
                continue
            patches = extract_index_patches(image, best.corners)
            for p, visible in zip(patches, best.index_visible):
                if visible:
                    xs.append(p)
                    ys.append(RANKS.index(rank))
    if not xs:
        return np.zeros((0, 64, 32, 3), np.uint8), np.zeros((0,), np.int64)
    return np.stack(xs), np.array(ys, np.int64)
