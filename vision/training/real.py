"""Corner patches from the labelled real photos (images/train only), for fine-tuning.

The real photos carry whole-card boxes with a rank label, no corners and no suit; the
project's detector supplies the quads (matched to the labelled boxes by IoU) and so
the patches, exactly as at run time. Suits stay unknown (label -1: ignored by the
loss). images/test is never read here: it only measures (vision.evaluate_real).

Every fifth photo of images/train (`is_calibration_photo`, by a hash of the file name,
so adding photos moves none) is kept out of training: it checks the abstention
thresholds in the real-photo regime (vision.training.calibrate).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from vision.evaluate_match import box_iou
from vision.evaluate_real import REAL_PHOTOS, real_labels
from vision.types import RANKS

IGNORE = -1


def is_calibration_photo(name: str) -> bool:
    """Whether the train photo `name` is kept for calibration (one in five)."""
    return zlib.crc32(name.encode()) % 5 == 0


def _matched_cards(root: Path, split: str, keep: Callable[[str], bool] | None
                   ) -> Iterator[tuple[np.ndarray, np.ndarray, tuple[bool, ...], str]]:
    """(image, detected quad, visible corners, rank) of every labelled card of the
    photos whose name passes `keep` that the detector finds (IoU > 0.6)."""
    if split == "test":
        raise ValueError("images/test is for measuring only; never train on it")
    from vision.detect import detect_cards
    from vision.recognize.imagefile import load_image

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
                iou = box_iou(box, b)
                if iou > best_iou:
                    best, best_iou = c, iou
            if best is not None:
                yield image, np.asarray(best.corners, np.float32), best.index_visible, rank


def real_patches(root: Path = REAL_PHOTOS, split: str = "train",
                 keep: Callable[[str], bool] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(patches uint8 (N, H, W, 3), rank labels, card ids) from every matched visible
    corner of the photos whose name passes `keep` (default: all). Corners of one card
    share a card id (for pairing them in calibration)."""
    x, _, r, ids = real_patch_looks(root, split, keep, scales=())
    return x, r, ids


def real_patch_looks(root: Path = REAL_PHOTOS, split: str = "train",
                     keep: Callable[[str], bool] | None = None,
                     scales: tuple[float, ...] | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """As `real_patches`, plus each patch's second-look cuts (N, L, H, W, 3: the quad
    scaled by `scales`, default classifier.SECOND_LOOK_SCALES) for calibrating them."""
    from vision.recognize.classifier import SECOND_LOOK_SCALES, look_quads
    from vision.recognize.patch import extract_index_patches

    scales = SECOND_LOOK_SCALES if scales is None else scales
    xs: list[np.ndarray] = []
    looks: list[np.ndarray] = []
    ys: list[int] = []
    ids: list[int] = []
    for n_cards, (image, quad, visible, rank) in enumerate(_matched_cards(root, split, keep)):
        again = [extract_index_patches(image, q) for q in look_quads(quad, scales)]
        for k, (p, v) in enumerate(zip(extract_index_patches(image, quad), visible)):
            if v:
                xs.append(p)
                looks.append(np.stack([a[k] for a in again]) if again else
                             np.zeros((0, *p.shape), np.uint8))
                ys.append(RANKS.index(rank))
                ids.append(n_cards + 1)
    if not xs:
        return (np.zeros((0, 64, 32, 3), np.uint8), np.zeros((0, len(scales), 64, 32, 3), np.uint8),
                np.zeros((0,), np.int64), np.zeros((0,), np.int64))
    return np.stack(xs), np.stack(looks), np.array(ys, np.int64), np.array(ids, np.int64)
