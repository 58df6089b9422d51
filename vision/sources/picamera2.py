"""Raspberry Pi cameras through picamera2 (libcamera).

picamera2 is not on PyPI in a usable form: on Raspberry Pi OS it comes from apt as
`python3-picamera2`. Make the venv see it with

    sudo apt install python3-picamera2
    python3 -m venv --system-site-packages .venv && .venv/bin/pip install -e .

The library is imported only when a `Picamera2Source` is built without a `camera`
object, so this module imports anywhere; tests pass a stand-in object with the same
methods (`create_video_configuration`, `configure`, `start`, `capture_array`, `stop`,
`close`).
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

from vision.sources.base import FrameSource, SourceUnavailable


class Picamera2Source(FrameSource):
    """Frames from Pi camera `index`, `size` (width, height), BGR.

    picamera2's "RGB888" format is stored B, G, R per pixel, i.e. already OpenCV's
    order; a 4-channel array (XBGR8888 set by the caller) is cut to 3 channels.

    Raises (constructor):
        SourceUnavailable: picamera2 is not installed, or the camera cannot start.
    """

    def __init__(self, index: int = 0, *, size: tuple[int, int] = (1280, 720),
                 camera: Any = None) -> None:
        super().__init__(f"picamera2:{index}")
        self._cam: Any = None
        if camera is None:
            try:
                from picamera2 import Picamera2  # type: ignore[import-not-found]
            except ImportError:
                raise SourceUnavailable(self.name, "picamera2 is not installed (on Raspberry "
                                        "Pi OS: apt install python3-picamera2 and use a "
                                        "venv made with --system-site-packages)") from None
            try:
                camera = Picamera2(index)
            except Exception as exc:  # libcamera raises plain RuntimeError/IndexError
                raise SourceUnavailable(self.name, f"camera did not open: {exc}") from exc
        try:
            config = camera.create_video_configuration(
                main={"size": tuple(size), "format": "RGB888"})
            camera.configure(config)
            camera.start()
        except Exception as exc:
            _quiet_close(camera)
            raise SourceUnavailable(self.name, f"camera did not start: {exc}") from exc
        self._cam = camera

    def _read(self) -> tuple[np.ndarray, float | None] | None:
        image = np.asarray(self._cam.capture_array("main"))
        if image.ndim == 3 and image.shape[2] == 4:
            image = image[:, :, :3]
        return np.ascontiguousarray(image), None

    def _close(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


def _quiet_close(camera: Any) -> None:
    """Close a camera that failed to start; its own close error would only hide the
    start error, which is the one to report."""
    with contextlib.suppress(Exception):
        camera.close()
