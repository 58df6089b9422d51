"""Writing frames to a video file (MJPG in AVI: readable by any OpenCV build)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.sources.base import SourceError
from vision.types import Frame


class VideoWriteError(SourceError, OSError):
    """OpenCV could not write the video file."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot write video {path}: {reason}")
        self.path = path
        self.reason = reason


def write_video(frames: Iterable[Frame | np.ndarray], path: str | Path, *, fps: float = 10.0,
                fourcc: str = "MJPG") -> int:
    """Write BGR frames (all the size of the first) to `path`; returns the count.

    The end-to-end tests render a game as a video and replay it through `video:PATH`.

    Raises:
        VideoWriteError: the writer does not open, or a frame has another size.
    """
    writer: cv2.VideoWriter | None = None
    count = 0
    size: tuple[int, int] | None = None
    try:
        for f in frames:
            image = f.image if isinstance(f, Frame) else f
            h, w = image.shape[:2]
            if writer is None:
                size = (w, h)
                code = cv2.VideoWriter.fourcc(*fourcc)
                writer = cv2.VideoWriter(str(path), code, fps, size)
                if not writer.isOpened():
                    raise VideoWriteError(str(path), f"no {fourcc} encoder for this file "
                                          "name (use .avi for MJPG)")
            if size is not None and (w, h) != size:
                raise VideoWriteError(str(path), f"frame {count} is {w}x{h}, "
                                      f"the video is {size[0]}x{size[1]}")
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            writer.write(np.ascontiguousarray(image))
            count += 1
    finally:
        if writer is not None:
            writer.release()
    return count
