"""vision.pipeline.Pipeline reads a frame the same whatever OpenCV's thread count was.

Why a real photo: OpenCV's Canny (vision.detect.evidence's edge maps) gives other
edges on two threads than on one for some frames, and the real train photos are
where it showed (IMG_2421: its king of spades' outline moved).
"""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import pytest

from vision.evaluate import REAL_PHOTOS
from vision.pipeline import Pipeline
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.types import Frame

PHOTO = REAL_PHOTOS / "images" / "train" / "IMG_2421.JPG"


@pytest.fixture
def opencv_threads() -> Iterator[None]:
    """OpenCV's thread count is process-wide: put back what it was."""
    before = cv2.getNumThreads()
    yield
    cv2.setNumThreads(before)


@pytest.mark.skipif(not DEFAULT_MODEL.is_file() or not PHOTO.is_file(),
                    reason="no model or no real photos")
def test_a_frame_reads_the_same_made_on_one_or_two_threads(opencv_threads: None) -> None:
    from vision.recognize.imagefile import load_image

    frame = Frame(load_image(PHOTO), 0, 0.0)
    clf = IndexClassifier.load()
    cv2.setNumThreads(1)
    one = Pipeline(clf).read(frame).cards
    cv2.setNumThreads(2)
    two = Pipeline(clf).read(frame).cards
    assert any(s.card for s in one)
    assert two == one
    assert cv2.getNumThreads() == 1  # the pipeline pinned it


def test_the_thread_count_is_the_callers_to_keep(opencv_threads: None) -> None:
    cv2.setNumThreads(2)
    Pipeline(None, opencv_threads=None)
    assert cv2.getNumThreads() == 2
    Pipeline(None, opencv_threads=3)
    assert cv2.getNumThreads() == 3
