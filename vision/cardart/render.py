"""Rendering card art with rsvg-convert, through a disk cache of PNGs.

AisleRiot decks lay their cards on a fixed 13x5 grid, so one rsvg-convert run renders
a whole deck; KDE decks are free-form and render one element per run. Images are
GPL/LGPL art: they live in the cache (`$CARDTABLE_CACHE/cardart` or
~/.cache/cardtable/cardart), never in the repository.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.cardart.decks import ALL_CARDS, CardArtUnavailable, DeckArt, RenderFailed
from vision.types import RANKS

#: Bumped whenever rendering changes what a cached PNG holds, so a cache written by an
#: older renderer is never read back as if it were current.
RENDER_VERSION = 2


def cache_dir() -> Path:
    """Where rendered PNGs live: `$CARDTABLE_CACHE/cardart-vN` or
    ~/.cache/cardtable/cardart-vN (N = RENDER_VERSION)."""
    root = os.environ.get("CARDTABLE_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "cardtable"
    return base / f"cardart-v{RENDER_VERSION}"


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
    opaque = (cell[:, :, 3] > 127).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(opaque, connectivity=4)
    if count < 2:
        return None
    # The card is the largest opaque blob: a sliver of a neighbouring card that the
    # cell's edge caught (decks with gaps between cards) is left out.
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[best, :4])
    crop = cell[y:y + h, x:x + w]
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
            # Neighbouring cards share their border line on the sheet: take the cell
            # outwards (floor/ceil) so each card keeps the outline on all four sides.
            cell = sheet[math.floor(row * ch):math.ceil((row + 1) * ch),
                         math.floor(col * cw):math.ceil((col + 1) * cw)]
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
