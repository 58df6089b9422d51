"""The one interface every frame source offers, and its errors.

Modelled on gpiozero devices and pyserial ports: `read()` returns the next `Frame`
(or None at the end of a finite source), iteration yields frames until the end,
`close()` is idempotent, `closed` tells, and `with` closes. Backends implement only
`_read()` and `_close()`; sequence numbers and timestamps are kept here so that every
backend numbers frames the same way.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import TracebackType
from typing import Self

import numpy as np

from vision.types import Frame, VisionError


class SourceError(VisionError):
    """Base of frame-source errors."""


class SourceClosed(SourceError, RuntimeError):
    """read() on a source that was closed."""

    def __init__(self, source: str) -> None:
        super().__init__(f"frame source {source} is closed")
        self.source = source


class SourceUnavailable(SourceError, RuntimeError):
    """The camera, file or library behind a source cannot be opened here."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"cannot open frame source {source}: {reason}")
        self.source = source
        self.reason = reason


class BadSourceURL(SourceError, ValueError):
    """A source string `open_source` does not understand."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"bad frame source {url!r}: {reason}")
        self.url = url
        self.reason = reason


class FrameSource:
    """Base class: numbered, timestamped frames from somewhere.

    Subclasses must implement `_read() -> (image, t or None) | None` and may implement
    `_close()`. A `t` of None means "use seconds since open on the monotonic clock".
    """

    #: Text naming the source in frames and messages, e.g. "opencv:0".
    name: str = "source"

    def __init__(self, name: str) -> None:
        self.name = name
        self._closed = False
        self._seq = 0
        self._t0 = time.monotonic()

    # -- subclass hooks ---------------------------------------------------------------
    def _read(self) -> tuple[np.ndarray, float | None] | None:
        raise NotImplementedError

    def _close(self) -> None:
        """Release the device or file; called once."""

    def _frame_source(self) -> str:
        """Text for `Frame.source` of the frame just read (default: the source name)."""
        return self.name

    # -- public interface ---------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise SourceClosed(self.name)

    def read(self) -> Frame | None:
        """The next frame, or None when a finite source is exhausted.

        Raises:
            SourceClosed: the source was closed.
            UnreadableImage: (file sources) the next file is not a readable image.
        """
        self._check_open()
        got = self._read()
        if got is None:
            return None
        image, t = got
        if t is None:
            t = time.monotonic() - self._t0
        frame = Frame(image=image, seq=self._seq, t=float(t), source=self._frame_source())
        self._seq += 1
        return frame

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def close(self) -> None:
        """Release the source. Safe to call more than once."""
        if not self._closed:
            self._closed = True
            self._close()

    def __enter__(self) -> Self:
        self._check_open()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"next seq {self._seq}"
        return f"<{type(self).__name__} {self.name} ({state})>"
