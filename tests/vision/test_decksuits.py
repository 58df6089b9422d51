"""A black suit the network is unsure of, told by the frame's sure cards' suit signs
(vision.recognize.decksuits), on hand-laid rendered scenes of the calibration deck
gnome/plastic (whose clubs the network takes for spades) and on hand-made signs."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.evaluate import _TruthCandidate
from vision.recognize import decksuits
from vision.recognize.classifier import IndexClassifier
from vision.recognize.decksuits import SuitSigns, frame_signs, settle_suits, tell_suit
from vision.recognize.patch import extract_index_patches
from vision.recognize.reader import read_candidates
from vision.scene import SceneRenderer
from vision.scene.spec import CameraSpec, CardPlacement, SceneSpec
from vision.types import SUITS

#: Small (1.3 px/mm) and slightly blurred: the network reads every rank below surely
#: but leaves KC and JS unread, unsure of spade against club (7S was too until the pips
#: told its suit: plastic prints its middle-row spade upside down, pipsuit.py). Courts
#: have no pips, so only the frame's sure signs can tell them.
MIXED = ("2C", "5C", "9C", "KC", "3S", "7S", "JS", "AS", "4C", "8S")
UNSURE = {"KC", "JS"}
#: The same unsure cards among spades only.
SPADES_ONLY = ("KC", "3S", "7S", "JS", "AS", "8S", "QS", "10S")


@pytest.fixture(scope="module")
def clf() -> IndexClassifier:
    return IndexClassifier.load()


def _scene(cards: tuple[str, ...]) -> tuple[np.ndarray, list[_TruthCandidate]]:
    """The cards of gnome/plastic in rows of five, as the camera sees them small and a
    little blurred, with their true quads as candidates."""
    deck_or_skip("gnome/plastic")
    laid = tuple(CardPlacement("gnome/plastic", c, -180 + 75 * (k % 5), -60 + 110 * (k // 5))
                 for k, c in enumerate(cards))
    spec = SceneSpec(laid, camera=CameraSpec(px_per_mm=1.3), blur_sigma=0.8)
    cv2.setNumThreads(1)
    image, truth = SceneRenderer().render(spec, np.random.default_rng(0))
    return image, [_TruthCandidate(t.corners, False, (True, True),
                                   tuple(extract_index_patches(image, t.corners)))
                   for t in truth]


def _read(clf: IndexClassifier, cards: tuple[str, ...], with_signs: bool,
          monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    image, cands = _scene(cards)
    with monkeypatch.context() as m:
        if not with_signs:
            m.setattr(decksuits, "settle_suits", lambda verdicts, *a, **k: verdicts)
        # (decksuits alone: signcuts.py's stills step reads this JS by its signs)
        return [s.card for s in read_candidates(clf, image, cands, sign_cuts=False)]


def test_unsure_clubs_and_spades_are_told_by_the_frames_sure_ones(
        clf: IndexClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    without = _read(clf, MIXED, False, monkeypatch)
    got = _read(clf, MIXED, True, monkeypatch)
    assert {c for c, w in zip(MIXED, without) if w is None} >= UNSURE  # the trouble
    assert all(g in (None, c) for c, g in zip(MIXED, got))  # nothing wrong
    assert {c for c, g in zip(MIXED, got) if g is not None} >= UNSURE | {
        c for c, w in zip(MIXED, without) if w is not None}


def test_one_suits_examples_alone_tell_nothing(
        clf: IndexClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    # Only spades read surely: a club may look like them at this size, so neither
    # the unsure club nor the unsure spades get a suit.
    got = _read(clf, SPADES_ONLY, True, monkeypatch)
    assert got == _read(clf, SPADES_ONLY, False, monkeypatch)
    assert {c for c, g in zip(SPADES_ONLY, got) if g is None} >= UNSURE


def _first_look(clf: IndexClassifier, cards: tuple[str, ...]):  # type: ignore[no-untyped-def]
    """(verdicts, cuts, firsts) of the scene's cards as the reader hands them to
    settle_suits (after the pips, second opinion and second look)."""
    image, cands = _scene(cards)
    seen = []
    with pytest.MonkeyPatch.context() as m:
        m.setattr(decksuits, "settle_suits",
                  lambda verdicts, cuts, firsts, calib: seen.append((verdicts, cuts, firsts))
                  or verdicts)
        read_candidates(clf, image, cands)
    return seen[0]


def test_signs_kept_from_an_earlier_frame_stand_in_for_missing_ones(
        clf: IndexClassifier) -> None:
    verdicts, cuts, firsts = _first_look(clf, SPADES_ONLY)
    kc = SPADES_ONLY.index("KC")
    assert verdicts[kc].card is None and verdicts[kc].rank == "K"
    assert settle_suits(verdicts, cuts, firsts, clf.calibration)[kc].card is None
    earlier = frame_signs(*_first_look(clf, MIXED))
    assert {s for _, s, _ in earlier.signs} == {"C", "S"}
    told = settle_suits(verdicts, cuts, firsts, clf.calibration, known=earlier)
    assert told[kc].card == "KC"
    assert all(t.card in (None, c) for c, t in zip(SPADES_ONLY, told))


def test_the_networks_sure_other_suit_is_not_overruled(clf: IndexClassifier) -> None:
    verdicts, cuts, firsts = _first_look(clf, MIXED)
    kc = MIXED.index("KC")
    assert settle_suits(verdicts, cuts, firsts, clf.calibration)[kc].card == "KC"

    def no_club(r):  # type: ignore[no-untyped-def]
        ps = r.probs[1].copy()
        ps[SUITS.index("S")] += ps[SUITS.index("C")] - 1e-4
        ps[SUITS.index("C")] = 1e-4
        return replace(r, probs=(r.probs[0], ps))

    sure_spade = list(firsts)
    sure_spade[kc] = [no_club(r) for r in firsts[kc]]
    assert settle_suits(verdicts, cuts, sure_spade, clf.calibration)[kc].card is None


def _unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, np.float32)
    return a / np.linalg.norm(a)


def test_an_odd_example_can_block_a_suit_never_give_one() -> None:
    spade, club = _unit([1, 0.2, 0]), _unit([0.2, 1, 0])
    signs = SuitSigns((("3S", "S", spade), ("7S", "S", spade), ("2C", "C", club)))
    assert tell_suit(signs, [_unit([1, 0.25, 0.05])], ("C", "S")) == "S"
    assert tell_suit(signs, [_unit([0.25, 1, 0.05])], ("C", "S")) == "C"
    # A club example looking like the spades (a badly cut sign): no suit, not a club.
    odd = SuitSigns(signs.signs + (("9C", "C", _unit([1, 0.3, 0])),))
    assert tell_suit(odd, [_unit([1, 0.25, 0.05])], ("C", "S")) is None
    # Halfway between: too close a call. One suit's examples only: nothing.
    assert tell_suit(signs, [_unit([1, 1, 0])], ("C", "S")) is None
    spades = SuitSigns(signs.signs[:2])
    assert tell_suit(spades, [_unit([1, 0.25, 0.05])], ("C", "S")) is None


def _sign_patch(gap: int) -> np.ndarray:
    """A 64x32 index patch: a rank glyph and, `gap` px under it, a spade."""
    p = np.full((64, 32, 3), 235, np.uint8)
    cv2.rectangle(p, (11, 6), (19, 26), (20, 20, 20), -1)
    top = 27 + gap
    cv2.fillPoly(p, [np.array([[15, top], [21, top + 7], [20, top + 10], [15, top + 9],
                               [10, top + 10], [9, top + 7]], np.int32)], (20, 20, 20))
    cv2.rectangle(p, (14, top + 8), (16, top + 13), (20, 20, 20), -1)
    return p


def test_a_sign_run_into_the_glyph_is_no_sign() -> None:
    assert decksuits.sign_descriptor(_sign_patch(6)) is not None
    assert decksuits.sign_descriptor(_sign_patch(0)) is None


def test_many_kept_examples_a_sign_need_be_like_its_nearest_few_only() -> None:
    # Signs kept over a game include blurred ones: a sharp spade is like the sharp
    # spades kept, not like every smudge, and still told.
    spade, club = _unit([1, 0.2, 0]), _unit([0.2, 1, 0])
    smudge = _unit([0.4, 0.3, 1])
    kept = tuple((f"{r}S", "S", spade) for r in "2345") + (("6S", "S", smudge),
                                                          ("7S", "S", smudge))
    signs = SuitSigns(kept + (("2C", "C", club), ("3C", "C", club)))
    assert tell_suit(signs, [_unit([1, 0.25, 0.05])], ("C", "S")) == "S"
    # ... but not when fewer than NEAREST (4) kept ones are alike: the smudges count.
    few = SuitSigns(kept[:2] + kept[4:] + signs.signs[-2:])
    assert tell_suit(few, [_unit([1, 0.25, 0.05])], ("C", "S")) is None
