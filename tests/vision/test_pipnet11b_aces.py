"""pipcheck.read_by_ace with the pip network as the ace's second pip witness: a
black ace whose corners read its rank surely and name one black suit short of the
suit's bar is given when the network (pipnet.py) shows that suit on the ace's one
middle pip (acepip.pip_soft); the other suit, split corners, a red ace or a covered
card give nothing."""

from __future__ import annotations

import numpy as np
from vision_helpers import Cand, card_on_table

from vision.recognize import acepip
from vision.recognize.classifier import Calibration, Reading, combine
from vision.recognize.pipcheck import ace_net_suit, read_by_ace, read_by_pips

CAL = Calibration(min_prob=0.965, min_prob_pair=0.99, suit_min_prob=(0.945, 0.97, 0.9, 0.985),
                  suit_min_prob_pair=(0.99, 0.99, 0.99, 0.9992))


def r(card: str, rank_p: float, suit_p: float = 1.0) -> Reading:
    return Reading(card[:-1], card[-1], min(rank_p, suit_p), rank_p, suit_p, 0.0)


def _photo(deck: str, card: str, height: int = 220, turned: bool = False
           ) -> tuple[np.ndarray, tuple]:
    """`card` of `deck` lying on a green table, slightly turned, and its quad."""
    return card_on_table(deck, card, [[150, 60], [152, 64], [148, 66], [146, 62]], height,
                         turned)


def test_an_ace_of_clubs_short_of_the_club_bar_is_given_by_its_pip() -> None:
    # gnome/plastic (a calibration deck, never trained on): its aces of clubs read
    # "AS 0.66 | AC 0.69" or "AC 0.55 | AC 0.56" on rendered scenes.
    for turned in (False, True):
        img, quad = _photo("gnome/plastic", "AC", turned=turned)
        corners = [r("AC", 0.999, 0.6), r("AC", 0.998, 0.7)]
        assert combine(corners, CAL).card is None
        assert ace_net_suit(img, quad) == "C"
        got = read_by_pips(img, Cand(quad), corners, CAL)
        assert got is not None and (got.card, got.rank, got.suit) == ("AC", "A", "C")


def test_an_onion_spade_the_silhouette_refuses_is_given_by_the_network() -> None:
    img, quad = _photo("gnome/plastic", "AS")
    assert acepip.ace_suit(img, quad) is None  # hollow below its point (acepip)
    got = read_by_pips(img, Cand(quad), [r("AS", 0.999, 0.8), r("AS", 0.999, 0.9)], CAL)
    assert got is not None and got.card == "AS"


def test_the_pip_must_name_the_corners_suit_and_the_corners_one_suit() -> None:
    club, cq = _photo("gnome/plastic", "AC")
    spade, sq = _photo("gnome/plastic", "AS")
    assert read_by_pips(club, Cand(cq), [r("AS", 0.999, 0.8), r("AS", 0.999, 0.9)], CAL) is None
    assert read_by_pips(spade, Cand(sq), [r("AC", 0.999, 0.8), r("AC", 0.999, 0.9)], CAL) is None
    split = [r("AS", 0.999, 0.66), r("AC", 0.999, 0.69)]
    assert read_by_ace(club, Cand(cq), split, CAL) is None
    assert read_by_ace(club, Cand(cq), [r("AC", 0.999, 0.45)], CAL) is None  # leaning away
    assert read_by_ace(club, Cand(cq, visible=0.9), [r("AC", 0.999, 0.7)], CAL) is None
    heart, hq = _photo("gnome/plastic", "AH")
    assert acepip.pip_soft(heart, hq) is None  # a red pip: no black suit to show
    assert read_by_ace(heart, Cand(hq), [r("AC", 0.999, 0.7)], CAL) is None
