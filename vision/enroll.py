"""Deck enrolment: teach the recogniser a new card design by showing each card once.

Why templates rather than retraining: a club's deck (a Russian-pattern deck with
Cyrillic В Д К Т, a children's numbered deck) must be usable a minute after it is
shown, on a Pi without torch. The network's embedding (trained to separate card
indices) turns each captured corner patch into a vector; reading a card of an
enrolled deck is then nearest neighbour among the stored vectors, abstaining when the
best match is weak or not clearly ahead of the best *other* card.

A deck is stored as files under `$CARDTABLE_DATA/decks/NAME/` (default
`~/.local/share/cardtable/decks/NAME/`): `manifest.json` (name, source, card list,
when) and `patches.npz` (the captured patches, uint8, with their card labels).
Embeddings are recomputed at load time, so a retrained model keeps working with
decks enrolled before.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.recognize.patch import extract_index_patches
from vision.types import RANKS, SUITS, Frame, VisionError

if TYPE_CHECKING:
    from vision.recognize.classifier import Calibration, IndexClassifier, Reading

#: Card lists a deck can be enrolled with.
CARD_SETS: dict[str, tuple[str, ...]] = {
    "52": tuple(r + s for s in SUITS for r in RANKS),
    "36": tuple(r + s for s in SUITS for r in RANKS if r in
                ("6", "7", "8", "9", "10", "J", "Q", "K", "A")),
    "32": tuple(r + s for s in SUITS for r in RANKS if r in
                ("7", "8", "9", "10", "J", "Q", "K", "A")),
    "40": tuple(r + s for s in SUITS for r in RANKS[:10]),  # children's 1 (A) .. 10
}

_RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "2": "two",
               "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
               "8": "eight", "9": "nine", "10": "ten"}
_SUIT_WORDS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
_NAME_RE = re.compile(r"^[\w][\w.-]{0,63}$")
#: Jittered copies of each captured corner, so one showing covers detector wobble.
JITTERS = 6


class EnrolError(VisionError):
    """Root of enrolment errors."""


class BadDeckName(EnrolError, ValueError):
    """A deck name that cannot be a folder name."""

    def __init__(self, name: str) -> None:
        super().__init__(f"{name!r} is not a usable deck name: use letters, digits, '-', "
                         f"'_' or '.', at most 64 characters")
        self.name = name


class UnknownEnrolledDeck(EnrolError, KeyError):
    """No enrolled deck has that name."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"no enrolled deck named {name!r}; enrolled: "
                         f"{', '.join(known) or '(none)'}")
        self.name = name
        self.known = known

    def __str__(self) -> str:
        return str(self.args[0])


class EnrolmentAborted(EnrolError, RuntimeError):
    """The frame source ended (or timed out) before every card was shown."""

    def __init__(self, card: str, done: int, total: int) -> None:
        super().__init__(f"enrolment stopped while waiting for {spoken(card)}: "
                         f"{done} of {total} cards captured")
        self.card = card
        self.done = done
        self.total = total


def spoken(card: str) -> str:
    """"QS" -> "the queen of spades" (for the terminal prompts)."""
    return f"the {_RANK_WORDS[card[:-1]]} of {_SUIT_WORDS[card[-1]]}"


def data_dir() -> Path:
    """`$CARDTABLE_DATA/decks` or ~/.local/share/cardtable/decks."""
    root = os.environ.get("CARDTABLE_DATA")
    base = Path(root) if root else Path.home() / ".local" / "share" / "cardtable"
    return base / "decks"


def _check_name(name: str) -> str:
    if not _NAME_RE.match(name) or name in (".", ".."):
        raise BadDeckName(name)
    return name


def list_decks() -> list[str]:
    """Names of the enrolled decks, sorted."""
    d = data_dir()
    if not d.is_dir():
        return []
    return sorted(p.name for p in d.iterdir() if (p / "manifest.json").is_file())


def _enrolled(name: str) -> Path:
    """The folder of the enrolled deck `name` (remove_deck and load_deck find it
    alike); raises UnknownEnrolledDeck where none is."""
    path = data_dir() / _check_name(name)
    if not (path / "manifest.json").is_file():
        raise UnknownEnrolledDeck(name, list_decks())
    return path


def remove_deck(name: str) -> None:
    """Delete an enrolled deck.

    Raises:
        UnknownEnrolledDeck: no such deck.
    """
    path = _enrolled(name)
    shutil.rmtree(path)


@dataclass(frozen=True, slots=True)
class EnrolledDeck:
    """Templates of one enrolled deck; `embeddings` are filled by `with_embeddings`."""

    name: str
    labels: tuple[str, ...]
    patches: np.ndarray  # (N, H, W, 3) uint8
    manifest: dict[str, Any] = field(default_factory=dict)
    embeddings: np.ndarray | None = None

    def with_embeddings(self, clf: IndexClassifier) -> EnrolledDeck:
        _, _, emb = clf.forward(list(self.patches))
        return EnrolledDeck(self.name, self.labels, self.patches, self.manifest,
                            np.asarray(emb, np.float32))

    def match(self, e: np.ndarray, calib: Calibration) -> Reading:
        """Nearest card to embedding `e`; rank/suit None when too weak or ambiguous."""
        from vision.recognize.classifier import Reading

        assert self.embeddings is not None, "call with_embeddings first"
        sims = self.embeddings @ (e / (np.linalg.norm(e) + 1e-12))
        best: dict[str, float] = {}
        for lab, s in zip(self.labels, sims):
            if s > best.get(lab, -2.0):
                best[lab] = float(s)
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        card, s1 = ranked[0]
        s2 = ranked[1][1] if len(ranked) > 1 else -1.0
        ok = s1 >= calib.min_similarity and s1 - s2 >= calib.min_margin
        r, s = card[:-1], card[-1]
        return Reading(r if ok else None, s if ok else None, s1 if ok else 0.0,
                       1.0 if ok else 0.0, 1.0 if ok else 0.0, 0.0 if ok else 1.0)


def save_deck(name: str, labels: list[str], patches: np.ndarray, *, source: str = "",
              cards: str = "52") -> Path:
    """Write a deck's templates; replaces an existing deck of that name."""
    path = data_dir() / _check_name(name)
    tmp = path.with_name(f".{name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    np.savez_compressed(tmp / "patches.npz", patches=patches.astype(np.uint8),
                        labels=np.array(labels))
    manifest = {"name": name, "source": source, "cards": cards,
                "card_list": sorted(set(labels)), "patches": len(labels),
                "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False))
    if path.exists():
        shutil.rmtree(path)
    tmp.rename(path)
    return path


def load_deck(name: str) -> EnrolledDeck:
    """Read an enrolled deck's templates (without embeddings).

    Raises:
        UnknownEnrolledDeck: no such deck.
    """
    path = _enrolled(name)
    manifest = json.loads((path / "manifest.json").read_text())
    with np.load(path / "patches.npz") as z:
        patches, labels = z["patches"], [str(x) for x in z["labels"]]
    return EnrolledDeck(name, tuple(labels), patches, manifest)


def jittered_patches(image: np.ndarray, quad: np.ndarray, rng: np.random.Generator,
                     n: int = JITTERS) -> list[np.ndarray]:
    """Both corner patches of `quad`, plus `n` copies cut from slightly moved quads."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    size = float(np.linalg.norm(q[2] - q[0]))
    out = list(extract_index_patches(image, q))
    for _ in range(n):
        jq = q + rng.normal(0, 0.012 * size, (4, 2)).astype(np.float32)
        out.extend(extract_index_patches(image, jq))
    return out


Detector = Callable[[np.ndarray], list[Any]]


def enrol(name: str, frames: Iterable[Frame], *, detect: Detector,
          cards: str | tuple[str, ...] = "52", prompt: Callable[[str], None] = print,
          steady: int = 3, source: str = "", seed: int = 0) -> Path:
    """Guide the user through showing every card of the set `cards` and store the deck.

    `cards` names a set of CARD_SETS ("52", "36", "32", "40") or lists the cards.
    For each card it prompts "show the queen of spades", then waits until one card is
    seen in `steady` consecutive frames at the same place (see `_shown_card`), and
    captures its corner patches. A card still lying where the previous one was captured
    is not taken again: the table must change (card removed or replaced) first.

    Raises:
        BadDeckName: `name` unusable as a folder name.
        EnrolmentAborted: `frames` ended before every card was captured.
    """
    _check_name(name)
    card_list = CARD_SETS[cards] if isinstance(cards, str) else tuple(cards)
    rng = np.random.default_rng(seed)
    labels: list[str] = []
    patches: list[np.ndarray] = []
    it = iter(frames)
    last_quad: np.ndarray | None = None
    for n_done, card in enumerate(card_list):
        prompt(f"[{n_done + 1}/{len(card_list)}] show {spoken(card)}")
        run: list[np.ndarray] = []
        while True:
            frame = next(it, None)
            if frame is None:
                raise EnrolmentAborted(card, n_done, len(card_list))
            shown = _shown_card(detect(frame.image))
            if shown is None:
                run = []
                last_quad = None  # table cleared: the next card may lie anywhere
                continue
            q = shown
            if last_quad is not None and _same_place(q, last_quad):
                continue  # the previous card, not yet taken away
            if run and not _same_place(q, run[-1]):
                run = []
            run.append(q)
            if len(run) >= steady:
                got = jittered_patches(frame.image, q, rng)
                patches.extend(got)
                labels.extend([card] * len(got))
                last_quad = q
                prompt(f"  got {spoken(card)}; take it away")
                break
    path = save_deck(name, labels, np.stack(patches), source=source,
                     cards=cards if isinstance(cards, str) else f"{len(card_list)} listed")
    prompt(f"deck {name!r} enrolled: {len(card_list)} cards, stored in {path}")
    return path


def _shown_card(cands: list[Any], min_score: float = 0.8) -> np.ndarray | None:
    """The quad of the card being shown: the largest well-outlined candidate.

    Why not "exactly one candidate": table textures (wood grain) make detectors report
    small spurious quads, and a face-up card may be guessed a back; the card held up for
    enrolment is the big, clean one.
    """
    best, best_area = None, 0.0
    for c in cands:
        if float(getattr(c, "score", 1.0)) < min_score:
            continue
        q = np.asarray(c.corners, np.float32).reshape(4, 2)
        area = abs(float(cv2.contourArea(q)))
        if area > best_area:
            best, best_area = q, area
    return best


def _same_place(a: np.ndarray, b: np.ndarray, tol: float = 0.04) -> bool:
    """Quads within `tol` of the card diagonal of each other, corner by corner (any start)."""
    size = float(np.linalg.norm(a[2] - a[0]))
    return min(float(np.abs(np.roll(a, k, axis=0) - b).max()) for k in range(4)) < tol * size
