"""vision.recognize.memo.ReadingMemo: a still's reading steps show the network each
distinct patch once, and read exactly what they read without it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.evaluate import REAL_PHOTOS, real_labels
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier
from vision.recognize.memo import ReadingMemo, patch_key
from vision.recognize.readings import Calibration, CardReading, Reading


class MeanRecognizer:
    """Reads a patch's mean grey level as its 'confidence' and records every batch."""

    deck = None

    def __init__(self) -> None:
        self.calibration = Calibration()
        self.batches: list[int] = []

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        self.batches.append(len(patches))
        return [Reading("A", "S", float(p.mean()) / 255.0) for p in patches]


def test_a_patch_shown_again_is_read_once_and_reads_the_same() -> None:
    a, b, c = (np.full((64, 32, 3), v, np.uint8) for v in (10, 20, 30))
    clf = MeanRecognizer()
    memo = ReadingMemo(clf)
    first = memo.classify([a, b, a.copy()])
    second = memo.classify([b, c, a])
    assert clf.batches == [2, 1]  # a and b, then only c
    assert [r.confidence for r in first + second] == [
        r.confidence for r in clf.classify([a, b, a, b, c, a])]
    assert (memo.asked, memo.run) == (6, 3)
    # the same pixels in another shape are another patch
    assert patch_key(a) != patch_key(a.reshape(32, 64, 3))
    assert memo.calibration is clf.calibration and memo.deck is None
    assert memo.fallback is None and memo.look_again_many is None


class CountingPair:
    """A second opinion that reads a card's first patch's mean; records every call."""

    def __init__(self) -> None:
        self.calls: list[int] = []

    def read(self, cuts: list[list[np.ndarray]], firsts: list[list[Reading]]
             ) -> list[CardReading]:
        self.calls.append(len(cuts))
        return [CardReading("AS", float(ps[0].mean()), "A", "S") for ps in cuts]


def test_a_card_asked_about_again_gets_the_pairs_first_verdict() -> None:
    a, b = (np.full((64, 32, 3), v, np.uint8) for v in (10, 20))
    clf = MeanRecognizer()
    pair = CountingPair()
    clf.fallback = pair  # type: ignore[attr-defined]
    memo = ReadingMemo(clf)
    assert memo.fallback is not None
    first = memo.fallback.read([[a], [b, a]], [[], []])
    again = memo.fallback.read([[b, a.copy()], [b]], [[], []])
    assert pair.calls == [2, 1]  # [b] alone is a card not seen: [b, a] was
    assert [v.confidence for v in first + again] == [10.0, 20.0, 20.0, 20.0]


needs_photos = pytest.mark.skipif(
    not DEFAULT_MODEL.is_file() or not (REAL_PHOTOS / "images" / "train").is_dir(),
    reason="no model or no real photos")


class _Recording:
    """Counts how often each distinct patch reaches the network."""

    def __init__(self, clf: IndexClassifier) -> None:
        self.clf = clf
        self.counts: dict[Any, int] = {}
        self._classify = clf.classify

    def __call__(self, patches: list[np.ndarray]) -> list[Reading]:
        for p in patches:
            k = patch_key(p)
            self.counts[k] = self.counts.get(k, 0) + 1
        return self._classify(patches)


@needs_photos
@pytest.mark.parametrize("name", ["IMG_2601.JPG"])
def test_a_real_photo_shows_each_patch_once_and_reads_as_without_the_memo(name: str
                                                                         ) -> None:
    from vision.recognize.imagefile import load_image
    from vision.recognize.indexfind import find_by_index
    from vision.recognize.reader import (
        default_detector,
        read_candidates,
        read_image,
        without_doubles,
    )
    from vision.recognize.strips import find_strips
    from vision.recognize.unions import split_unions

    assert name in real_labels(REAL_PHOTOS, "train")
    image = load_image(REAL_PHOTOS / "images" / "train" / name)
    detect = default_detector()
    clf = IndexClassifier.load()
    plain = IndexClassifier.load()
    # Without a memo: every step reads its patches itself (the old still_detector).
    cands = find_by_index(plain, image, find_strips(
        plain, image, split_unions(plain, image, detect(image))))
    expected = without_doubles(read_candidates(plain, image, cands))
    rec = _Recording(clf)
    clf.classify = rec  # type: ignore[method-assign]
    got = read_image(clf, image, detect)
    assert got == expected
    assert any(s.card for s in got)
    assert rec.counts and max(rec.counts.values()) == 1
