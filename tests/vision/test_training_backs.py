"""A card back that prints card faces is no card (vision/training/backs.py).

kde/nicu-white's back prints a fan of four aces. Session 12's fine-tuned network read
it as AD (0.9998) where a loose detector outline round a face-down card cut the
printed A♦ at an index corner. A model must leave every such cut unread, from both
corners and from any one corner alone. The committed model does not yet: the network
before session 15 read KD and AD from two of these 720 cuts at 140 px; the one
fine-tuned with backs.py's loose cuts (adopted in session 15) reads one, AD at 140 px
and 25 degrees, as its predecessor recalibrated on the same data did (the reader's
later steps leave the backs of the dev sets' scenes unread). The test is a strict
xfail until a model leaves all unread.
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import art_on_table, deck_or_skip

from vision import cardart
from vision.recognize.classifier import IndexClassifier
from vision.recognize.patch import extract_index_patches
from vision.recognize.readings import combine
from vision.training import split
from vision.training.backs import (
    CANDIDATES,
    FACE_BACKS,
    KEEP_HARD,
    KEEP_RANDOM,
    _chunk,
    _loose_quad,
    _printed_quad,
    view_candidates,
)
from vision.training.synth import load_backs

#: Back heights in px (a card 88 mm tall at ~1-2.3 px/mm, as the camera sees one).
HEIGHTS = (90, 140, 200)
#: Loose quads cut per height (half round the back, half round a printed card).
QUADS = 120


def _back_on_table(deck: str, height: int, angle_deg: float
                   ) -> tuple[np.ndarray, np.ndarray, float]:
    """The back of `deck`, `height` px tall, turned `angle_deg`, on a green table:
    the image, its quad and its angle (radians)."""
    img, quad = art_on_table(cardart.render_back(deck_or_skip(deck), 320), height, angle_deg)
    return img, quad, float(np.deg2rad(angle_deg))


def test_face_backs_are_training_decks() -> None:
    """Only training decks' art may train (split.py): held-out and calibration
    decks' backs never."""
    names = {d.name for d in split.training_decks()}
    if not names:
        pytest.skip("card art unavailable")
    assert set(FACE_BACKS) <= names
    assert not set(FACE_BACKS) & (set(split.HELDOUT_DECKS) | set(split.CALIBRATION_DECKS))


def test_loose_cuts_land_on_the_printed_faces() -> None:
    """view_candidates cuts patches on the back (index box at least 30% on it)."""
    deck = deck_or_skip("kde/nicu-white")
    back = load_backs([deck])[0]
    patches = view_candidates(np.random.default_rng(0), back)
    assert len(patches) >= CANDIDATES  # most of the 2 x CANDIDATES land on the back
    assert all(p.shape == (64, 32, 3) for p in patches)


def test_loose_only_cuts_ask_no_network() -> None:
    """Idea A of session 14 (finetune --loose-backs): each view keeps KEEP_HARD +
    KEEP_RANDOM loose cuts round the whole back at random, so no starting network is
    loaded (the model path here does not exist) and no cut is mined."""
    deck_or_skip("kde/nicu-white")
    x = _chunk(("/nonexistent/index.onnx", 0, 4, True))
    assert x.shape == (4 * (KEEP_HARD + KEEP_RANDOM), 64, 32, 3)


@pytest.mark.xfail(strict=True, reason="the committed model reads AD from a loose cut "
                   "of this back at 140 px; see the module docstring")
def test_printed_aces_on_a_back_are_no_card() -> None:
    clf = IndexClassifier.load()
    read, alone = [], []
    for height in HEIGHTS:
        rng = np.random.default_rng(height)
        for angle in (0.0, 25.0):
            img, quad, a = _back_on_table("kde/nicu-white", height, angle)
            for k in range(QUADS):
                q = _loose_quad(rng, quad, height) if k % 2 == 0 else \
                    _printed_quad(rng, quad, height, a)
                card = clf.read_card(img, q).card
                if card is not None:
                    read.append(card)
                for r in clf.classify(extract_index_patches(img, q)):
                    one = combine([r], clf.calibration).card
                    if one is not None:
                        alone.append(one)
    assert read == [] and alone == [], (read, alone)
