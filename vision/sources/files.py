"""A folder (or glob) of still images, in sorted order: test fixtures, photo sets.

Unreadable files (empty, truncated, not images) raise `UnreadableImage` naming the
file by default, because silently skipping a frame would make a game record lie;
`skip_unreadable=True` (URL `file:DIR?skip=1`) warns with `UnreadableImageWarning`
and moves on instead. `t` is `seq / fps`, so a folder replays with fixed timestamps.
"""

from __future__ import annotations

import glob
import warnings
from pathlib import Path

import numpy as np

from vision.recognize.imagefile import load_image
from vision.sources.base import FrameSource, SourceUnavailable
from vision.types import UnreadableImage

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


class UnreadableImageWarning(UserWarning):
    """An image file was skipped because it cannot be read."""


def list_images(pattern: str | Path) -> list[Path]:
    """Image files in a directory (by suffix), or matching a glob, sorted by path."""
    p = Path(pattern)
    if p.is_dir():
        return sorted(q for q in p.iterdir() if q.suffix.lower() in IMAGE_SUFFIXES
                      and q.is_file())
    if p.is_file():
        return [p]
    return sorted(Path(m) for m in glob.glob(str(pattern)) if Path(m).is_file())


class FolderSource(FrameSource):
    """Frames from image files.

    Raises (constructor):
        SourceUnavailable: no image file matches.
    """

    def __init__(self, pattern: str | Path, *, fps: float = 10.0,
                 skip_unreadable: bool = False, loop: bool = False) -> None:
        super().__init__(f"file:{pattern}")
        self.paths = list_images(pattern)
        if not self.paths:
            raise SourceUnavailable(self.name, "no image files there")
        self.fps = fps
        self.skip_unreadable = skip_unreadable
        self.loop = loop
        self._next = 0
        self._current = ""

    def _frame_source(self) -> str:
        return self._current

    def _read(self) -> tuple[np.ndarray, float | None] | None:
        failures = 0
        while failures < len(self.paths):  # every file unreadable: end, even if looping
            if self._next >= len(self.paths):
                if not self.loop:
                    return None
                self._next = 0
            path = self.paths[self._next]
            self._next += 1
            try:
                image = load_image(path)
            except UnreadableImage as exc:
                if not self.skip_unreadable:
                    raise
                warnings.warn(str(exc), UnreadableImageWarning, stacklevel=3)
                failures += 1
                continue
            self._current = str(path)
            return image, self._seq / self.fps
        return None
