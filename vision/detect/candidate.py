"""What the detector reports for one card: where it is, which side is up, and the
upright crops of its corner indices that the recogniser reads.

Why separate from the detector: referee/ and vision.pipeline consume candidates
without caring how they were found, and tests build them by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.types import Quad


@dataclass(frozen=True, slots=True, eq=False)
class CardCandidate:
    """One card found in an image.

    `corners` are image pixels, clockwise on screen, first edge a short one (see
    `vision.recognize.patch.normalize_quad`). `face_down` is the detector's guess
    that it sees a back. `index_visible` says, for the two index corners (quad
    corner 0, then corner 2), whether that corner lies clear of any card on top of
    it; `index_patches` holds the upright patches of the visible ones only, in that
    order, and `patch_corners` names the corner each patch came from. `score` is the
    share of the card's visible outline backed by image edges (0..1), `visible` the
    share of its area not covered by other cards found.
    """

    corners: Quad
    face_down: bool = False
    score: float = 0.0
    visible: float = 1.0
    index_visible: tuple[bool, bool] = (True, True)
    index_patches: tuple[np.ndarray, ...] = field(default_factory=tuple)
    patch_corners: tuple[int, ...] = field(default_factory=tuple)

    @property
    def quad(self) -> np.ndarray:
        """The corners as a float32 (4, 2) array."""
        return np.asarray(self.corners, dtype=np.float32)

    @property
    def center(self) -> tuple[float, float]:
        q = self.quad
        return float(q[:, 0].mean()), float(q[:, 1].mean())

    def __repr__(self) -> str:
        pts = ", ".join(f"({x:.0f},{y:.0f})" for x, y in self.corners)
        side = "back" if self.face_down else "face"
        return (
            f"CardCandidate({side}, [{pts}], score={self.score:.2f}, "
            f"visible={self.visible:.2f}, index_visible={self.index_visible})"
        )
