"""vision.recognize.indexsize: a card whose index mark indexfind could not grow a
card from (a deck printing big indices, a card half under another) is found at
the frame's card size, and only where its index reads the same at three sizes."""

from __future__ import annotations

import numpy as np
from vision_helpers import training_scene

from vision.recognize.indexfind_marks import IndexMark
from vision.recognize.indexsize import STEP_CAP, frame_height, frame_quad
from vision.recognize.patch import CARD_ASPECT


def test_frame_quad_is_the_frames_card_size_with_a_capped_corner_step() -> None:
    """A big index (a step of a fifth of the card) places the card by the frame's
    height, its corner no farther from the index than a usual step allows."""
    mark = IndexMark((100.0, 100.0), (0.0, 1.0), 40.0)
    q = frame_quad(mark, 200.0)
    assert np.allclose(np.linalg.norm(q[3] - q[0]), 200.0)
    assert np.allclose(np.linalg.norm(q[1] - q[0]), 200.0 * CARD_ASPECT)
    # the corner offset uses the capped step (200 / STEP_CAP = 25), not the mark's 40
    assert np.allclose(q[0], (100.0 - 0.64 * 25.0, 100.0 - 1.5 * 25.0))
    assert STEP_CAP == 8.0
    assert frame_height(None) is None
    assert np.isclose(frame_height(100.0) ** 2 * CARD_ASPECT, 100.0 ** 2)


def _stills_read(image):  # type: ignore[no-untyped-def]
    import cv2

    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    return without_doubles(read_candidates(clf, image, still_detector(clf)(image)))


def _check_read(seed: int, scene: int, cards: tuple[str, ...]) -> None:
    """The stills chain reads `cards` of that training scene where they lie, and
    nothing wrong nor where no card lies."""
    from vision.evaluate import match_rendered

    image, truth = training_scene(seed, scene)
    read = _stills_read(image)
    match = match_rendered(truth, read)
    got = {t.card: read[j].card for t, j in zip(truth, match) if j is not None}
    for card in cards:
        assert got.get(card) == card, (card, got)
    assert all(v is None or v == k for k, v in got.items()), got
    assert sum(1 for j, s in enumerate(read) if s.card and j not in match) == 0


def test_with_no_card_read_the_size_comes_from_cards_found_on_paper() -> None:
    """Rendered training decks seed 8, scene 16: kde/dondorf on a blue check cloth,
    its checks outlined as cards, no card read from an outline; the JC, 8H and QH
    are found by their index on paper, and their size lets the 10S and AC, whose
    marks failed the paper test, be read at the frame's size."""
    _check_read(8, 16, ("10S", "AC"))


def test_big_index_cards_on_a_light_cloth_are_read_at_the_frame_size() -> None:
    """Rendered training decks seed 7, scene 25: kde/nicu-ornamental's 9S, 8S and
    10S lie whole on a pale striped cloth, no outline found; their indices' glyph
    and pip stand a fifth of the card apart, so indexfind grew cards twice too big
    and refused them. At the frame's size (the KH and KS read) all three are read,
    each where its own card lies, nothing else wrong."""
    _check_read(7, 25, ("9S", "8S", "10S"))
