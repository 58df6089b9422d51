"""Frame sources: real files, real video written and read back by OpenCV, a stand-in
object for picamera2 (which cannot be installed off a Pi), rendered scenes."""

from __future__ import annotations

import importlib.util
import warnings

import cv2
import numpy as np
import pytest

from vision.sources import BadSourceURL, SourceClosed, SourceUnavailable, open_source, write_video
from vision.sources.files import UnreadableImageWarning
from vision.sources.picamera2 import Picamera2Source
from vision.types import Frame, UnreadableImage


def _colour_image(i: int, size=(160, 120)) -> np.ndarray:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:] = (40 * i % 256, 255 - 30 * i, 90)
    cv2.putText(img, str(i), (20, 80), cv2.FONT_HERSHEY_SIMPLEX, 2, (255, 255, 255), 3)
    return img


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "shots"
    d.mkdir()
    for i in (2, 0, 1):  # written out of order: the source sorts
        cv2.imwrite(str(d / f"img{i}.png"), _colour_image(i))
    (d / "notes.txt").write_text("not an image, and not an image suffix either")
    return d


def test_folder_source_reads_sorted_images_with_seq_and_time(folder):
    with open_source(f"file:{folder}?fps=4") as src:
        frames = list(src)
    assert [f.seq for f in frames] == [0, 1, 2]
    assert [f.t for f in frames] == [0.0, 0.25, 0.5]
    assert [f.source.rsplit("/", 1)[1] for f in frames] == ["img0.png", "img1.png", "img2.png"]
    for i, f in enumerate(frames):
        assert np.array_equal(f.image, _colour_image(i))
    assert src.closed


def test_glob_and_plain_path(folder):
    src = open_source(str(folder / "img[01].png"))
    assert [f.source.rsplit("/", 1)[1] for f in src] == ["img0.png", "img1.png"]
    assert len(list(open_source(str(folder)))) == 3


def test_close_is_idempotent_and_read_after_close_raises(folder):
    src = open_source(f"file:{folder}")
    assert src.read() is not None
    src.close()
    src.close()
    with pytest.raises(SourceClosed) as e:
        src.read()
    assert e.value.source == f"file:{folder}"
    assert "closed" in repr(src)


def test_unreadable_files_raise_naming_the_file_or_are_skipped_with_a_warning(folder):
    (folder / "img0b.jpg").write_bytes(b"")                       # empty
    good = cv2.imencode(".png", _colour_image(5))[1].tobytes()
    (folder / "img1b.png").write_bytes(good[: len(good) // 2])     # truncated
    with open_source(f"file:{folder}") as src:
        assert src.read().source.endswith("img0.png")
        with pytest.raises(UnreadableImage) as e:
            src.read()
        assert e.value.path.endswith("img0b.jpg") and "empty" in e.value.reason
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with open_source(f"file:{folder}?skip=1") as src:
            names = [f.source.rsplit("/", 1)[1] for f in src]
    assert names == ["img0.png", "img1.png", "img2.png"]
    skipped = [str(w.message) for w in caught if w.category is UnreadableImageWarning]
    assert len(skipped) == 2 and any("img1b.png" in m for m in skipped)


def test_empty_folder_is_unavailable(tmp_path):
    with pytest.raises(SourceUnavailable):
        open_source(f"file:{tmp_path}")


def test_video_written_then_read_back(tmp_path):
    path = tmp_path / "clip.avi"
    frames = [Frame(_colour_image(i), i, i / 5) for i in range(6)]
    assert write_video(frames, path, fps=5) == 6
    for url in (f"video:{path}", str(path)):
        with open_source(url) as src:
            got = list(src)
        assert len(got) == 6
        assert [round(f.t, 3) for f in got] == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
        for f, want in zip(got, frames):
            assert f.image.shape == want.image.shape
            # MJPG is lossy: compare mean colours
            assert np.abs(f.image.mean(axis=(0, 1)) - want.image.mean(axis=(0, 1))).max() < 6


def test_write_video_rejects_a_frame_of_another_size(tmp_path):
    from vision.sources.video import VideoWriteError
    with pytest.raises(VideoWriteError) as e:
        write_video([_colour_image(0), _colour_image(1, size=(80, 60))], tmp_path / "x.avi")
    assert e.value.path.endswith("x.avi")


def test_missing_video_and_camera_are_unavailable(tmp_path):
    with pytest.raises(SourceUnavailable):
        open_source(f"video:{tmp_path / 'nope.avi'}")
    with pytest.raises(SourceUnavailable) as e:
        open_source("opencv:63")
    assert e.value.source == "opencv:63"


@pytest.mark.parametrize("url", ["nosuch:thing", "/definitely/not/here", "synthetic:?size=big",
                                 "picamera2:front", "opencv:0?fps=3",
                                 "synthetic:?seed=x", "synthetic:?colour=red"])
def test_bad_urls(url):
    with pytest.raises(BadSourceURL) as e:
        open_source(url)
    assert e.value.url == url


class StandInPicamera2:
    """Same methods as picamera2.Picamera2, recording what the source does."""

    def __init__(self, channels: int = 3, fail_start: bool = False) -> None:
        self.calls: list[str] = []
        self.config: dict | None = None
        self.channels = channels
        self.fail_start = fail_start
        self.n = 0

    def create_video_configuration(self, main):
        self.calls.append("create_video_configuration")
        return {"main": main}

    def configure(self, config):
        self.calls.append("configure")
        self.config = config

    def start(self):
        self.calls.append("start")
        if self.fail_start:
            raise RuntimeError("Camera __init__ sequence did not complete.")

    def capture_array(self, name="main"):
        self.calls.append(f"capture_array:{name}")
        w, h = self.config["main"]["size"]
        self.n += 1
        return np.full((h, w, self.channels), self.n, np.uint8)

    def stop(self):
        self.calls.append("stop")

    def close(self):
        self.calls.append("close")


@pytest.mark.parametrize("channels", [3, 4])
def test_picamera2_backend_with_a_stand_in(channels):
    cam = StandInPicamera2(channels)
    with Picamera2Source(0, size=(320, 240), camera=cam) as src:
        a, b = src.read(), src.read()
    assert cam.config["main"] == {"size": (320, 240), "format": "RGB888"}
    assert a.image.shape == (240, 320, 3) and a.image.flags["C_CONTIGUOUS"]
    assert (a.seq, b.seq) == (0, 1) and 0 <= a.t <= b.t
    assert a.image[0, 0, 0] == 1 and b.image[0, 0, 0] == 2
    assert cam.calls[:3] == ["create_video_configuration", "configure", "start"]
    assert cam.calls[-2:] == ["stop", "close"]
    src.close()
    assert cam.calls.count("close") == 1


def test_picamera2_that_fails_to_start_is_closed_and_reported():
    cam = StandInPicamera2(fail_start=True)
    with pytest.raises(SourceUnavailable) as e:
        Picamera2Source(1, camera=cam)
    assert e.value.source == "picamera2:1" and "did not start" in e.value.reason
    assert cam.calls[-1] == "close"


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None,
                    reason="picamera2 is installed here")
def test_picamera2_missing_library_is_a_clear_error():
    with pytest.raises(SourceUnavailable) as e:
        open_source("picamera2:0")
    assert "python3-picamera2" in e.value.reason


def test_synthetic_source_is_deterministic_and_carries_truth():
    from vision.cardart import list_decks
    if not list_decks():
        pytest.skip("card art packages not installed")
    url = "synthetic:?seed=5&cards=3&n=2&size=320x240&decks=gnome/anglo&effects=0"
    runs = []
    for _ in range(2):
        with open_source(url) as src:
            frames, truths = [], []
            for f in src:
                frames.append(f)
                truths.append(src.truth)
        runs.append((frames, truths))
    (fa, ta), (fb, tb) = runs
    assert len(fa) == 2 and [f.seq for f in fa] == [0, 1]
    assert all(np.array_equal(x.image, y.image) for x, y in zip(fa, fb))
    assert ta == tb and all(len(t) == 3 for t in ta)
    assert fa[0].image.shape == (240, 320, 3)


def test_folder_loop_cycles_with_growing_seq(folder):
    with open_source(f"file:{folder}?loop=1&fps=2") as src:
        frames = [src.read() for _ in range(5)]
    assert [f.seq for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t for f in frames] == [0.0, 0.5, 1.0, 1.5, 2.0]
    assert [f.source[-8:] for f in frames] == ["img0.png", "img1.png", "img2.png",
                                                "img0.png", "img1.png"]


def test_a_text_file_named_like_a_video_is_unavailable(tmp_path):
    fake = tmp_path / "game.avi"
    fake.write_text("not a video at all\n")
    with pytest.raises(SourceUnavailable) as e:
        open_source(str(fake))
    assert e.value.source == f"video:{fake}"


def test_recorded_session_replays_with_its_timestamps(tmp_path, folder):
    from vision.sources import record_session
    with open_source(f"file:{folder}?fps=3") as src:
        original = list(src)
    assert record_session(original, tmp_path / "s", jpeg_quality=None) == 3
    for url in (f"replay:{tmp_path / 's'}", f"replay:{tmp_path / 's' / 'session.jsonl'}"):
        with open_source(url) as replay:
            got = list(replay)
        assert [(f.seq, f.t, f.source) for f in got] == \
            [(f.seq, f.t, f.source) for f in original]
        assert all(np.array_equal(a.image, b.image) for a, b in zip(got, original))


def test_replay_of_a_broken_index_names_the_line(tmp_path):
    (tmp_path / "session.jsonl").write_text('{"image": "a.png", "t": 0}\nnot json\n')
    with pytest.raises(SourceUnavailable) as e:
        open_source(f"replay:{tmp_path}")
    assert "line 2" in e.value.reason
    with pytest.raises(SourceUnavailable):
        open_source(f"replay:{tmp_path / 'nothing-here'}")
