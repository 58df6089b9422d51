"""GpioConfig: parsing, the default wiring, and the errors a wiring mistake gives."""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from hardware.config import DEFAULT_CONFIG, GpioConfig, RgbPins, SeatPins
from hardware.errors import ConfigError, InvalidPin, PinConflict


def _default_dict() -> dict:
    return copy.deepcopy(DEFAULT_CONFIG)


def test_default_config_round_trips_through_json() -> None:
    config = GpioConfig.default()
    again = GpioConfig.from_dict(json.loads(json.dumps(config.to_dict())))
    assert again == config


def test_default_config_uses_each_pin_once_and_no_id_eeprom_pins() -> None:
    pins = [pin for pin, _ in GpioConfig.default().pin_uses()]
    assert len(pins) == len(set(pins)) == 25
    assert not {0, 1} & set(pins)  # GPIO0/1 belong to the HAT ID EEPROM


def test_led_pins_may_be_a_list() -> None:
    data = _default_dict()
    data["seats"][0]["led"] = [4, 17, 27]
    assert GpioConfig.from_dict(data).seats[0].led == RgbPins(4, 17, 27)


def test_pin_used_twice_names_both_uses() -> None:
    data = _default_dict()
    data["trump"]["H"] = 17  # seat 0 green leg
    with pytest.raises(PinConflict) as info:
        GpioConfig.from_dict(data)
    err = info.value
    assert (err.pin, err.first_use, err.second_use) == (17, "seat 0 LED green", "trump hearts LED")
    assert isinstance(err, ValueError)
    assert "seat 0 LED green" in str(err) and "trump hearts LED" in str(err)


def test_button_sharing_a_pin_with_the_buzzer_is_a_conflict() -> None:
    data = _default_dict()
    data["buttons"]["undo"] = data["buzzer"]
    with pytest.raises(PinConflict) as info:
        GpioConfig.from_dict(data)
    assert (info.value.first_use, info.value.second_use) == ("buzzer", "undo button")


def test_conflict_is_checked_when_built_directly_too() -> None:
    with pytest.raises(PinConflict) as info:
        GpioConfig(seats=(SeatPins(led=RgbPins(4, 5, 6), button=6),))
    assert (info.value.pin, info.value.first_use) == (6, "seat 0 LED blue")


@pytest.mark.parametrize("bad", [28, -1, 40, "GPIO4", 4.0, True])
def test_invalid_pin_numbers(bad: object) -> None:
    data = _default_dict()
    data["status_led"] = bad
    with pytest.raises(InvalidPin) as info:
        GpioConfig.from_dict(data)
    assert info.value.pin == bad
    assert info.value.use == "status LED"


@pytest.mark.parametrize("bad", [99, "7"])
def test_invalid_seat_led_pin_names_the_seat(bad: object) -> None:
    data = _default_dict()
    data["seats"][2]["led"]["blue"] = bad
    with pytest.raises(InvalidPin) as info:
        GpioConfig.from_dict(data)
    assert info.value.pin == bad and info.value.use == "seat 2 LED blue"


def test_unknown_keys_are_errors_not_silently_ignored() -> None:
    data = _default_dict()
    data["buttons"]["udno"] = 26
    with pytest.raises(ConfigError) as info:
        GpioConfig.from_dict(data)
    assert info.value.key == "buttons" and "udno" in info.value.reason


@pytest.mark.parametrize("count", [0, 7])
def test_seat_count_outside_the_table(count: int) -> None:
    with pytest.raises(ConfigError) as info:
        GpioConfig.from_dict({"seats": [{}] * count})
    assert info.value.key == "seats"


def test_partial_rgb_led_is_rejected() -> None:
    with pytest.raises(ConfigError) as info:
        GpioConfig.from_dict({"seats": [{"led": {"red": 4, "green": 17}}]})
    assert info.value.key == "seats[0].led"


def test_hold_time_must_exceed_bounce_time() -> None:
    with pytest.raises(ConfigError) as info:
        dataclasses.replace(GpioConfig.default(), bounce_time=0.5, hold_time=0.4)
    assert info.value.key == "hold_time"


def test_minimal_config_wires_only_what_is_listed() -> None:
    config = GpioConfig.from_dict({"seats": [{"button": 5}, {"button": 6}]})
    assert list(config.pin_uses()) == [(5, "seat 0 button"), (6, "seat 1 button")]
    assert list(config.buttons()) == [("seat0", 5, 0), ("seat1", 6, 1)]


def test_buttons_lists_command_buttons_then_seats() -> None:
    names = [(name, seat) for name, _, seat in GpioConfig.default().buttons()]
    assert names == [
        ("confirm", None), ("undo", None), ("new_game", None),
        ("seat0", 0), ("seat1", 1), ("seat2", 2), ("seat3", 3),
    ]  # fmt: skip
