"""vision.recognize.unions: an outline round two cards lying one half over the other,
which the detector took for a back (a court picture beside pips), is split into the
two cards its ends read (`unions._back_of_two`). Before it both cards went unread
(rendered training decks: seed 7 scene 19, an 8H over a KD; seed 8 scene 42, a 2D
over an 8C and a 6C over a 4H)."""

from __future__ import annotations

from vision_helpers import stills_read_right

from vision.detect.candidate import CardCandidate
from vision.recognize.unions import _back_of_two, _worth_trying


def test_kd_under_8h_taken_for_a_back_is_read() -> None:
    stills_read_right(7, 19, ("KD", "8H"))


def test_two_pairs_taken_for_backs_are_read() -> None:
    stills_read_right(8, 42, ("8C", "2D", "4H", "6C"))


def test_a_covered_back_is_not_tried() -> None:
    """Only a back seen whole is tried: one under another card (its index corners
    not clear) may be any part of a back."""
    quad = ((0.0, 0.0), (100.0, 0.0), (100.0, 140.0), (0.0, 140.0))
    whole = CardCandidate(corners=quad, score=1.0, face_down=True, visible=1.0,
                          index_visible=(True, True))
    assert _back_of_two(whole) and _worth_trying(whole)
    for part in (CardCandidate(corners=quad, score=1.0, face_down=True, visible=0.6,
                               index_visible=(True, False)),
                 CardCandidate(corners=quad, score=1.0, face_down=False, visible=1.0,
                               index_visible=(True, True))):
        assert not _back_of_two(part)
