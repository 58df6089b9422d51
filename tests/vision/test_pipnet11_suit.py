"""The pip network (session 11): a whole black number card whose pips pipsuit leaves
without a suit gets it from a small network looking at each pip (pipnet.py), and
that never turns a club into a spade where pipsuit's own spade bar is fooled.

Cards are real deck art laid on a table (test_pips' helpers), blurred or small as
the held-out decks' unread black cards were, and counted by pips.count_pips.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from test_pips import _card_scene
from test_recognize_pipcheck import CAL, r
from vision_helpers import deck_or_skip

from vision.recognize.pipcheck import pip_verdict
from vision.recognize.pipnet import MODEL_PATH, PipNet, load_pipnet
from vision.recognize.pips import count_pips


def _soft(deck: str, card: str, blur: float, height: int = 150):  # type: ignore[no-untyped-def]
    img, quad = _card_scene(deck_or_skip(deck), card, height=height, angle=15)
    return count_pips(cv2.GaussianBlur(img, (0, 0), blur) if blur else img, quad)


def test_the_network_is_small_and_loads() -> None:
    assert MODEL_PATH.exists() and MODEL_PATH.stat().st_size < 300_000
    assert load_pipnet() is not None


@pytest.mark.parametrize(("deck", "card", "blur"), [
    ("kde/penguins", "4S", 1.5), ("kde/penguins", "6S", 1.5), ("gnome/tango", "5S", 1.2)])
def test_soft_spades_pipsuit_refuses_get_their_suit(deck: str, card: str, blur: float) -> None:
    """Soft spades: pipsuit's spade bar wants sharp pips (blurred clubs melt into
    spades), so the card had no suit; the network reads them, and the corners
    leaning to spades short of their bar then give the card."""
    got = _soft(deck, card, blur)
    assert got is not None and got.count == int(card[:-1]) and got.suit is None, got
    assert got.crops is not None and load_pipnet().suit(got.crops) == "S"
    corners = [r(card, 0.99, suit_p=0.7), r(card, 0.98, suit_p=0.6)]
    given = pip_verdict(corners, got, CAL)
    assert given is not None and given.card == card
    # a witness beside the corners' own best suit only: corners leaning to clubs
    # (or to neither) give no card
    club = card[:-1] + "C"
    assert pip_verdict([r(club, 0.99, suit_p=0.7), r(club, 0.98, suit_p=0.6)], got, CAL) is None
    assert pip_verdict([r(card, 0.99, suit_p=0.45)], got, CAL) is None


@pytest.mark.parametrize("deck", ["gnome/tango", "kde/penguins"])
@pytest.mark.parametrize("card", ["3C", "4C", "6C", "9C"])
def test_blurred_clubs_are_never_spades(deck: str, card: str) -> None:
    """The clubs that fooled every looser spade bar of pipsuit (blurred tango and
    penguins clubs scoring as spades by every pip) must not fool the network; at
    the worst it abstains."""
    net = load_pipnet()
    for blur in (1.0, 1.5, 2.0, 2.5):
        for height in (130, 180, 240):
            img, quad = _card_scene(deck_or_skip(deck), card, height=height, angle=15)
            got = count_pips(cv2.GaussianBlur(img, (0, 0), blur), quad, crops=True)
            if got is not None and got.crops is not None:
                assert net.suit(got.crops) != "S", (blur, height)


def test_both_ways_up_alike() -> None:
    """A pip's score is the same read upright or turned: decks print the middle row
    either way up and the card may lie either way (the mean of both is scored)."""
    got = count_pips(*_card_scene(deck_or_skip("gnome/anglo"), "7S", height=200), crops=True)
    net = PipNet()
    assert got is not None and got.crops is not None
    crops = got.crops
    assert np.allclose(net.log_odds(crops), net.log_odds(crops[:, ::-1, ::-1]), atol=1e-4)
