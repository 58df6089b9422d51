"""The catalogue of installed card decks: names, packages, licences, index patterns.

What each Debian SVG deck is (checked by eye on rendered sheets, see
scripts/render_cards.py --sheet), so that training, tests and enrolment can pick decks
by what their corner indices look like. Rendering lives in vision.cardart.render.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from vision.types import RANKS, SUITS, VisionError

GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")

#: Element-id spelling of ranks and suits in both SVG conventions.
_RANK_ID = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_ID = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}

#: Every card of a full 52-card deck, in the order RANKS x SUITS ("AC", "AD", ...).
ALL_CARDS: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)


class Pattern(enum.Enum):
    """What the corner indices of a deck look like (what a recogniser must read)."""

    FRENCH = "french"
    """French suits, English/international indices A K Q J 10..2."""
    RUSSIAN = "russian"
    """French suits, Cyrillic indices Т К Д В (ace, king, queen, jack)."""
    FOREIGN_INDEX = "foreign-index"
    """French suits with other letters: German B D K, French V D R, Italian F D R."""
    GERMAN_SUITED = "german-suited"
    """Hearts, bells, leaves, acorns: not readable as French cards."""
    SWISS_SUITED = "swiss-suited"
    """Roses, bells, acorns, shields: not readable as French cards."""


class Licence(enum.Enum):
    GPL2 = "GPL-2+"
    GPL3 = "GPL-3+"
    LGPL2 = "LGPL-2+"
    LGPL2_ONLY = "LGPL-2"


@dataclass(frozen=True, slots=True)
class DeckArt:
    """One SVG deck installed by a Debian package.

    `name` is `"gnome/<file stem>"` or `"kde/<folder minus svg->"`, stable across
    machines and used in INTERFACES.md for the train/held-out split.
    """

    name: str
    path: Path
    package: str
    licence: Licence
    pattern: Pattern
    #: "gnome" spells elements `club_queen`, "kde" spells them `queen_club`.
    id_style: str
    #: Decks sharing art (gnome/paris and kde/gm-paris) share a family: keep a family
    #: on one side of a train/held-out split.
    family: str = ""
    #: Index letters for jack, queen, king, ace as printed ("J Q K A", "В Д К Т").
    index_letters: str = "J Q K A"
    #: False when the index is not in the corners (the oxygen decks print it top
    #: centre), so corner-index crops miss it.
    index_in_corner: bool = True

    def element_id(self, card: str) -> str:
        """The SVG element id holding `card` ("QH" -> "heart_queen" or "queen_heart")."""
        rank, suit = parse_card(card)
        r, s = _RANK_ID.get(rank, rank), _SUIT_ID[suit]
        return f"{s}_{r}" if self.id_style == "gnome" else f"{r}_{s}"

    @property
    def french_suited(self) -> bool:
        """True when suits are clubs/diamonds/hearts/spades (indices may differ)."""
        return self.pattern in (Pattern.FRENCH, Pattern.RUSSIAN, Pattern.FOREIGN_INDEX)


class CardArtError(VisionError):
    """Card art cannot be rendered here."""


class CardArtUnavailable(CardArtError, RuntimeError):
    """A Debian package or tool the card art needs is missing."""

    def __init__(self, what: str, package: str) -> None:
        super().__init__(f"{what} is missing: install the Debian package {package} "
                         f"(bash scripts/system-deps.sh)")
        self.what = what
        self.package = package


class UnknownCard(CardArtError, ValueError):
    """A card label that is not one of the 52 (`"QH"`, `"10S"`, `"AD"`...)."""

    def __init__(self, card: str) -> None:
        super().__init__(f"{card!r} is not a card: expected a rank from {'/'.join(RANKS)} "
                         f"followed by a suit from {'/'.join(SUITS)}, e.g. 'QH' or '10S'")
        self.card = card


class UnknownDeck(CardArtError, KeyError):
    """No installed deck has that name."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"no card deck named {name!r}; installed: {', '.join(known)}")
        self.name = name
        self.known = known

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class RenderFailed(CardArtError, RuntimeError):
    """rsvg-convert ran but produced no usable image."""

    def __init__(self, deck: str, element: str, detail: str) -> None:
        super().__init__(f"rendering {element!r} of deck {deck} failed: {detail}")
        self.deck = deck
        self.element = element
        self.detail = detail


def parse_card(card: str) -> tuple[str, str]:
    """Split "10S" into ("10", "S"); raises UnknownCard for anything else.

    Raises:
        UnknownCard: not a rank followed by a suit.
    """
    text = card.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise UnknownCard(card)
    return rank, suit


@dataclass(frozen=True, slots=True)
class _Meta:
    pattern: Pattern
    family: str
    letters: str = "J Q K A"
    corner: bool = True


_F = Pattern.FRENCH
_RU, _RUL = Pattern.RUSSIAN, "В Д К Т"
_FI = Pattern.FOREIGN_INDEX
# Patterns, families and letters were checked by eye on rendered sheets
# (scripts/render_cards.py --sheet); see vision/INTERFACES.md.
_GNOME: dict[str, _Meta] = {
    "ancient_french": _Meta(_FI, "ancient_french", "V D R 1"),
    "anglo": _Meta(_F, "anglo"),
    "anglo_bitmap": _Meta(_F, "anglo"),
    "anglo_modern": _Meta(_F, "anglo_modern"),
    "anglo_modern_4_color": _Meta(_F, "anglo_modern"),
    "anglo_poker": _Meta(_F, "anglo_poker"),
    "atlasnye": _Meta(_F, "atlasnye"),
    "atlasnye_skat": _Meta(_FI, "atlasnye", "B D K A"),
    "bellot": _Meta(_F, "bellot"),
    "berlin": _Meta(_FI, "berlin", "B D K A"),
    "dondorf": _Meta(_F, "dondorf"),
    "gnomangelo": _Meta(_F, "gnomangelo"),
    "gnomangelo_bitmap": _Meta(_F, "gnomangelo"),
    "guyenne-classic": _Meta(_F, "guyenne"),
    "lattmann": _Meta(_FI, "lattmann", "B D K A"),
    "neoclassical": _Meta(_F, "neoclassical"),
    "neoclassical_4_color": _Meta(_F, "neoclassical"),
    "orell": _Meta(_FI, "orell", "B D K A"),
    "ornamental": _Meta(_F, "nicu"),
    "paris": _Meta(_F, "paris"),
    "plastic": _Meta(_F, "plastic"),
    "rheinland": _Meta(_FI, "rheinland", "B D K A"),
    "simplistic": _Meta(_F, "simplistic"),
    "slavic_costumes": _Meta(_RU, "slavic_costumes", _RUL),
    "swiss-xvii": _Meta(Pattern.SWISS_SUITED, "swiss", "U O K A"),
    "tango": _Meta(_F, "tango"),
    "tango_nuevo": _Meta(_F, "tango_nuevo"),
    "tarocco": _Meta(_FI, "tarocco", "F D R A"),
    "tigullio": _Meta(_F, "tigullio"),
    "Атласные": _Meta(_RU, "atlasnye", _RUL),
}
_KDE: dict[str, _Meta] = {
    "ancient-egyptians": _Meta(_F, "ancient_egyptians"),
    "dondorf": _Meta(_F, "dondorf"),
    "gm-paris": _Meta(_F, "paris"),
    "jolly-royal": _Meta(_F, "jolly_royal"),
    "nicu-ornamental": _Meta(_F, "nicu"),
    "nicu-white": _Meta(_F, "nicu"),
    "oxygen": _Meta(_F, "oxygen", corner=False),
    "oxygen-air": _Meta(_F, "oxygen", corner=False),
    "oxygen-white": _Meta(_F, "oxygen", corner=False),
    "penguins": _Meta(_F, "penguins"),
    "standard": _Meta(_F, "standard"),
    "tigullio-international": _Meta(_F, "tigullio"),
    "xskat-german": _Meta(Pattern.GERMAN_SUITED, "xskat_german", "U O K D"),
}
#: konqi-modern's licence forbids our use; xskat-french is 72x112 embedded bitmaps
#: that rsvg-convert refuses to render ("has no dimensions"). Neither is listed.
#: future's "cards" are landscape punched cards with binary indices.
EXCLUDED_DECKS = frozenset({"kde/konqi-modern", "kde/xskat-french", "kde/future"})
_KDE_LICENCE = {
    "standard": Licence.GPL2, "xskat-german": Licence.GPL2,
    "tigullio-international": Licence.LGPL2, "penguins": Licence.GPL3,
}


def list_decks(pattern: Pattern | str | None = None, *, gnome_dir: Path = GNOME_DIR,
               kde_dir: Path = KDE_DIR) -> list[DeckArt]:
    """Every installed deck we may use, sorted by name; only `pattern` ones if given.

    Decks whose package is not installed are simply absent; an empty list means
    neither package is (run scripts/system-deps.sh).
    """
    want = Pattern(pattern) if isinstance(pattern, str) else pattern
    decks: list[DeckArt] = []
    for stem, m in _GNOME.items():
        path = gnome_dir / f"{stem}.svgz"
        if path.is_file():
            decks.append(DeckArt(f"gnome/{stem}", path, "gnome-cards-data", Licence.GPL3,
                                 m.pattern, "gnome", m.family, m.letters, m.corner))
    for folder, m in _KDE.items():
        d = kde_dir / f"svg-{folder}"
        svgs = sorted(d.glob("*.svgz")) if d.is_dir() else []
        if svgs and f"kde/{folder}" not in EXCLUDED_DECKS:
            decks.append(DeckArt(f"kde/{folder}", svgs[0], "kdegames-card-data-kf5",
                                 _KDE_LICENCE.get(folder, Licence.LGPL2_ONLY), m.pattern, "kde",
                                 m.family, m.letters, m.corner))
    decks.sort(key=lambda d: d.name)
    return [d for d in decks if want is None or d.pattern is want]


def find_deck(name: str, **dirs: Path) -> DeckArt:
    """The deck called `name` ("gnome/anglo", or just "anglo" when unambiguous).

    Raises:
        UnknownDeck: no installed deck has that name.
    """
    decks = list_decks(**dirs)  # type: ignore[arg-type]
    exact = [d for d in decks if d.name == name]
    if exact:
        return exact[0]
    short = [d for d in decks if d.name.split("/", 1)[1] == name]
    if len(short) == 1:
        return short[0]
    raise UnknownDeck(name, [d.name for d in decks])


