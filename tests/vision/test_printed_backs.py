"""reader.without_doubles drops a card read off a picture printed on a back
(`printed_on_back`): kde/nicu-white's back shows a fan of aces, and the stills
chain's index search found the ace of hearts in it (training decks seed 40 scene 1,
seed 41 scene 180), a card reported where none lies."""

from __future__ import annotations

import pytest
from vision_helpers import deck_or_skip, stills_read, training_scene

from vision.recognize.reader import without_doubles
from vision.types import CardSighting

# Training decks seed 40 scene 1: the detector's outline of the face-down card and
# the quad indexfind read AH from (0.96 of it inside the back, half its area).
BACK = ((909.0, 449.0), (995.0, 376.0), (1091.0, 481.0), (1006.0, 551.0))
PRINTED = ((966.0, 450.0), (1025.0, 404.0), (1090.0, 486.0), (1031.0, 533.0))


def _shifted(quad: tuple, dx: float, dy: float) -> tuple:
    return tuple((x + dx, y + dy) for x, y in quad)


def test_a_card_read_inside_a_back_and_smaller_is_dropped() -> None:
    back = CardSighting(BACK, face_down=True)
    ace = CardSighting(PRINTED, False, "AH", 0.99, "A", "H")
    assert without_doubles([back, ace]) == [back]


def test_a_card_as_large_as_the_back_is_no_picture_on_it() -> None:
    """A card of the deck is as large as a back: read where the detector saw a back
    (nearly all of it inside, 1.0 of its area), it is that card, and the back
    outline is its unread double (PRINT_AREA; without it the card would go)."""
    back = CardSighting(BACK, face_down=True)
    card = CardSighting(_shifted(BACK, 4.0, 3.0), False, "9S", 0.99, "9", "S")
    assert without_doubles([back, card]) == [card]


def test_a_small_card_half_off_the_back_is_kept() -> None:
    back = CardSighting(BACK, face_down=True)
    card = CardSighting(_shifted(PRINTED, 60.0, 40.0), False, "AH", 0.99, "A", "H")
    assert without_doubles([back, card]) == [back, card]


def test_only_backs_count_not_face_up_outlines_unread() -> None:
    """An unread outline the detector did not take for a back round a read card
    does not make the card a picture: the card stays."""
    outline = CardSighting(BACK)
    ace = CardSighting(PRINTED, False, "AH", 0.99, "A", "H")
    assert ace in without_doubles([outline, ace])


@pytest.mark.parametrize("seed,scene", [(40, 1), (41, 180)])
def test_the_ace_printed_on_nicu_whites_back_is_not_read(seed: int, scene: int) -> None:
    deck_or_skip("kde/nicu-white")
    from vision.evaluate import match_rendered

    image, truth = training_scene(seed, scene)
    read = stills_read(image)
    match = match_rendered(truth, read)
    phantoms = [s.card for j, s in enumerate(read) if s.card and j not in match]
    assert phantoms == []
    wrong = [(t.card, read[j].card) for t, j in zip(truth, match)
             if j is not None and read[j].card and read[j].card != t.card]
    assert wrong == []
    assert any(t.face_down for t in truth)
