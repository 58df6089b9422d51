"""Real train photos resized non-uniformly: the whole stills chain looks again at the
photo unsqueezed (recognize/unsqueeze.py), at the squeeze its read cards tell, or,
with none read, at the guesses 0.8 and 1.25."""

from __future__ import annotations

import numpy as np
from vision_helpers import read_right_on_real_train

from vision.detect.candidate import CardCandidate
from vision.recognize.unsqueeze import agrees, enlarge_factors, merge
from vision.types import CardSighting

CARD = ((0.0, 0.0), (63.0, 0.0), (63.0, 88.0), (0.0, 88.0))


def _moved(dx: float) -> tuple[tuple[float, float], ...]:
    return tuple((x + dx, y) for x, y in CARD)


def test_the_squeezed_axis_is_enlarged() -> None:
    # a photo stored at 80% of its width tells 1.25: its width grows back by 1.25
    assert enlarge_factors(1.25) == (1.25, 1.0)
    assert np.allclose(enlarge_factors(0.8), (1.0, 1.25))


def test_a_card_of_the_second_look_is_added_only_where_none_was_read() -> None:
    first_cands = [CardCandidate(CARD), CardCandidate(_moved(200.0))]
    first = [CardSighting(CARD, card="QH"), CardSighting(_moved(200.0))]
    found = [(CardCandidate(_moved(5.0)), "QH"),     # the card read, found again
             (CardCandidate(_moved(198.0)), "9S"),   # where the first look read none
             (CardCandidate(_moved(400.0)), "QH")]   # the card read, elsewhere
    merged, added = merge(first_cands, first, found)
    assert added == 1
    # the unread outline under the added card gives way to it
    assert [c.corners for c in merged] == [CARD, _moved(198.0)]


def test_a_look_naming_another_card_where_one_was_read_is_not_believed() -> None:
    cands = [CardCandidate(CARD)]
    first = [CardSighting(CARD, card="QH")]
    assert agrees(cands, first, [(CardCandidate(_moved(3.0)), "QH"),
                                 (CardCandidate(_moved(300.0)), "KS")])
    assert not agrees(cands, first, [(CardCandidate(_moved(3.0)), "KH"),
                                     (CardCandidate(_moved(300.0)), "KS")])


def test_a_lone_card_of_a_photo_at_80pc_of_its_width_is_read_at_a_guessed_squeeze() -> None:
    # IMG_2501's jack, alone: at 0.8 x 1 its outline read nothing, so no card told
    # the squeeze; the look at the guess 1.25 (the width grown back) reads it
    assert read_right_on_real_train("IMG_2501.JPG", 0.8, 1.0) == {0: "JH"}


def test_cards_lost_to_the_squeeze_are_read_at_the_squeeze_the_others_tell() -> None:
    # IMG_2655 at 0.8 x 1: the ten and ace read, the king beside them not; the
    # frame unsqueezed at the squeeze the two tell reads it too
    assert 0 in read_right_on_real_train("IMG_2655.JPG", 0.8, 1.0)


def test_a_photo_with_no_candidate_gets_no_look() -> None:
    from vision.recognize.unsqueeze import second_look

    def never(*_: object) -> list[object]:
        raise AssertionError("looked at an empty photo")

    image = np.zeros((378, 504, 3), np.uint8)
    assert second_look(image, [], never, never) == []
