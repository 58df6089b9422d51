"""Corner patches cut from whole rendered table scenes (vision.scene), with labels.

Why, next to synth.py's single-card views: the scene renderer is the camera model the
project measures with (perspective over a whole table, its own blur, light, JPEG and
table textures, cards lying across each other, hands), and patches from it were the
regime where the network was right but under-confident. Training decks only; the
quads are the true ones moved by a few pixels, as the detector gets them (its median
corner error is ~4 px at 1280x720).

Labels follow synth.py: rank 0..12 / suit 0..3, "none" (13 / 4) for the corners of
face-down cards and for index regions mostly covered; half-covered corners are left
out (neither a clean index nor clearly none). Deterministic for a given seed.
"""

from __future__ import annotations

import numpy as np

from vision.cardart import DeckArt, parse_card
from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches
from vision.training.synth import NONE_RANK, NONE_SUIT
from vision.types import RANKS, SUITS

#: Quad jitter (px, per corner, normal sigma, clipped at 3 sigma): detector-like.
JITTER_PX = 2.0


def _labels(card: str | None, deck: str, courtless: tuple[str, ...]) -> tuple[int, int]:
    if card is None:
        return NONE_RANK, NONE_SUIT
    r, s = parse_card(card)
    rank = RANKS.index(r)
    if deck in courtless and rank >= 10:  # court pictures fill the corner: no index
        return NONE_RANK, NONE_SUIT
    return rank, SUITS.index(s)


def scene_patches(rng: np.random.Generator, decks: list[DeckArt], n_scenes: int,
                  courtless: tuple[str, ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Patches of `n_scenes` random scenes of `decks` -> (x uint8 (N, H, W, 3), r, s).

    Both corners of a card come out consecutively (as calibrate.py pairs them).
    """
    from vision.scene import SceneRenderer, TableStyle, random_scene_spec

    renderer = SceneRenderer()
    names = [d.name for d in decks]
    xs: list[np.ndarray] = []
    rs: list[int] = []
    ss: list[int] = []
    for _ in range(n_scenes):
        spec = random_scene_spec(
            rng, names, int(rng.integers(4, 11)), overlap=0.45, face_down=0.12,
            distractors=0.3, stretch=0.15, brightness=(0.6, 1.35),
            tables=list(TableStyle), hands=0.2, off_edge=0.2,
            px_per_mm=(1.0, 2.8))
        image, truth = renderer.render(spec, rng)
        for t in truth:
            q = np.asarray(t.corners, np.float32)
            q = q + np.clip(rng.normal(0, JITTER_PX, (4, 2)), -3 * JITTER_PX, 3 * JITTER_PX)
            patches = extract_index_patches(image, q.astype(np.float32))
            if t.face_down:
                if rng.random() < 0.5:  # backs are many and alike: half of them do
                    xs.append(patches[int(rng.integers(2))])
                    rs.append(NONE_RANK)
                    ss.append(NONE_SUIT)
                continue
            label = _labels(t.card, t.deck, courtless)
            for patch, region in zip(patches, t.index_regions):
                if region.visible_fraction >= 0.95:
                    xs.append(patch)
                    rs.append(label[0])
                    ss.append(label[1])
                elif region.visible_fraction < 0.4:
                    xs.append(patch)
                    rs.append(NONE_RANK)
                    ss.append(NONE_SUIT)
    x = np.stack(xs) if xs else np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8)
    return x, np.array(rs, np.int64), np.array(ss, np.int64)
