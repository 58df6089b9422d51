"""Reading still images from disk with a clear error for every kind of bad file.

`cv2.imread` returns None for anything it cannot read and, worse, happily returns a
half-grey picture for a truncated JPEG (libjpeg only warns). The referee must not
read cards off such a picture, so truncation is checked on the bytes first.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.types import UnreadableImage

#: Largest image accepted, in pixels (a 50 MP phone photo); larger is almost surely junk.
MAX_PIXELS = 60_000_000


def _truncated(data: bytes) -> str | None:
    """Why the encoded bytes look cut short, or None if they look whole."""
    jpeg, png = data[:3] == b"\xff\xd8\xff", data[:8] == b"\x89PNG\r\n\x1a\n"
    if jpeg and b"\xff\xd9" not in data[-64:]:  # JPEG ends with EOI (maybe padded)
        return "truncated JPEG (no end-of-image marker)"
    if png and b"IEND" not in data[-32:]:
        return "truncated PNG (no IEND chunk)"
    return None


def decode_image(data: bytes, name: str = "<bytes>") -> np.ndarray:
    """Decode encoded image bytes to BGR uint8.

    Raises:
        UnreadableImage: empty, truncated, not an image, or absurdly large.
    """
    if not data:
        raise UnreadableImage(name, "the file is empty")
    why = _truncated(data)
    if why:
        raise UnreadableImage(name, why)
    buf = np.frombuffer(data, np.uint8)
    img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise UnreadableImage(name, "not an image OpenCV can decode")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise UnreadableImage(name, f"image too large ({img.shape[1]}x{img.shape[0]})")
    return img


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8.

    Raises:
        UnreadableImage: missing, unreadable, empty, truncated or not an image.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise UnreadableImage(str(path), "no such file") from None
    except IsADirectoryError:
        raise UnreadableImage(str(path), "is a directory") from None
    except OSError as exc:
        raise UnreadableImage(str(path), exc.strerror or str(exc)) from None
    return decode_image(data, str(path))
