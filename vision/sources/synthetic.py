"""Rendered scenes as a camera: frames with exact ground truth, for tests and the
referee's end-to-end runs (a whole game rendered frame by frame).

Either random scenes (`synthetic:?seed=3&cards=8&n=50&decks=french`), or a given
sequence of `SceneSpec`s (a scripted game). `truth` holds the ground truth of the
frame read last.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from vision.cardart import Pattern, list_decks
from vision.scene import CardTruth, SceneRenderer, SceneSpec, random_scene_spec
from vision.sources.base import FrameSource, SourceUnavailable


class SyntheticSource(FrameSource):
    """Frames drawn by `vision.scene`.

    With `specs` the frames are those scenes in order (then the source ends);
    otherwise random scenes of `cards` cards from `decks` (deck names, or a pattern
    like "french"), `n` of them (None: endless). `fps` sets the timestamps.

    Raises (constructor):
        SourceUnavailable: no card art is installed, or no deck matches `decks`.
    """

    def __init__(self, *, seed: int = 0, specs: Iterable[SceneSpec] | None = None,
                 n: int | None = None, cards: int = 8, decks: str | list[str] = "french",
                 size: tuple[int, int] = (1280, 720), overlap: float = 0.3,
                 face_down: float = 0.1, effects: float = 1.0, fps: float = 10.0) -> None:
        super().__init__(f"synthetic:?seed={seed}")
        self._rng = np.random.default_rng(seed)
        self._renderer = SceneRenderer()
        self.fps = fps
        self.truth: list[CardTruth] = []
        self.spec: SceneSpec | None = None
        if specs is not None:
            self._specs: Iterator[SceneSpec] = iter(specs)
            return
        if isinstance(decks, str):
            names = decks.split(",")
            if len(names) == 1 and names[0] in {p.value for p in Pattern}:
                names = [d.name for d in list_decks(names[0])]
        else:
            names = list(decks)
        if not names:
            raise SourceUnavailable(self.name, "no card decks installed for "
                                    f"{decks!r} (bash scripts/system-deps.sh)")
        self._specs = self._random(names, n, cards, size, overlap, face_down, effects)

    def _random(self, names: list[str], n: int | None, cards: int, size: tuple[int, int],
                overlap: float, face_down: float, effects: float) -> Iterator[SceneSpec]:
        i = 0
        while n is None or i < n:
            yield random_scene_spec(self._rng, names, cards, overlap=overlap,
                                    face_down=face_down, size=size, effects=effects)
            i += 1

    def _read(self) -> tuple[np.ndarray, float | None] | None:
        spec = next(self._specs, None)
        if spec is None:
            return None
        image, self.truth = self._renderer.render(spec, self._rng)
        self.spec = spec
        return image, self._seq / self.fps
