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
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.training.calibrate import CalCard

#: Seed of the calibration scenes (distinct from vision.evaluate's held-out seeds).
SEED = 20240777
#: Corner jitter of the "moved" reading (px, normal sigma, clipped at 3 sigma): about
#: the detector's median corner error at 1280x720 (vision/INTERFACES.md, VB1).
JITTER_PX = 2.0
#: Least overlap (IoU) for a detection to count as a card's (vision.evaluate's rule).
MIN_IOU = 0.5


def _poly_iou(a: Any, b: Any) -> float:
    from vision.evaluate import _poly_iou as iou

    return iou(a, b)


def scene_cards(decks: Sequence[str], n_scenes: int, seed: int = SEED,
                detect: Callable[[np.ndarray], list[Any]] | None = None,
                offset: int = 0) -> tuple[np.ndarray, list[CalCard]]:
    """Patches (N, H, W, 3) uint8 and cards of `n_scenes` scenes of `decks`.

    Every face-up card with a visible index gives up to three cards (true quad, moved
    quad, detected quad); face-down cards give the same three readings with truth None.
    `detect=None` uses vision.detect.detect_cards. Patch indices start at `offset`.
    """
    from vision.scene import SceneRenderer, random_scene_spec

    if detect is None:
        from vision.detect import detect_cards as detect
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    xs: list[np.ndarray] = []
    cards: list[CalCard] = []

    def add(patches: Sequence[np.ndarray], truth: str | None) -> None:
        if patches:
            start = offset + len(xs)
            xs.extend(patches)
            cards.append(CalCard(tuple(range(start, start + len(patches))), truth))

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
            for quad in (q, moved.astype(np.float32)):
                cut = extract_index_patches(image, quad)
                add([p for p, v in zip(cut, visible) if v], label)
            best, best_iou = None, MIN_IOU
            for j, c in enumerate(cands):
                if j not in used:
                    iou = _poly_iou(t.corners, c.corners)
                    if iou > best_iou:
                        best, best_iou = j, iou
            if best is not None:
                used.add(best)
                add(list(cands[best].index_patches), label)
    x = np.stack(xs) if xs else np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8)
    return x, cards
