"""Black number cards telling their suit by their pips (session 10): a middle-row pip
is read either way up, and a club the pips lean to is given with the corners' own
best suit beside it, never a spade on such a lean.

Cards are real deck art laid on a table (test_pips' helpers) and counted by
pips.count_pips, which calls pipsuit.
"""

from __future__ import annotations

import cv2
import pytest
from test_pips import _card_scene
from test_recognize_pipcheck import CAL, r
from vision_helpers import deck_or_skip

from vision.recognize.pipcheck import pip_verdict
from vision.recognize.pips import PipCount, count_pips


@pytest.mark.parametrize("card", ["6S", "7S", "8S"])
def test_a_turned_middle_row_pip_does_not_hide_the_spades(card: str) -> None:
    """gnome/plastic prints its middle row's right spade turned, the left one
    upright: read upright, the turned one scored as a club and the card, whole,
    large and sharp, got no suit."""
    img, quad = _card_scene(deck_or_skip("gnome/plastic"), card, height=260, angle=15)
    got = count_pips(img, quad)
    assert got is not None and got.count == int(card[:-1]) and got.suit == "S", got


@pytest.mark.parametrize("card", ["6C", "7C", "8C"])
def test_small_clubs_with_a_middle_row_are_clubs(card: str) -> None:
    img, quad = _card_scene(deck_or_skip("gnome/plastic"), card, height=110, angle=15)
    got = count_pips(img, quad)
    assert got is not None and got.suit == "C", got


def _soft(deck: str, card: str, blur: float, height: int = 150):  # type: ignore[no-untyped-def]
    img, quad = _card_scene(deck_or_skip(deck), card, height=height, angle=15)
    return count_pips(cv2.GaussianBlur(img, (0, 0), blur), quad)


def test_soft_clubs_lean_to_clubs_without_being_sure() -> None:
    """kde/penguins clubs blurred (sigma 1.5 at 150 px): too soft for the sure bars,
    clear enough to lean; the lean alone gives no card."""
    got = _soft("kde/penguins", "4C", 1.5)
    assert got is not None and got.count == 4 and got.suit is None and got.lean == "C", got


def test_a_club_lean_gives_the_card_only_beside_the_corners_club() -> None:
    leaning = PipCount(4, False, 1.1, 0.01, lean="C")
    unsure_club = [r("4C", 0.99, suit_p=0.8), r("4C", 0.98, suit_p=0.7)]
    got = pip_verdict(unsure_club, leaning, CAL)
    assert got is not None and got.card == "4C"
    # without the lean the corners' club falls short of its bar: no card
    assert pip_verdict(unsure_club, PipCount(4, False, 1.1, 0.01), CAL) is None
    # the corners' best suit must be the lean's, at a pooled 0.5
    assert pip_verdict([r("4S", 0.99, suit_p=0.8)], leaning, CAL) is None
    assert pip_verdict([r("4C", 0.99, suit_p=0.45)], leaning, CAL) is None


@pytest.mark.parametrize(("deck", "card", "blur", "height"), [
    ("gnome/anglo", "6S", 2.0, 200),  # a soft spade: no lean
    ("gnome/tango", "4C", 2.0, 200),  # a soft club scoring as a spade: no lean either
    ("gnome/tango", "2C", 1.5, 150),
])
def test_spades_get_no_lean(deck: str, card: str, blur: float, height: int) -> None:
    """Blurred clubs' pips score as spades (gnome/tango), and unfamiliar decks'
    blurred clubs fool the network the same way: a spade is given only surely."""
    got = _soft(deck, card, blur, height)
    assert got is not None and got.suit is None and got.lean is None, got


@pytest.mark.parametrize(("card", "height", "suit"), [
    ("9C", 260, "C"), ("9C", 150, "C"),
    # at 260 px the ten's clubs touch in two blobs of four and five: one pip is
    # left whole, too few to tell the suit (split pips are cut, not printed); at
    # 150 px three are left whole
    ("10C", 260, None), ("10C", 150, "C"),
])
def test_touching_clubs_are_split_and_counted(card: str, height: int, suit: str | None) -> None:
    """gnome/plastic's broad clubs touch in the nine's and ten's layout (one ink
    component of two, four or five pips): split apart, they count, and the pips
    left whole tell the suit when there are enough of them."""
    img, quad = _card_scene(deck_or_skip("gnome/plastic"), card, height=height, angle=15)
    got = count_pips(img, quad)
    assert got is not None and got.count == int(card[:-1]) and got.suit == suit, got
