"""Where frames come from: Pi camera, USB camera, video file, image folder, rendered
scenes; one `FrameSource` interface, chosen by a URL-like string.

    open_source("picamera2:0")            Pi camera 0 (picamera2, imported only here)
    open_source("opencv:0")               USB camera 0 through cv2.VideoCapture
    open_source("video:game.avi")         a video file
    open_source("file:photos/")           images in a folder (or a glob), sorted
    open_source("file:photos/?skip=1")    ... skipping unreadable files with a warning
    open_source("synthetic:?seed=3&cards=8&n=20&decks=french")   rendered scenes
    open_source("replay:session/")        a session saved by `record_session`
    open_source("photos/") / ("game.avi") a plain path: folder/image or video by suffix

Query parameters become keyword arguments (`size=1280x720`, `fps=15`); unknown ones
are a `BadSourceURL` naming those the backend takes. Backends are
imported lazily, like pyserial's `serial_for_url`, so hardware libraries load only
when chosen.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from vision.sources.base import (
    BadSourceURL,
    FrameSource,
    SourceClosed,
    SourceError,
    SourceUnavailable,
)

#: scheme -> "module:Class" (module relative to vision.sources)
BACKENDS = {
    "picamera2": "picamera2:Picamera2Source",
    "opencv": "opencv:OpenCVSource",
    "video": "opencv:OpenCVSource",
    "file": "files:FolderSource",
    "synthetic": "synthetic:SyntheticSource",
    "replay": "replay:ReplaySource",
}
VIDEO_SUFFIXES = frozenset({".avi", ".mp4", ".mkv", ".mov", ".webm", ".mjpg", ".m4v"})

__all__ = ["BACKENDS", "BadSourceURL", "FrameSource", "SourceClosed", "SourceError",
           "SourceUnavailable", "open_source", "record_session", "write_video"]


def _value(url: str, key: str, text: str) -> Any:
    if key == "size":
        try:
            w, h = text.lower().split("x")
            return (int(w), int(h))
        except ValueError:
            raise BadSourceURL(url, f"size must look like 1280x720, not {text!r}") from None
    if key in {"skip", "skip_unreadable", "loop"}:
        return text.lower() in {"1", "true", "yes", "on"}
    if key in {"seed", "n", "cards"}:
        try:
            return int(text)
        except ValueError:
            raise BadSourceURL(url, f"{key} must be an integer, not {text!r}") from None
    if key in {"fps", "overlap", "face_down", "effects"}:
        try:
            return float(text)
        except ValueError:
            raise BadSourceURL(url, f"{key} must be a number, not {text!r}") from None
    return text


def open_source(url: str, **kwargs: Any) -> FrameSource:
    """Open the frame source named by `url` (see the module docstring).

    Keyword arguments are passed to the backend and override query parameters.

    Raises:
        BadSourceURL: unknown scheme or malformed parameter.
        SourceUnavailable: the device, file or library is not there.
    """
    scheme, sep, rest = url.partition(":")
    if not sep or scheme not in BACKENDS or (len(scheme) == 1 and Path(url).exists()):
        path = Path(url)
        if path.suffix.lower() in VIDEO_SUFFIXES and not path.is_dir():
            scheme, rest = "video", url
        elif path.exists() or any(ch in url for ch in "*?["):
            scheme, rest = "file", url
        else:
            known = ", ".join(f"{s}:" for s in BACKENDS)
            raise BadSourceURL(url, f"not an existing path and not one of {known}")
    with_query = {"synthetic", "file", "opencv", "picamera2"}  # not video: paths may hold "?"
    target, _, query = rest.partition("?") if scheme in with_query else (rest, "", "")
    params: dict[str, Any] = {}
    for key, text in parse_qsl(query, keep_blank_values=True):
        key = "skip_unreadable" if key == "skip" else key
        params[key] = _value(url, key, text)
    params.update(kwargs)
    module_name, cls_name = BACKENDS[scheme].split(":")
    cls = getattr(importlib.import_module(f"vision.sources.{module_name}"), cls_name)
    accepted = inspect.signature(cls).parameters
    unknown = sorted(k for k in params if k not in accepted or k in {"device", "pattern"})
    if unknown:
        names = ", ".join(p for p in accepted if p not in {"device", "pattern", "index"})
        raise BadSourceURL(url, f"unknown parameter {', '.join(unknown)} for {scheme} "
                           f"(takes {names})")
    if scheme == "picamera2":
        if target and not target.isdigit():
            raise BadSourceURL(url, "picamera2 wants a camera number, e.g. picamera2:0")
        return cls(int(target or 0), **params)
    if scheme == "opencv":
        return cls(int(target) if target.isdigit() else target, **params)
    if scheme in {"video", "file", "replay"}:
        return cls(target, **params)
    return cls(**params)


def record_session(*args: Any, **kwargs: Any) -> int:
    """See `vision.sources.replay.record_session`."""
    from vision.sources.replay import record_session as _record
    return _record(*args, **kwargs)


def write_video(*args: Any, **kwargs: Any) -> int:
    """See `vision.sources.video.write_video` (imported lazily: it needs OpenCV)."""
    from vision.sources.video import write_video as _write
    return _write(*args, **kwargs)
