"""Frames whose first look has no card sure enough to tell a squeeze
(vision.detect.squeeze.second_look, GUESSES): looked at again unsqueezed by each
guess, what those looks find added where no card lies, and no card of the first
look replaced.

The real-photo test failed on the commit before the guessed looks (4317a9e): a
lone card squeezed to 80% of one side was refused whole, the first look found
nothing (or only its pips), so no squeeze was estimated and no second look made."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import real_boxes

from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.detect.squeeze import GUESSES, second_look
from vision.detect.squeeze_estimate import SQUEEZE_BAND
from vision.detect.squeeze_merge import merge_looks
from vision.evaluate import REAL_PHOTOS, best_matches, stretched

REAL = REAL_PHOTOS / "images"


def _rect(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32)


def test_the_guesses_are_squeezes_no_frame_tells_by_itself() -> None:
    assert all(not SQUEEZE_BAND[0] <= k <= SQUEEZE_BAND[1] for k in GUESSES)
    assert min(GUESSES) < 1.0 < max(GUESSES)


def test_without_swapping_a_misshapen_card_stays_and_a_new_one_is_added() -> None:
    """The merge of a look at a guessed squeeze: the quad it finds over a card of
    the first look does not replace that card, however well backed; one where no
    card lies is added."""
    first = [_rect(100, 100, 160, 170)]
    better, new = _rect(100, 100, 160, 187), _rect(300, 0, 360, 87)
    assert merge_looks(first, [0.9], [better, new], [0.99, 0.9])[0] is better  # told
    out = merge_looks(first, [0.9], [better, new], [0.99, 0.9], swap=False)
    assert len(out) == 2 and out[0] is first[0] and out[1] is new


def test_a_frame_without_sure_cards_is_looked_at_for_each_guess() -> None:
    """An empty first look, or one of weakly backed cards only, tells no squeeze:
    `find` is called once per guess. Sure cards telling none: no look at all."""
    from vision.detect.evidence import gather

    image = np.zeros((300, 400, 3), np.uint8)
    ev = gather(image)
    shapes = []

    def find(e):  # a stand-in for find_quads: records the frames it is shown
        shapes.append(e.shape)
        return []

    assert second_look(image, ev, [], [], find) is None
    assert len(shapes) == len(GUESSES)
    card = _rect(50, 50, 110, 137) * ev.scale
    shapes.clear()
    assert second_look(image, ev, [card], [0.7], find) is None
    assert len(shapes) == len(GUESSES)
    shapes.clear()
    assert second_look(image, ev, [card], [0.95], find) is None
    assert shapes == []


@pytest.mark.skipif(not (REAL / "train_labels.csv").is_file(), reason="real photos not present")
@pytest.mark.parametrize("name, sx, sy", [
    ("cam_image12.jpg", 0.8, 1.0), ("cam_image12.jpg", 1.0, 0.8),
    ("cam_image34.jpg", 0.8, 1.0), ("cam_image23.jpg", 1.0, 0.8),
])
def test_a_lone_squeezed_card_the_first_look_missed_is_found(name: str, sx: float,
                                                             sy: float) -> None:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # (as evaluation runs)
    try:
        img = stretched(cv2.imread(str(REAL / "train" / name)), sx, sy)
        boxes = [(x0 * sx, y0 * sy, x1 * sx, y1 * sy)
                 for x0, y0, x1, y1 in real_boxes("train", name)]
        config = DetectorConfig(with_patches=False)
        first = detect_cards(img, DetectorConfig(with_patches=False, unsqueeze=False))
        found = [g.bounding_box(c.quad) for c in detect_cards(img, config)]
    finally:
        cv2.setNumThreads(threads)
    before = [g.bounding_box(c.quad) for c in first]
    assert best_matches([[g.box_iou(b, f) for f in before] for b in boxes], 0.4) == [None]
    assert best_matches([[g.box_iou(b, f) for f in found] for b in boxes], 0.4) != [None]
