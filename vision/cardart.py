"""Card art from Debian's card-game packages, rendered to images on demand.

Training, the synthetic scene renderer and the tests all need pictures of real card
designs. Debian ships about 45 SVG decks (`gnome-cards-data` for AisleRiot,
`kdegames-card-data-kf5` for KPat). They are GPL/LGPL, so we never commit a rendered
image: `render_card` runs `rsvg-convert` (package `librsvg2-bin`) the first time a
card is asked for at a given height and keeps the PNG in a disk cache
(`$CARDTABLE_CACHE/cardart`, default `~/.cache/cardtable/cardart`).

Each deck is described by a `DeckArt`: where it comes from, its licence, and its
*pattern*, i.e. what its corner indices look like (`french`: A K Q J with
French suits; `russian`: Cyrillic Т К Д В; `foreign-index`: French suits but German,
French or Italian letters; `german-suited`/`swiss-suited`: other suit signs). The
recogniser's "out of the box" decks are the `french` ones; the others are there for
enrolment tests and for hard negatives.

>>> deck = find_deck("gnome/anglo")            # doctest: +SKIP
>>> render_card(deck, "QH", 300).shape         # doctest: +SKIP
(300, 200, 4)
"""

from __future__ import annotations

import enum
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

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


def cache_dir() -> Path:
    """Where rendered PNGs live: `$CARDTABLE_CACHE/cardart` or ~/.cache/cardtable/cardart."""
    root = os.environ.get("CARDTABLE_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "cardtable"
    return base / "cardart"


def _slug(name: str) -> str:
    return name.replace("/", "__")


def _rsvg(deck: DeckArt, element: str, zoom: float, out: str) -> None:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise CardArtUnavailable("rsvg-convert", "librsvg2-bin")
    if not deck.path.is_file():
        raise CardArtUnavailable(str(deck.path), deck.package)
    proc = subprocess.run([exe, "-u", "-i", element, "-z", f"{zoom:.6f}", "-o", out,
                           str(deck.path)], capture_output=True, text=True, timeout=120,
                          check=False)
    if proc.returncode != 0:
        raise RenderFailed(deck.name, element,
                           proc.stderr.strip() or f"exit status {proc.returncode}")


def _alpha_box(img: np.ndarray | None, deck: DeckArt, element: str) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the opaque part of an rsvg-convert output."""
    if img is None or img.ndim != 3 or img.shape[2] not in (3, 4):
        raise RenderFailed(deck.name, element, "rsvg-convert wrote no colour PNG")
    if img.shape[2] == 3:  # rsvg-convert drops alpha when all of it is opaque
        return 0, 0, img.shape[1], img.shape[0]
    ys, xs = np.nonzero(img[:, :, 3] > 127)
    if len(xs) == 0:
        raise RenderFailed(deck.name, element, "the element rendered fully transparent")
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _natural_height(deck: DeckArt, element: str, tmp: str) -> int:
    """Height in px at zoom 1 of the element's opaque box, remembered on disk."""
    memo = cache_dir() / _slug(deck.name) / f"{element}.height"
    try:
        return int(memo.read_text())
    except (OSError, ValueError):
        pass
    _rsvg(deck, element, 1.0, tmp)
    _, y0, _, y1 = _alpha_box(cv2.imread(tmp, cv2.IMREAD_UNCHANGED), deck, element)
    part = memo.with_suffix(f".{os.getpid()}-{threading.get_ident()}.part")
    part.write_text(str(y1 - y0))
    os.replace(part, memo)
    return y1 - y0


#: AisleRiot's theme layout: 13 columns (ace..king) by 5 rows (clubs, diamonds,
#: hearts, spades, then jokers and the back in column 2).
_GNOME_RANK_COL = {r: i for i, r in enumerate(RANKS)}
_GNOME_SUIT_ROW = {s: i for i, s in enumerate("CDHS")}


def _crop_card(cell: np.ndarray, height_px: int) -> np.ndarray | None:
    """The opaque card inside a rendered cell, resized to `height_px`; None if empty."""
    if cell.shape[2] == 3:
        cell = cv2.cvtColor(cell, cv2.COLOR_BGR2BGRA)
    ys, xs = np.nonzero(cell[:, :, 3] > 127)
    if len(xs) == 0:
        return None
    crop = cell[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    width = max(1, round(crop.shape[1] * height_px / crop.shape[0]))
    if crop.shape[:2] != (height_px, width):
        crop = cv2.resize(crop, (width, height_px), interpolation=cv2.INTER_AREA)
    return crop


def _render_gnome_sheet(deck: DeckArt, height_px: int) -> None:
    """Render a whole AisleRiot deck with one rsvg-convert run and cache every card.

    AisleRiot themes lay the cards out on a fixed 13x5 grid, so one render of the
    sheet gives all 53 images: ~50 times cheaper than a run per card on a cold cache
    (the first `make test` on a fresh machine). Cells that come out empty are left
    to the per-element path.
    """
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise CardArtUnavailable("rsvg-convert", "librsvg2-bin")
    if not deck.path.is_file():
        raise CardArtUnavailable(str(deck.path), deck.package)
    folder = cache_dir() / _slug(deck.name)
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=folder)
    os.close(fd)
    try:
        # a little taller than needed, so every card is scaled down, never up
        sheet_h = int(5 * height_px * 1.06) + 5
        proc = subprocess.run([exe, "-u", "-h", str(sheet_h), "-a", "-o", tmp, str(deck.path)],
                              capture_output=True, text=True, timeout=300, check=False)
        sheet = cv2.imread(tmp, cv2.IMREAD_UNCHANGED) if proc.returncode == 0 else None
        if sheet is None:
            return
        sh, sw = sheet.shape[:2]
        cw, ch = sw / 13.0, sh / 5.0
        jobs = [(deck.element_id(c), _GNOME_SUIT_ROW[c[-1]], _GNOME_RANK_COL[c[:-1]])
                for c in ALL_CARDS] + [("back", 4, 2)]
        for element, row, col in jobs:
            cell = sheet[round(row * ch):round((row + 1) * ch),
                         round(col * cw):round((col + 1) * cw)]
            card = _crop_card(cell, height_px)
            if card is None:
                continue
            target = folder / f"{element}@{height_px}.png"
            part = target.with_suffix(f".{os.getpid()}-{threading.get_ident()}.part.png")
            if cv2.imwrite(str(part), card):
                os.replace(part, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _render_element(deck: DeckArt, element: str, height_px: int, target: Path) -> None:
    """Render one SVG element alone into `target` (PNG, BGRA, `height_px` tall).

    rsvg-convert's `--export-id` crops to the element's *ink* box, which in many of
    these decks also spans invisible helper shapes (a 10 of hearts comes out 12 card
    widths wide). So the deck's card height at zoom 1 is measured once (on the back),
    each element is rendered at the zoom that makes a card `height_px` tall, and the
    opaque card is cropped out of whatever box rsvg-convert chose.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=target.parent)
    os.close(fd)
    try:
        zoom = height_px / _natural_height(deck, "back", tmp)
        _rsvg(deck, element, zoom, tmp)
        big = cv2.imread(tmp, cv2.IMREAD_UNCHANGED)
        _alpha_box(big, deck, element)  # raises with a message if nothing usable
        assert big is not None
        crop = _crop_card(big, height_px)
        if crop is None or not cv2.imwrite(tmp, crop):
            raise RenderFailed(deck.name, element, f"cannot write {tmp}")
        os.replace(tmp, target)  # atomic: parallel renderers never see half a file
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _render(deck: DeckArt, element: str, height_px: int) -> np.ndarray:
    """One SVG element at `height_px` through the disk cache; BGRA uint8.

    AisleRiot decks are rendered a whole sheet at a time, KDE decks element by element.
    """
    if height_px < 8 or height_px > 4000:
        raise ValueError(f"height_px must be within 8..4000, got {height_px}")
    target = cache_dir() / _slug(deck.name) / f"{element}@{height_px}.png"
    if not target.is_file() and deck.id_style == "gnome":
        _render_gnome_sheet(deck, height_px)
    if not target.is_file():
        _render_element(deck, element, height_px, target)
    img = cv2.imread(str(target), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        target.unlink(missing_ok=True)
        raise RenderFailed(deck.name, element, "cached PNG unreadable or without alpha")
    return img


def render_card(deck: DeckArt, card: str, height_px: int) -> np.ndarray:
    """The face of `card` ("QH", "10S", "AD") as a BGRA image `height_px` tall.

    Outside the card's rounded corners alpha is 0.

    Raises:
        UnknownCard: `card` is not one of the 52.
        CardArtUnavailable: rsvg-convert or the deck's package is missing.
        RenderFailed: rsvg-convert failed on this element.
    """
    return _render(deck, deck.element_id(card), height_px)


def render_back(deck: DeckArt, height_px: int) -> np.ndarray:
    """The back of `deck`'s cards as a BGRA image `height_px` tall.

    Raises:
        CardArtUnavailable, RenderFailed: as for `render_card`.
    """
    return _render(deck, "back", height_px)


def prerender(decks: list[DeckArt], height_px: int, *, cards: tuple[str, ...] = ALL_CARDS,
              backs: bool = True, workers: int | None = None) -> int:
    """Fill the disk cache for many cards at once (rsvg-convert in parallel).

    Returns the number of images now cached. Training calls this once up front so
    that the per-card renders later are plain PNG reads.
    """
    jobs: list[tuple[DeckArt, str]] = [(d, d.element_id(c)) for d in decks for c in cards]
    if backs:
        jobs += [(d, "back") for d in decks]
    with ThreadPoolExecutor(max_workers=workers or (os.cpu_count() or 2)) as pool:
        # one sheet render per AisleRiot deck first, so threads don't all redo it
        sheets = [d for d in decks if d.id_style == "gnome"]
        list(pool.map(lambda d: _render(d, d.element_id(cards[0]) if cards else "back",
                                        height_px).shape, sheets))
        results = list(pool.map(lambda j: _render(j[0], j[1], height_px).shape, jobs))
    return len(results)


class ArtCache:
    """In-memory memo of rendered art, for code that draws the same cards many times.

    An object rather than a module-level cache, so that its lifetime (and memory) is
    the caller's: the scene renderer keeps one per renderer instance.
    """

    def __init__(self, max_items: int = 4096) -> None:
        self._items: dict[tuple[str, str, int], np.ndarray] = {}
        self._max = max_items

    def card(self, deck: DeckArt, card: str | None, height_px: int) -> np.ndarray:
        """`render_card`, or `render_back` when `card` is None, memoised."""
        key = (deck.name, card or "back", height_px)
        img = self._items.get(key)
        if img is None:
            img = render_back(deck, height_px) if card is None else \
                render_card(deck, card, height_px)
            if len(self._items) >= self._max:
                self._items.pop(next(iter(self._items)))
            self._items[key] = img
        return img
