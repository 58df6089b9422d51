"""Real phone/webcam photos (images/test: measured only, never trained or tuned on):
the whole chain may abstain, but must not read a wrong rank."""

from __future__ import annotations

import pytest

from vision.evaluate import REAL_PHOTOS, evaluate_real
from vision.recognize.classifier import DEFAULT_MODEL, IndexClassifier

pytest.importorskip("vision.detect")
pytestmark = [
    pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)"),
    pytest.mark.skipif(not (REAL_PHOTOS / "images" / "test").is_dir(),
                       reason=f"real photos not found at {REAL_PHOTOS}"),
]


def test_real_test_photos_few_wrong_ranks():
    rep = evaluate_real(IndexClassifier.load(), limit=25)
    assert rep.images == 25
    assert rep.ranks.n >= 25
    assert rep.ranks.wrong_rate <= 0.02, rep.ranks.wrong_examples
    # The committed model reads 16 of these 25 (the detector misses some): a floor
    # that catches a broken model; full figures: `make bench`.
    assert rep.ranks.correct >= 10, rep.ranks.row()
