"""Card art: every deck we list renders every card, with a sane shape and alpha.

These render through the real rsvg-convert into the real disk cache (first run of a
cold cache: about a minute on two cores; afterwards PNG reads only).
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from vision import cardart
from vision.cardart import (
    ALL_CARDS,
    ArtCache,
    Pattern,
    UnknownCard,
    UnknownDeck,
    find_deck,
    list_decks,
    parse_card,
    prerender,
    render_back,
    render_card,
)

DECKS = list_decks()
pytestmark = pytest.mark.skipif(not DECKS, reason="card art packages not installed "
                                "(bash scripts/system-deps.sh)")
HEIGHT = 96


def test_both_packages_are_listed_and_konqi_is_not():
    names = {d.name for d in DECKS}
    assert sum(d.package == "gnome-cards-data" for d in DECKS) >= 28
    assert sum(d.package == "kdegames-card-data-kf5" for d in DECKS) >= 12
    assert not any("konqi" in n for n in names)
    assert len(list_decks(Pattern.FRENCH)) >= 25


def test_russian_pattern_decks_are_present_with_cyrillic_letters():
    russian = list_decks("russian")
    assert {d.name for d in russian} >= {"gnome/Атласные"}
    assert all(d.index_letters == "В Д К Т" for d in russian)


def test_parse_card_accepts_all_52_and_rejects_junk():
    assert parse_card("10S") == ("10", "S")
    assert parse_card("qh") == ("Q", "H")
    assert [parse_card(c) for c in ALL_CARDS] == [(c[:-1], c[-1]) for c in ALL_CARDS]
    for bad in ["", "1S", "11H", "QX", "Q", "JOKER"]:
        with pytest.raises(UnknownCard) as e:
            parse_card(bad)
        assert e.value.card == bad


def test_find_deck_by_short_and_full_name():
    assert find_deck("gnome/anglo").name == "gnome/anglo"
    assert find_deck("standard").name == "kde/standard"
    with pytest.raises(UnknownDeck) as e:
        find_deck("konqi-modern")
    assert "gnome/anglo" in e.value.known
    with pytest.raises(UnknownDeck):
        find_deck("dondorf")  # both packages have one: ambiguous


#: KDE decks render one rsvg-convert run per card (their layouts are free-form), up to
#: ~0.3 s each on a cold cache; the test draws every rank from them (suits rotating)
#: and the back, and all 52 + back from the AisleRiot decks (one run per deck).
#: `python scripts/render_cards.py --check` renders everything of every deck.
KDE_SAMPLE = tuple(r + "CDHS"[i % 4] for i, r in enumerate(
    ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")))


@pytest.mark.parametrize("deck", DECKS, ids=[d.name for d in DECKS])
def test_every_card_and_the_back_render_as_a_card_shape(deck):
    cards = ALL_CARDS if deck.id_style == "gnome" else KDE_SAMPLE
    prerender([deck], HEIGHT, cards=cards, workers=2)
    seen = []
    for card in [*cards, None]:
        img = render_card(deck, card, HEIGHT) if card else render_back(deck, HEIGHT)
        assert img.dtype == np.uint8 and img.shape[0] == HEIGHT and img.shape[2] == 4
        aspect = img.shape[0] / img.shape[1]
        assert 1.25 < aspect < 1.75, (card, img.shape)
        h, w = img.shape[:2]
        # the middle of a card is opaque; a rendering that missed it would be clear
        assert img[h // 2 - 3:h // 2 + 3, w // 2 - 3:w // 2 + 3, 3].min() > 200, card
        seen.append(img[:, :, :3].astype(np.int16))
    # cards differ from one another (not 53 copies of one element)
    same = sum(1 for a, b in itertools.pairwise(seen) if a.shape == b.shape and
               np.abs(a - b).mean() < 1.0)
    assert same == 0


@pytest.mark.parametrize("name", ["gnome/anglo", "gnome/Атласные", "gnome/tango"])
def test_aisleriot_sheet_cells_are_the_cards_their_ids_name(name, tmp_path, monkeypatch):
    """The one-run sheet path (13x5 grid) gives the same pictures as rendering each
    element alone; a grid mapped wrongly would put another card in its place."""
    monkeypatch.setenv("CARDTABLE_CACHE", str(tmp_path))
    deck = find_deck(name)
    # neighbours in the grid (a shifted mapping would pick them), distinct in looks
    for card, other in [("KH", "QH"), ("AS", "2S"), ("10D", "JD"), ("9C", "9D"), (None, "2C")]:
        element = deck.element_id(card) if card else "back"
        sheet = render_card(deck, card, 120) if card else render_back(deck, 120)
        alone_path = tmp_path / f"alone-{element}.png"
        cardart._render_element(deck, element, 120, alone_path)
        alone = cv2.imread(str(alone_path), cv2.IMREAD_UNCHANGED)
        wrong = render_card(deck, other, 120)

        def look(img):  # on white, same size, slightly blurred: 1-2 px crop jitter is fine
            a = img[:, :, 3:4].astype(np.float32) / 255
            flat = img[:, :, :3].astype(np.float32) * a + 255 * (1 - a)
            return cv2.GaussianBlur(cv2.resize(flat, (64, 96), interpolation=cv2.INTER_AREA),
                                    (0, 0), 1.5)

        def diff(a, b):
            return float(np.abs(look(a) - look(b)).mean())
        assert diff(sheet, alone) < 15, (name, card)
        assert diff(sheet, alone) < 0.5 * diff(sheet, wrong), (name, card)


def test_cache_returns_identical_pixels_and_memo_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_CACHE", str(tmp_path))
    deck = find_deck("gnome/anglo")
    first = render_card(deck, "QH", 80)
    assert any(tmp_path.rglob("*.png"))
    again = render_card(deck, "QH", 80)
    assert np.array_equal(first, again)
    memo = ArtCache(max_items=2)
    for c in ["AS", "KS", "QS"]:
        memo.card(deck, c, 80)
    assert len(memo._items) == 2
    assert memo.card(deck, None, 80).shape == render_back(deck, 80).shape


def test_missing_rsvg_convert_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDTABLE_CACHE", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(cardart.CardArtUnavailable) as e:
        render_card(find_deck("gnome/anglo"), "AS", 50)
    assert e.value.package == "librsvg2-bin"
