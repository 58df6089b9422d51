"""The mapping from an engine view to what the table shows."""

from hardware.display_state import Buzz, LedMode, Status
from referee.lights import AMBER, BLUE, GREEN, RED, display_for, team_displays


def test_seat_to_act_is_green_and_others_off():
    d = display_for("kozel", {"to_act": [2], "trump": "H", "table": ["9H"]}, players=4)
    assert [s.mode for s in d.seats] == [LedMode.OFF, LedMode.OFF, LedMode.ON, LedMode.OFF]
    assert d.seats[2].colour == GREEN
    assert d.trump == "H"


def test_durak_defender_must_act_throwers_pulse():
    view = {"to_act": [0, 1, 2], "defender": 1, "table": ["7H"], "trump": "S"}
    d = display_for("durak", view, players=4)
    assert d.seats[1].mode is LedMode.ON and d.seats[1].colour == GREEN
    assert d.seats[0].mode is LedMode.PULSE and d.seats[0].colour == AMBER
    assert d.seats[2].mode is LedMode.PULSE
    assert d.seats[3].mode is LedMode.OFF


def test_trick_winner_blue_only_while_table_is_empty():
    view = {"to_act": [1], "last_trick_winner": 3, "table": []}
    assert display_for("kozel", view, players=4).seats[3].colour == BLUE
    view["table"] = ["9H"]
    assert display_for("kozel", view, players=4).seats[3].mode is LedMode.OFF


def test_illegal_play_blinks_red_and_sounds_alarm_once_per_id():
    d = display_for("kozel", {"to_act": [1]}, players=4, illegal_seat=1, buzz_id=5)
    assert d.seats[1].mode is LedMode.BLINK and d.seats[1].colour == RED
    assert d.buzz is Buzz.ALARM and d.buzz_id == 5


def test_team_displays_per_game():
    assert team_displays("kozel", {"defeat": [4, 2]}) == ("4", "2")
    assert team_displays("kozel", {"defeat": [0, 0], "match_defeat": [10, 6]}) == ("10", "6")
    assert team_displays("kozel-trumps", {"pairs": [1, 3]}) == ("1", "3")
    assert team_displays("vzetki", {"tricks": [6, 4]}) == ("6", "4")
    assert team_displays("durak", {"stock": 12, "fool": None}) == ("12", "")
    assert team_displays("durak", {"stock": 0, "fool": 3}) == ("0", "F 3")


def test_complete_game_shows_ready():
    d = display_for("durak", {"to_act": [], "complete": True}, players=3)
    assert d.status is Status.READY
    assert len(d.seats) == 3
