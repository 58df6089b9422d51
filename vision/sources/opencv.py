"""USB cameras and video files through `cv2.VideoCapture`.

`opencv:0` opens camera 0 (V4L2 on Linux); `video:PATH` opens a file, whose frames are
timestamped from the container (CAP_PROP_POS_MSEC), so replaying a recording gives
the same `t` every time.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.sources.base import FrameSource, SourceUnavailable


class OpenCVSource(FrameSource):
    """A camera index or a video file read with OpenCV.

    Raises (constructor):
        SourceUnavailable: the camera or file cannot be opened.
    """

    def __init__(self, device: int | str, *, size: tuple[int, int] | None = None,
                 api: int = cv2.CAP_ANY, fourcc: str | None = "MJPG") -> None:
        is_file = isinstance(device, str)
        super().__init__(f"video:{device}" if is_file else f"opencv:{device}")
        self._cap: cv2.VideoCapture | None = None
        self._is_file = is_file
        if is_file and not Path(str(device)).is_file():
            raise SourceUnavailable(self.name, "no such file")
        cap = cv2.VideoCapture(device, api)
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(self.name, "OpenCV could not open it (no such camera, "
                                    "busy, or an unsupported video format)")
        if not is_file:
            # USB 2 webcams give 1280x720 at a usable rate only as MJPG (raw YUYV: ~10
            # fps); and a referee wants the newest frame, not one queued a second ago.
            if fourcc:
                cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*fourcc))
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            if size is not None:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._cap = cap

    @property
    def fps(self) -> float:
        """Frames per second the device or container reports (0 when unknown)."""
        return float(self._cap.get(cv2.CAP_PROP_FPS)) if self._cap is not None else 0.0

    def _read(self) -> tuple[np.ndarray, float | None] | None:
        assert self._cap is not None
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        t = None
        if self._is_file:
            ms = self._cap.get(cv2.CAP_PROP_POS_MSEC)
            fps = self.fps
            # POS_MSEC is the position *after* the read in some backends: use the index
            t = (self._seq / fps) if fps > 0 else ms / 1000.0
        return image, t

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None
