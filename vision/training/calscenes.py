"""Calibration cards seen as the camera sees them: whole scenes of the calibration decks.

Why, next to the single-card views (synth.py) and the harsh training-style scenes
(scenes.py): the thresholds should fit what the recogniser is actually shown. Here the
calibration decks are laid out exactly as vision.evaluate measures the held-out decks
(vision.scene defaults: 8 cards, 40% laid on others, 10% face down) and every card is
read the three ways the chain reads it: from its true quad, from the true quad moved
by a few pixels (the detector's corner error), and from the detector's own quad (its
visible corners only; matched to the truth by overlap, as the measurement does). Each
card is one `CalCard` holding the corners it would be read from together, so the
thresholds are chosen on cards, not patches. Backs are cards that must not be read.
Each patch comes with its second-look cuts (classifier.look_again), whose bars are
calibrated on these cards only: they need the scene, not just the patch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vision.recognize.classifier import SECOND_LOOK_SCALES, look_quads
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.training.calibrate import CalCard

#: Seed of the calibration scenes (distinct from vision.evaluate's held-out seeds).
SEED = 20240777
#: Corner jitter of the "moved" reading (px, normal sigma, clipped at 3 sigma): about
#: the detector's median corner error at 1280x720 (vision/INTERFACES.md, VB1).
JITTER_PX = 2.0
#: Least overlap (IoU) for a detection to count as a card's (vision.evaluate's rule).
MIN_IOU = 0.5


def scene_cards(decks: Sequence[str], n_scenes: int, seed: int = SEED,
                detect: Callable[[np.ndarray], list[Any]] | None = None,
                offset: int = 0) -> tuple[np.ndarray, np.ndarray, list[CalCard]]:
    """Patches (N, H, W, 3) uint8, their second-look cuts (N, L, H, W, 3: the quad
    scaled by classifier.SECOND_LOOK_SCALES) and the cards of `n_scenes` scenes.

    Every face-up card with a visible index gives up to three cards (true quad, moved
    quad, detected quad); face-down cards give the same three readings with truth None.
    `detect=None` uses vision.detect.detect_cards. Patch indices start at `offset`.
    """
    from vision.scene import SceneRenderer, random_scene_spec

    if detect is None:
        from vision.detect import detect_cards

        detect = detect_cards
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    xs: list[np.ndarray] = []
    looks: list[np.ndarray] = []
    cards: list[CalCard] = []

    def add(image: np.ndarray, quad: np.ndarray, visible: Sequence[bool],
            truth: str | None) -> None:
        cut = [p for p, v in zip(extract_index_patches(image, quad), visible) if v]
        if not cut:
            return
        again = [[p for p, v in zip(extract_index_patches(image, q), visible) if v]
                 for q in look_quads(quad)]
        start = offset + len(xs)
        xs.extend(cut)
        looks.extend(np.stack([a[i] for a in again]) for i in range(len(cut)))
        cards.append(CalCard(tuple(range(start, start + len(cut))), truth))

    for _ in range(n_scenes):
        spec = random_scene_spec(rng, list(decks), 8, overlap=0.4, face_down=0.1)
        image, truth = renderer.render(spec, rng)
        cands = detect(image)
        used: set[int] = set()
        for t in truth:
            visible = (True, True) if t.face_down else tuple(r.visible for r in t.index_regions)
            label = None if t.face_down else t.card
            q = np.asarray(t.corners, np.float32)
            moved = q + np.clip(rng.normal(0, JITTER_PX, (4, 2)), -3 * JITTER_PX, 3 * JITTER_PX)
            add(image, q, visible, label)
            add(image, moved.astype(np.float32), visible, label)
            best, best_iou = None, MIN_IOU
            for j, c in enumerate(cands):
                if j not in used:
                    iou = quad_iou(t.corners, c.corners)
                    if iou > best_iou:
                        best, best_iou = j, iou
            if best is not None:
                used.add(best)
                c = cands[best]
                add(image, np.asarray(c.corners, np.float32), c.index_visible, label)
    n_looks = len(SECOND_LOOK_SCALES)
    if not xs:
        return (np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8),
                np.zeros((0, n_looks, PATCH_H, PATCH_W, 3), np.uint8), cards)
    return np.stack(xs), np.stack(looks), cards
