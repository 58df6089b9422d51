"""reader.without_doubles: an unread sighting lying where a read card lies,
turned its way, IoU 0.5 or more, is that card seen twice and is dropped."""

from __future__ import annotations

from vision.recognize.reader import without_doubles
from vision.types import CardSighting

# Calibration decks, seed 20, scene 95: the detector's outline of a 6S, its index
# read short of the bars, and the 6S found by strips.py beside the 3S (IoU 0.58).
OUTLINE = ((774.0, 382.0), (868.0, 424.0), (748.0, 590.0), (664.0, 533.0))
STRIP = ((777.0, 380.0), (894.0, 434.0), (803.0, 605.0), (690.0, 553.0))


def test_an_unread_outline_of_a_card_read_is_dropped() -> None:
    read = CardSighting(STRIP, False, "6S", 0.999, "6", "S")
    kept = without_doubles([CardSighting(OUTLINE), read])
    assert kept == [read]


def test_an_unread_card_across_a_read_one_is_kept() -> None:
    across = ((700.0, 480.0), (720.0, 420.0), (900.0, 480.0), (880.0, 540.0))
    read = CardSighting(STRIP, False, "6S", 0.999, "6", "S")
    assert len(without_doubles([CardSighting(across), read])) == 2
