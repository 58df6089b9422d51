"""Which card decks train the recogniser, which calibrate it, which only test it.

Held-out decks are never seen in training or calibration: accuracy on them is the
honest estimate of "a French deck we have never seen", which is what users bring.
The split is by art *family* (vision.cardart: gnome/paris and kde/gm-paris share art),
so no held-out design leaks into training through a sibling deck.
The Russian-pattern decks (Cyrillic Т К Д В) are kept out of training altogether so
that enrolment (`cardtable enroll`) is tested on a design the network never saw.
Foreign-index decks (German B D K, French V D R, Italian F D R) do train: their
letters never clash with French ones and mean the same ranks as the Cyrillic В Д К.
Decks printing their index away from the corners (oxygen) are not used at all.
Deck names are those of `vision.cardart.list_decks()`.
"""

from __future__ import annotations

from vision.cardart import DeckArt, Pattern, list_decks

#: French decks only measured on (vision.evaluate, tests, bench).
HELDOUT_DECKS: tuple[str, ...] = (
    "gnome/anglo_poker",
    "kde/standard",
    "kde/jolly-royal",
    "gnome/atlasnye",
)

#: French decks used to pick the abstention thresholds after training.
CALIBRATION_DECKS: tuple[str, ...] = (
    "gnome/simplistic",
    "gnome/plastic",
)

#: Decks whose court cards carry no corner index (a picture fills the corner): their
#: J/Q/K corners train the "not an index" class, never a rank. Held-out and
#: calibration decks are ordinary ones with an index on every card; decks with giant
#: indices cut by the crop (tango, tango_nuevo) only train.
COURTLESS_DECKS: tuple[str, ...] = ("gnome/guyenne-classic",)

#: Decks used nowhere: kde/ancient-egyptians prints its bottom-right index *upright*
#: (not turned by 180°), so its turned-up crop shows a 9 as a 6; training on it would
#: teach exactly the 6/9 confusion that must never happen.
UNUSED_DECKS: tuple[str, ...] = ("kde/ancient-egyptians",)

#: Decks for the enrolment tests: never trained on.
ENROL_DECKS: tuple[str, ...] = ("gnome/Атласные", "gnome/slavic_costumes")

#: Patterns whose corners are not French indices at all: their corners train the
#: "not an index" class, so the classifier abstains on them.
NEGATIVE_PATTERNS = (Pattern.GERMAN_SUITED, Pattern.SWISS_SUITED)


def _pick(names: tuple[str, ...]) -> list[DeckArt]:
    by_name = {d.name: d for d in list_decks()}
    return [by_name[n] for n in names if n in by_name]


def heldout_decks() -> list[DeckArt]:
    """The installed held-out French decks."""
    return _pick(HELDOUT_DECKS)


def calibration_decks() -> list[DeckArt]:
    """The installed calibration decks."""
    return _pick(CALIBRATION_DECKS)


def enrol_decks() -> list[DeckArt]:
    """The installed Russian-pattern decks kept for enrolment."""
    return _pick(ENROL_DECKS)


def reserved_families() -> set[str]:
    """Art families of the held-out, calibration and enrolment decks."""
    names = set(HELDOUT_DECKS) | set(CALIBRATION_DECKS) | set(ENROL_DECKS) | set(UNUSED_DECKS)
    return {d.family or d.name for d in list_decks() if d.name in names}


def training_decks() -> list[DeckArt]:
    """Every installed deck with corner indices of French-suited cards, whose art family
    is not reserved above."""
    reserved = reserved_families()
    return [d for d in list_decks()
            if (d.family or d.name) not in reserved and d.index_in_corner
            and d.pattern in (Pattern.FRENCH, Pattern.FOREIGN_INDEX)]


def negative_decks() -> list[DeckArt]:
    """Decks whose faces serve only as "not an index" examples."""
    return [d for d in list_decks() if d.pattern in NEGATIVE_PATTERNS]


def decks_named(which: str) -> list[DeckArt]:
    """The decks of a set named as the measuring and tracing scripts name them:
    "held" (held out), "cal" (calibration) or "train" (training)."""
    sets = {"held": heldout_decks, "cal": calibration_decks, "train": training_decks}
    if which not in sets:
        raise ValueError(f"unknown deck set {which!r}: one of {', '.join(sets)}")
    return sets[which]()
