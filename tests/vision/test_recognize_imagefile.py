"""Bad image files give UnreadableImage with a reason, never a crash or a fake picture."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.recognize.imagefile import decode_image, load_image
from vision.types import UnreadableImage


@pytest.fixture
def jpeg_bytes() -> bytes:
    img = np.full((120, 160, 3), 200, np.uint8)
    cv2.putText(img, "QH", (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 255), 3)
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    return buf.tobytes()


def test_a_good_jpeg_loads_as_bgr(tmp_path, jpeg_bytes):
    p = tmp_path / "good.jpg"
    p.write_bytes(jpeg_bytes)
    img = load_image(p)
    assert img.shape == (120, 160, 3) and img.dtype == np.uint8


@pytest.mark.parametrize("content, reason", [
    (b"", "empty"),
    (b"this is not an image at all\n" * 20, "decode"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, "truncated PNG"),
])
def test_bad_bytes_say_why(tmp_path, content, reason):
    p = tmp_path / "bad.jpg"
    p.write_bytes(content)
    with pytest.raises(UnreadableImage) as err:
        load_image(p)
    assert err.value.path == str(p)
    assert reason in err.value.reason


def test_a_truncated_jpeg_is_refused_not_half_read(jpeg_bytes):
    with pytest.raises(UnreadableImage) as err:
        decode_image(jpeg_bytes[: len(jpeg_bytes) // 2], "half.jpg")
    assert "truncated JPEG" in err.value.reason


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(UnreadableImage) as err:
        load_image(tmp_path / "nope.png")
    assert "no such file" in err.value.reason
    with pytest.raises(UnreadableImage) as err:
        load_image(tmp_path)
    assert "directory" in err.value.reason
    assert isinstance(err.value, ValueError)  # callers may catch the builtin


def _with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """`jpeg` with an APP1 Exif segment whose only tag is Orientation (0x0112)."""
    import struct

    tiff = b"MM\x00*" + struct.pack(">I", 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    body = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


def test_a_phone_photo_is_turned_upright_by_its_exif_orientation(tmp_path):
    # Phones store the sensor's pixels and say in Exif how to turn them; read raw, a
    # card photographed upright would lie on its side and its index turned by 90°.
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :50] = 255  # a white band on the left
    ok, buf = cv2.imencode(".jpg", img)
    assert ok
    path = tmp_path / "phone.jpg"
    path.write_bytes(_with_exif_orientation(buf.tobytes(), 6))  # 6: turn 90° clockwise
    out = load_image(path)
    assert out.shape[:2] == (200, 100)
    assert out[:50].mean() > 200 and out[-50:].mean() < 50  # the band is now on top
