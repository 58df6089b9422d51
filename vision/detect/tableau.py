"""Hand-placed test tables: card art pasted flat onto a plain cloth at exact spots.

Why, next to vision.scene's full renderer: detector tests need layouts the random
renderer rarely makes on purpose (two cards touching edge to edge, a beating card
laid across its attack at a given angle, a crowded frame) with exact corners, and
they need them fast and without perspective, so a failure points at the detector.
Card art comes from vision.cardart (rendered at test time, never committed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cardart import DeckArt, render_back, render_card

#: Cloth colours (BGR) for the plain tables.
CLOTHS = {
    "felt": (40, 110, 30),
    "dark": (50, 40, 35),
    "light": (200, 196, 190),
    "wood": (60, 100, 150),
}


@dataclass(frozen=True, slots=True)
class Placement:
    """One card to lay: `card` text ("QH") or None for a back; centre in pixels;
    rotation in degrees (counter-clockwise on screen, as cv2 does it)."""

    card: str | None
    center: tuple[float, float]
    angle: float = 0.0


@dataclass(frozen=True, slots=True, eq=False)
class Laid:
    """A card as laid: its corners clockwise from the printed top-left, in pixels."""

    card: str | None
    corners: np.ndarray  # (4, 2) float32

    @property
    def face_down(self) -> bool:
        return self.card is None


def cloth(size: tuple[int, int], kind: str, rng: np.random.Generator) -> np.ndarray:
    """A plain cloth with a little low-frequency shading and sensor noise."""
    w, h = size
    img = np.zeros((h, w, 3), np.float32) + np.array(CLOTHS[kind], np.float32)
    shade = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
    shade = cv2.resize(cv2.GaussianBlur(shade, (0, 0), 2), (w, h))
    img += shade[..., None] * 10 + rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def lay(
    deck: DeckArt,
    placements: Sequence[Placement],
    *,
    size: tuple[int, int] = (1280, 720),
    card_height: int = 170,
    kind: str = "felt",
    seed: int = 0,
    shadow: bool = True,
) -> tuple[np.ndarray, list[Laid]]:
    """Lay the cards in order (later ones on top); return the BGR image and truth."""
    rng = np.random.default_rng(seed)
    img = cloth(size, kind, rng).astype(np.float32)
    laid = []
    for p in placements:
        art = render_back(deck, card_height) if p.card is None else render_card(deck, p.card, card_height)
        img, quad = _paste(img, art, p.center, p.angle, shadow)
        laid.append(Laid(p.card, quad))
    return np.clip(img, 0, 255).astype(np.uint8), laid


def _paste(
    bg: np.ndarray, art: np.ndarray, center: tuple[float, float], angle: float, shadow: bool
) -> tuple[np.ndarray, np.ndarray]:
    h, w = art.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += np.array(center) - np.array([w / 2, h / 2])
    H, W = bg.shape[:2]
    warped = cv2.warpAffine(art, m, (W, H), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:].astype(np.float32) / 255.0
    out = bg
    if shadow:
        sh = cv2.GaussianBlur(np.roll(np.roll(a[:, :, 0], 3, 0), 3, 1), (0, 0), 3)[..., None]
        out = out * (1 - 0.35 * sh)
    out = out * (1 - a) + warped[:, :, :3].astype(np.float32) * a
    pts = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    quad = (np.hstack([pts, np.ones((4, 1), np.float32)]) @ m.T).astype(np.float32)
    return out, quad


def grid(
    cards: Sequence[str | None], *, size: tuple[int, int] = (1280, 720), cols: int = 4,
    seed: int = 0, jitter: float = 25.0,
) -> list[Placement]:
    """Cards spread apart on a grid, each at a random angle (8 cards: 4 x 2)."""
    rng = np.random.default_rng(seed)
    w, h = size
    rows = (len(cards) + cols - 1) // cols
    out = []
    for i, c in enumerate(cards):
        cx = (i % cols + 0.5) * w / cols + rng.uniform(-jitter, jitter)
        cy = (i // cols + 0.5) * h / rows + rng.uniform(-jitter, jitter)
        out.append(Placement(c, (float(cx), float(cy)), float(rng.uniform(0, 360))))
    return out
