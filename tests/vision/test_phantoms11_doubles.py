"""reader.without_doubles, session 11: an unread outline lying inside a read card's
quad, turned its way, is that card seen again even when their IoU is under 0.5."""

from __future__ import annotations

from vision.recognize.reader import without_doubles
from vision.types import CardSighting

# Calibration decks, seed 30, scene 13 (gnome/plastic): the detector's tight
# outline of a 10S partly under a 10H, its index unread, and the 10S read by
# partial.py from a looser quad round it (IoU 0.46, the outline wholly inside).
# The outline took the 10S's truth in evaluation and the 10S read counted as a
# card where none lies.
OUTLINE = ((269.0, 441.0), (316.0, 507.0), (191.0, 555.0), (147.0, 490.0))
READ = ((283.0, 393.0), (363.0, 492.0), (202.0, 570.0), (122.0, 471.0))


def test_an_unread_outline_inside_a_card_read_is_dropped() -> None:
    read = CardSighting(READ, False, "10S", 0.999, "10", "S")
    assert without_doubles([CardSighting(OUTLINE), read]) == [read]


def test_an_unread_back_inside_a_card_read_is_dropped_too() -> None:
    read = CardSighting(READ, False, "10S", 0.999, "10", "S")
    assert without_doubles([CardSighting(OUTLINE, face_down=True), read]) == [read]


def test_an_unread_card_inside_but_turned_across_is_kept() -> None:
    # the same outline's size and centre, turned by 90 degrees: another card
    cx, cy = 231.0, 498.0
    across = tuple((cx - (y - cy), cy + (x - cx)) for x, y in OUTLINE)
    read = CardSighting(READ, False, "10S", 0.999, "10", "S")
    assert len(without_doubles([CardSighting(across), read])) == 2  # type: ignore[arg-type]


def test_a_read_card_inside_another_read_card_is_kept() -> None:
    """Only unread sightings give way: two cards read stay two cards."""
    read = CardSighting(READ, False, "10S", 0.999, "10", "S")
    inner = CardSighting(OUTLINE, False, "10H", 0.999, "10", "H")
    assert without_doubles([inner, read]) == [inner, read]
