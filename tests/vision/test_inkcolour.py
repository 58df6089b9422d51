"""vision.recognize.inkcolour: the ink of a corner index, red or black, refuses a card
read in a suit of the other colour, and never a card read right."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np
import pytest
from vision_helpers import real_train_photo

from vision import cardart
from vision.recognize import inkcolour
from vision.recognize.classifier import CardReading, IndexClassifier, Reading
from vision.recognize.patch import extract_index_patches
from vision.recognize.reader import read_image
from vision.types import SUITS


def _art_patches(deck: str, card: str, height: int = 200) -> list[np.ndarray]:
    """Both corner patches of a card's art laid on white paper."""
    img = cardart.render_card(cardart.find_deck(deck), card, height)
    alpha = img[:, :, 3:4].astype(np.float32) / 255.0
    bgr = (img[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    h, w = bgr.shape[:2]
    return extract_index_patches(bgr, [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)])


@pytest.mark.parametrize("deck", ["gnome/anglo", "gnome/plastic", "gnome/berlin"])
def test_a_two_colour_decks_number_cards_show_their_suits_colour(deck: str) -> None:
    for card in ("2S", "7C", "5H", "9D"):
        want = inkcolour.suit_colour(card[-1])
        assert [inkcolour.ink_colour(p) for p in _art_patches(deck, card)] == [want, want]


@pytest.mark.parametrize("deck", ["gnome/anglo_modern_4_color", "gnome/neoclassical_4_color"])
def test_four_colour_decks_inks_never_speak_against_their_suit(deck: str) -> None:
    # Their clubs print green, spades blue-black, diamonds orange: never refuted.
    for suit in "CDHS":
        for rank in ("A", "3", "8", "10", "K"):
            assert not inkcolour.refutes(suit, _art_patches(deck, rank + suit))


def test_a_red_index_refutes_a_black_suit_and_a_black_one_a_red_suit() -> None:
    red, black = _art_patches("gnome/anglo", "4H"), _art_patches("gnome/anglo", "4S")
    assert inkcolour.refutes("S", red) and inkcolour.refutes("C", red[:1])
    assert not inkcolour.refutes("H", red) and not inkcolour.refutes("D", red)
    assert inkcolour.refutes("D", black) and not inkcolour.refutes("S", black)
    assert not inkcolour.refutes("D", [black[0], red[1]])  # one corner unsure: kept
    assert not inkcolour.refutes("D", [])


def test_paper_without_an_index_has_no_colour() -> None:
    assert inkcolour.ink_colour(np.full((64, 32, 3), 230, np.uint8)) is None
    assert inkcolour.ink_colour(np.full((64, 32, 3), 20, np.uint8)) is None


#: Suits swapped for one of the other colour (a synthetic wrong reading).
_OTHER = {"C": "D", "D": "C", "H": "S", "S": "H"}
_PERM = [SUITS.index(_OTHER[s]) for s in SUITS]


class _OtherColour:
    """The project's classifier whose every reading names the suit of the other
    colour (its suit probabilities swapped alike), at most `sure` sure: a network
    suit error past the bars. (The stills chain asks about every card; the live
    Pipeline not about cards named inkcolour.CERTAIN.)"""

    def __init__(self, clf: IndexClassifier, sure: float = 1.0) -> None:
        self._clf = clf
        self._sure = sure

    def __getattr__(self, name: str) -> Any:
        return getattr(self._clf, name)

    def classify(self, patches: list[np.ndarray]) -> list[Any]:
        out = []
        for r in self._clf.classify(patches):
            probs = r.probs
            if probs is not None:
                suit = probs[1].copy()
                suit[_PERM] = probs[1][: len(SUITS)]
                probs = (probs[0], suit)
            out.append(replace(r, suit=_OTHER[r.suit] if r.suit else None, probs=probs,
                               suit_prob=min(r.suit_prob, self._sure)))
        return out

    def look_again_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        return [replace(v, card=None) for v in self._clf.look_again_many(*args, **kwargs)]


def _read(name: str, clf: Any) -> dict[str, str]:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return {s.card[:-1]: s.card for s in read_image(clf, real_train_photo(name)) if s.card}
    finally:
        cv2.setNumThreads(threads)


def test_a_grey_black_deck_is_unsure_never_red() -> None:
    # simplistic prints its "black" as dark grey (0.8 dark): too light to be sure of.
    for card in ("2S", "7C", "QS"):
        assert "red" not in [inkcolour.ink_colour(p) for p in _art_patches("gnome/simplistic", card)]


def test_a_real_black_index_read_red_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # IMG_2400: a queen of clubs alone on a table, read right; both corners black ink.
    forced = _OtherColour(IndexClassifier.load())
    assert _read("IMG_2400.JPG", forced).get("Q") != "QD"
    # (without the witness the forced reading is given: the pips cannot speak, a court)
    monkeypatch.setattr(inkcolour, "speaks_against", lambda *args, **kwargs: False)
    assert _read("IMG_2400.JPG", forced).get("Q") == "QD"


def test_a_real_red_index_is_kept_and_refuses_black() -> None:
    # IMG_2385: a king of hearts, read right, kept; read as a spade, refused.
    clf = IndexClassifier.load()
    assert _read("IMG_2385.JPG", clf).get("K") == "KH"
    assert _read("IMG_2385.JPG", _OtherColour(clf)).get("K") != "KS"


def test_the_live_pipeline_asks_only_about_cards_not_named_for_certain() -> None:
    black = _art_patches("gnome/anglo", "4S")
    card = CardReading("4D", 0.99, "4", "D")
    sure = [Reading("4", "D", 0.99995, 1.0, 0.99995)] * 2
    unsure = [Reading("4", "D", 0.99, 1.0, 0.99)] * 2
    assert inkcolour.speaks_against(card, black, sure)  # stills: every card
    assert not inkcolour.speaks_against(card, black, sure, certain=inkcolour.CERTAIN)
    assert inkcolour.speaks_against(card, black, unsure, certain=inkcolour.CERTAIN)
    # only the corners naming the card's rank speak
    assert not inkcolour.speaks_against(card, black, [Reading("5", "D", 0.9, 0.9, 0.9)] * 2)


def test_a_card_its_ink_refused_is_not_grown_into_another_quad() -> None:
    # IMG_2385's king of hearts read as a spade: its ink refuses it, and read_candidates
    # says so (`refused`), so the steps that grow unread outlines (paperedge gave KS
    # from a grown quad whose corners showed the ink less surely) leave it unread.
    from vision.recognize.reader import default_detector, read_candidates

    forced = _OtherColour(IndexClassifier.load())
    image = real_train_photo("IMG_2385.JPG")
    cands = default_detector()(image)
    refused: set[int] = set()
    sights = read_candidates(forced, image, cands, refused=refused)
    assert refused and all(sights[i].card is None for i in refused)
    assert "KS" not in _read("IMG_2385.JPG", forced).values()
