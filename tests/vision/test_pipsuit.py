"""vision.recognize.pipsuit: the suit a number card's pips show by their shape.

The suit is a second witness for the network's suit, so the tests ask: every whole
number card of real deck art gets its own suit (clubs against spades, diamonds
against hearts), never another; pips that are no suit's shape (dots) or of two
suits get none. The cards are counted by pips.count_pips, which calls pipsuit.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from test_pips import NUMBER_RANKS, SUITS, _card_scene, _lay, _quad, _table
from vision_helpers import deck_or_skip

from vision import cardart
from vision.recognize.pips import count_pips
from vision.recognize.pipsuit import FEATURES, shape_of, upright_pips


@pytest.mark.parametrize("deck_name", ["gnome/anglo", "gnome/berlin"])
def test_number_cards_show_their_suit_in_their_pips(deck_name: str) -> None:
    """Clubs against spades and diamonds against hearts, on two training decks of
    different art: every whole number card of every suit gets its suit."""
    deck = deck_or_skip(deck_name)
    for i, rank in enumerate(NUMBER_RANKS):
        for suit in SUITS:
            img, quad = _card_scene(deck, rank + suit, angle=-20 + 9 * i)
            got = count_pips(img, quad)
            assert got is not None and got.suit == suit, f"{deck_name} {rank}{suit}: {got}"


def test_four_colour_pips_give_their_suit_never_another() -> None:
    """Blue spades, green clubs, orange diamonds: the shape decides, not the ink."""
    deck = deck_or_skip("gnome/anglo_modern_4_color")
    given = 0
    for rank in NUMBER_RANKS:
        for suit in SUITS:
            got = count_pips(*_card_scene(deck, rank + suit))
            assert got is None or got.suit in (None, suit), f"{rank}{suit}: {got}"
            given += got is not None and got.suit == suit
    assert given >= 30, given


def _pip_boxes(art: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x, y, w, h) of the big ink blobs between a card art's index columns."""
    h, w = art.shape[:2]
    ink = ((art[:, :, :3].min(axis=2) < 150) & (art[:, :, 3] > 0)).astype(np.uint8)
    ink[:, :int(0.19 * w)] = 0
    ink[:, int(0.81 * w):] = 0
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink)
    return [tuple(int(v) for v in stats[i, :4]) for i in range(1, n)
            if stats[i, cv2.CC_STAT_AREA] > 0.002 * w * h]


def _lay_art(art: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    img = _table()
    quad = _quad(320, 240, 260, 12, 0.05)
    _lay(img, art, quad)
    return img, quad


def test_round_pips_get_a_count_but_no_suit() -> None:
    """A deck printing plain dots (an odd, ornamental deck): the pips still count,
    but a dot is no club, spade, diamond or heart, in either colour."""
    deck = deck_or_skip("gnome/anglo")
    for card in ("3C", "6S", "8D", "9H"):
        art = cardart.render_card(deck, card, 400)
        dots = art.copy()
        for x, y, w, h in _pip_boxes(art):
            colour = tuple(int(v) for v in art[y + h // 2, x + w // 2, :3]) + (255,)
            dots[y - 1:y + h + 1, x - 1:x + w + 1, :3] = 255
            cv2.circle(dots, (x + w // 2, y + h // 2), min(w, h) // 2, colour, -1, cv2.LINE_AA)
        got = count_pips(*_lay_art(dots))
        assert got is not None and got.count == int(card[:-1]), (card, got)
        assert got.suit is None, (card, got)


@pytest.mark.parametrize("upper,lower", [("C", "S"), ("S", "C"), ("D", "H"), ("H", "D")])
def test_pips_of_two_suits_give_no_suit(upper: str, lower: str) -> None:
    """Every pip must show the same suit: a card whose upper half prints clubs and
    lower half spades (or diamonds over hearts) is counted but gets no suit."""
    deck = deck_or_skip("gnome/simplistic")
    counted = 0
    for rank in ("2", "3", "4", "5", "6", "9"):
        top = cardart.render_card(deck, rank + upper, 400)
        bottom = cardart.render_card(deck, rank + lower, 400)
        half = top.shape[0] // 2
        art = np.concatenate([top[:half], bottom[half:]])
        got = count_pips(*_lay_art(art))
        assert got is None or got.suit is None, (rank, upper, lower, got)
        counted += got is not None
    assert counted >= 4, counted


def test_pips_of_the_lower_half_are_judged_turned_upright() -> None:
    """Number cards print the lower half's pips turned by 180 degrees: a pip below
    the middle and its turned twin above it give the same upright ink and shape."""
    pip = np.zeros((20, 16), np.float32)
    cv2.fillConvexPoly(pip, np.array([[0, 0], [15, 0], [4, 19]], np.int32), 1.0)  # lopsided
    assert not np.array_equal(pip, pip[::-1, ::-1])
    depth = np.zeros((140, 100), np.float32)
    depth[20:40, 42:58] = pip
    depth[100:120, 42:58] = pip[::-1, ::-1]  # point-symmetric about the card's centre
    card = SimpleNamespace(dark=200.0 * (1.0 - 0.8 * depth), paper=np.full_like(depth, 200.0))
    n, labels, stats, _ = cv2.connectedComponentsWithStats((depth > 0).astype(np.uint8))
    assert n == 3
    ids = np.array([1, 2])
    upper, lower = upright_pips(card, labels, stats[ids], ids)
    assert upper.shape == lower.shape and np.allclose(upper, lower)
    assert np.allclose(upper[1:-1, 1:-1], 0.8 * pip)
    assert len(shape_of(upper)) == len(FEATURES)
    assert shape_of(upper) == shape_of(lower)


@pytest.mark.parametrize("deck_name", ["gnome/anglo", "gnome/berlin"])
def test_small_clubs_get_their_suit(deck_name: str) -> None:
    """A card 90 px tall prints pips about 11 px tall: too small to tell a spade
    for sure, but a club's lobes still show, and no spade ever scores as a club;
    so small clubs are given (they were not while every black pip needed 14 px),
    small spades get no suit or their own."""
    deck = deck_or_skip(deck_name)
    clubs = 0
    for i, rank in enumerate(NUMBER_RANKS):
        for suit in "CS":
            got = count_pips(*_card_scene(deck, rank + suit, height=90, angle=-20 + 9 * i))
            assert got is None or got.suit in (None, suit), f"{deck_name} {rank}{suit}: {got}"
            clubs += got is not None and got.suit == "C"
    assert clubs >= 7, clubs


def _blurred_clubs_suits(deck_name: str, cases: tuple[tuple[int, float], ...]) -> int:
    """Count gnome/tango-like clubs cards of each (height px, blur sigma) case,
    asserting none reads as spades; returns how many were counted."""
    deck = deck_or_skip(deck_name)
    counted = 0
    for height, sigma in cases:
        for rank in NUMBER_RANKS:
            img, quad = _card_scene(deck, rank + "C", height=height, angle=15)
            got = count_pips(cv2.GaussianBlur(img, (0, 0), sigma), quad)
            assert got is None or got.suit in (None, "C"), (height, sigma, rank, got)
            counted += got is not None
    return counted


def test_small_blurred_clubs_never_read_as_spades() -> None:
    """gnome/tango's clubs, 120-130 px cards (pips 12-13 px) blurred as by a soft
    lens: their pips' lobes melt into a spade's shape (most read as spades were
    spades judged from 10 px); they must get no suit or clubs, never spades."""
    assert _blurred_clubs_suits("gnome/tango", ((120, 1.3), (130, 1.3))) >= 12


def test_blurred_clubs_never_read_as_spades() -> None:
    """gnome/tango's clubs on 170-220 px cards (pips 15-20 px) under a Gaussian
    blur of 2-2.5 px: the lobes melt into a spade's shape, however large the
    pips; the pips' blur (pipclean.sharpness) keeps them from reading as spades."""
    assert _blurred_clubs_suits("gnome/tango", ((170, 2.0), (200, 2.5), (220, 2.5))) >= 15
