"""Corner patches from the labelled real photos (images/train only), for fine-tuning.

The real photos carry whole-card boxes with a rank label, no corners and no suit; the
project's detector supplies the quads (matched to the labelled boxes by IoU) and so
the patches, exactly as at run time. Suits stay unknown (label -1: ignored by the
loss). images/test is never read here: it only measures (vision.evaluate).

Every fifth photo of images/train (`is_calibration_photo`, by a hash of the file name,
so adding photos moves none) is kept out of training: it checks the abstention
thresholds in the real-photo regime (vision.training.calibrate).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from vision.evaluate import REAL_PHOTOS, _box_iou, real_labels
from vision.types import RANKS

IGNORE = -1


def is_calibration_photo(name: str) -> bool:
    """Whether the train photo `name` is kept for calibration (one in five)."""
    return zlib.crc32(name.encode()) % 5 == 0


def real_patches(root: Path = REAL_PHOTOS, split: str = "train",
                 keep: Callable[[str], bool] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patches uint8 (N, H, W, 3), rank labels, card ids) from every matched visible
    corner of the photos whose name passes `keep` (default: all). Corners of one card
    share a card id (for pairing them in calibration)."""
    if split == "test":
        raise ValueError("images/test is for measuring only; never train on it")
    from vision.detect import detect_cards
    from vision.recognize.imagefile import load_image
    from vision.recognize.patch import extract_index_patches

    xs: list[np.ndarray] = []
    ys: list[int] = []
    ids: list[int] = []
    n_cards = 0
    for name, boxes in sorted(real_labels(root, split).items()):
        if keep is not None and not keep(name):
            continue
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
            n_cards += 1
            for p, visible in zip(patches, best.index_visible):
                if visible:
                    xs.append(p)
                    ys.append(RANKS.index(rank))
                    ids.append(n_cards)
    if not xs:
        return (np.zeros((0, 64, 32, 3), np.uint8), np.zeros((0,), np.int64),
                np.zeros((0,), np.int64))
    return np.stack(xs), np.array(ys, np.int64), np.array(ids, np.int64)
