"""Recorded sessions: frames saved with their timestamps, replayed exactly.

A session is a folder with `session.jsonl` (one line per frame: `{"image": FILE,
"seq": N, "t": SECONDS, "source": TEXT}`, FILE relative to the folder) and the image
files. `record_session` writes one from any frames (a live camera, a synthetic game);
`replay:FOLDER` (or `replay:FOLDER/session.jsonl`) plays it back with the recorded
`t` and `source`, so a disputed game can be re-run through vision later, frame for
frame, with the timing the referee saw.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.recognize.imagefile import load_image
from vision.sources.base import FrameSource, SourceError, SourceUnavailable
from vision.types import Frame

INDEX = "session.jsonl"


class SessionWriteError(SourceError, OSError):
    """A frame of a session could not be written."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot record {path}: {reason}")
        self.path = path
        self.reason = reason


def record_session(frames: Iterable[Frame], folder: str | Path, *,
                   jpeg_quality: int | None = 92) -> int:
    """Save frames (JPEG at `jpeg_quality`, or PNG when None) and the index; returns
    the number written. The index is flushed per frame, so a crash keeps what came
    before it.

    Raises:
        SessionWriteError: an image cannot be encoded or written.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    suffix = ".png" if jpeg_quality is None else ".jpg"
    params = [] if jpeg_quality is None else [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)]
    n = 0
    with open(out / INDEX, "w", encoding="utf-8") as index:
        for f in frames:
            name = f"frame-{f.seq:06d}{suffix}"
            ok, buf = cv2.imencode(suffix, f.image, params)
            if not ok:
                raise SessionWriteError(str(out / name), "OpenCV could not encode the frame")
            try:
                (out / name).write_bytes(buf.tobytes())
            except OSError as exc:
                raise SessionWriteError(str(out / name), exc.strerror or str(exc)) from exc
            index.write(json.dumps({"image": name, "seq": f.seq, "t": f.t,
                                    "source": f.source}) + "\n")
            index.flush()
            n += 1
    return n


class ReplaySource(FrameSource):
    """Frames of a recorded session, with their recorded `t`, `source` (and the seq
    numbering restarts at 0, like every source).

    Raises (constructor):
        SourceUnavailable: no session index there, or a line of it is not valid.
    """

    def __init__(self, path: str | Path) -> None:
        p = Path(path)
        index = p / INDEX if p.is_dir() else p
        super().__init__(f"replay:{path}")
        if not index.is_file():
            raise SourceUnavailable(self.name, f"no {INDEX} there")
        self._folder = index.parent
        self._entries: list[tuple[Path, float, str]] = []
        for no, line in enumerate(index.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                self._entries.append((self._folder / str(rec["image"]), float(rec["t"]),
                                      str(rec.get("source", ""))))
            except (ValueError, KeyError, TypeError) as exc:
                raise SourceUnavailable(self.name, f"line {no} of {index.name} is not a "
                                        f"frame record ({exc})") from None
        self._next = 0
        self._current = ""

    def __len__(self) -> int:
        return len(self._entries)

    def _frame_source(self) -> str:
        return self._current

    def _read(self) -> tuple[np.ndarray, float | None] | None:
        if self._next >= len(self._entries):
            return None
        path, t, source = self._entries[self._next]
        self._next += 1
        self._current = source or str(path)
        return load_image(path), t
