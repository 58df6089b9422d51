"""vision.recognize.unions: an outline round two cards in a row is split where the
two ends read two different cards, and only then."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.detect import CardCandidate
from vision.recognize.classifier import Calibration, Reading
from vision.recognize.patch import normalize_quad
from vision.recognize.unions import (
    GUESSED_SQUEEZES,
    end_cards,
    frame_squeezes,
    row_ends,
    split_unions,
)
from vision.types import CardSighting


def _rect(x0: float, y0: float, w: float, h: float) -> tuple:
    return ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))


def _aspect(q: np.ndarray) -> float:
    a = np.hypot(*(q[1] - q[0]))
    b = np.hypot(*(q[2] - q[1]))
    return max(a, b) / min(a, b)


def test_a_card_shaped_outline_holds_no_row() -> None:
    assert end_cards(_rect(0, 0, 63, 88)) == []
    assert end_cards(_rect(0, 0, 88, 63)) == []


def test_the_end_cards_of_a_row_of_two_have_card_proportions() -> None:
    ways = end_cards(_rect(10, 20, 100, 88))  # two 63 x 88 cards, 37 px apart
    assert ways
    for a, b in ways:
        assert _aspect(a) == pytest.approx(1.4, abs=0.01)
        assert _aspect(b) == pytest.approx(1.4, abs=0.01)
    # standing across the row: one at each end, full height
    across = [(a, b) for a, b in ways if np.ptp(a[:, 1]) == pytest.approx(88)]
    assert len(across) == 1
    a, b = across[0]
    assert a[:, 0].min() == pytest.approx(10) and b[:, 0].max() == pytest.approx(110)
    # too long for two overlapping cards either way: none
    assert end_cards(_rect(0, 0, 300, 88)) == []


class _Scripted:
    """A stand-in recogniser answering each patch, in order, with the next card of
    `script` (None: "not an index"); every reading sure (0.999)."""

    deck = None

    def __init__(self, script: list[str | tuple[str, float] | None]) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.script = script
        self.calls = 0

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        self.calls += 1
        assert len(patches) == len(self.script)
        return [_reading(c) for c in self.script]


def _reading(c: str | tuple[str, float] | None) -> Reading:
    """A sure reading of card `c` (or of `c[0]` with probability `c[1]`), or "not an
    index" for None."""
    if c is None:
        return Reading(None, None, 0.0, 0.0, 0.0, 1.0)
    card, p = (c, 0.999) if isinstance(c, str) else c
    return Reading(card[:-1], card[-1], p, p, p, 0.0)


def _ways(*outer: tuple[str | None, str | None], inner: str | None = None
          ) -> list[str | tuple[str, float] | None]:
    """A script for the ways of an outline: per way, its two end cards' outer
    corners read `outer`, their inner corners `inner` (patch order: outer then
    inner corner of one end, then of the other)."""
    return [r for a, b in outer for r in (a, inner, b, inner)]


IMAGE = np.full((300, 400, 3), 200, np.uint8)
# Near-square (100 x 100): two ways (the cards side by side, or one over the other),
# each end card read at its outer corner: 4 patches, way 1 (end a, end b), way 2.
UNION = CardCandidate(_rect(50, 50, 100, 100), score=0.9)
# A card seen whole beside it, of card proportions: the frame is not squeezed, so the
# end cards are cut for no squeeze only (no patches: it is not tried itself).
PLAIN = CardCandidate(_rect(250, 50, 63, 88), score=0.95)


def test_two_different_cards_at_the_ends_split_the_outline() -> None:
    clf = _Scripted(_ways(("QH", "7C"), ("QH", "QH")))
    out = split_unions(clf, IMAGE, [UNION, PLAIN])
    assert clf.calls == 1 and len(out) == 3 and out[2] is PLAIN
    out = out[:2]
    for c in out:  # each seen at its outer corner only
        assert sum(c.index_visible) == 1 and len(c.index_patches) == 1
        assert _aspect(np.asarray(c.corners)) == pytest.approx(1.4, abs=0.01)
    # together they span the outline
    q = np.concatenate([np.asarray(c.corners) for c in out])
    assert q.min(axis=0) == pytest.approx([50, 50]) and q.max(axis=0) == pytest.approx([150, 150])


@pytest.mark.parametrize("script", [
    _ways(("QH", "QH"), ("QH", "QH")),  # one card seen near-square: the same at both ends
    _ways(("QH", "7C"), ("5D", "2S")),  # both ways split: which?
    ["QH", "QH", None, None, "7C", "7C", None, None],  # two whole end cards: which?
])
def test_otherwise_the_outline_is_left_whole(script: list[str | None]) -> None:
    assert split_unions(_Scripted(script), IMAGE, [UNION, PLAIN]) == [UNION, PLAIN]


def test_only_whole_odd_shaped_outlines_are_tried() -> None:
    """(A back seen whole is tried since session 14: test_covered14_backpairs.py; one
    partly covered is not.)"""
    clf = _Scripted([])
    cands = [CardCandidate(_rect(0, 0, 63, 88)),  # a card's shape
             CardCandidate(_rect(0, 0, 100, 100), face_down=True, visible=0.8),
             CardCandidate(_rect(0, 0, 100, 100), visible=0.8),
             CardCandidate(_rect(0, 0, 100, 100), index_visible=(True, False)),
             CardSighting(_rect(0, 0, 100, 100))]  # not a detector candidate
    assert split_unions(clf, IMAGE, cands) == cands
    assert clf.calls == 0


@pytest.mark.parametrize("photo, cards", [("IMG_2630.JPG", {"AD", "10C"}),
                                          ("IMG_2652.JPG", {"JD", "10S"})])
def test_a_real_row_of_two_is_read_as_its_two_cards(photo: str, cards: set[str]) -> None:
    """Real train photos of two cards overlapping: no seam in the edges, one outline
    round both, which read neither until split."""
    from vision.detect import detect_cards
    from vision.evaluate import REAL_PHOTOS, real_labels
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_candidates, read_image

    path = REAL_PHOTOS / "images" / "train" / photo
    if not path.is_file():
        pytest.skip("real photos not here")
    labels = sorted(r for r, _ in real_labels(REAL_PHOTOS, "train")[photo])
    assert labels == sorted(c[:-1] for c in cards)
    clf = IndexClassifier.load()
    image = load_image(path)
    assert [s.card for s in read_candidates(clf, image, detect_cards(image))] == [None]
    assert {s.card for s in read_image(clf, image)} == cards


def test_an_end_card_found_already_is_no_reason_to_split() -> None:
    """An end card lying where another candidate lies is that card, found apart
    (held-out seed 99: the outline round JS and KH read as JS, the KH found apart)."""
    found = CardCandidate(_rect(50, 50, 71, 100))  # the first way's left end card
    out = split_unions(_Scripted(_ways(("QH", "7C"), ("QH", "QH"))), IMAGE,
                       [UNION, found, PLAIN])
    assert out == [UNION, found, PLAIN]


def _unsqueezed_aspect(q: np.ndarray, squeeze: float) -> float:
    return _aspect(np.asarray(q) / np.array([1.0, squeeze]))


def test_in_a_squeezed_frame_the_end_cards_are_squeezed_alike() -> None:
    """A photo stored at 80% of its width (squeeze 1.25): two upright cards side by
    side show 50 x 88 each, their outline 68 x 88, of a card's shape itself."""
    outline = _rect(0, 0, 68, 88)
    side_by_side = [(a, b) for a, b in end_cards(outline, squeeze=1.25)
                    if np.ptp(a[:, 1]) == pytest.approx(88)]
    assert len(side_by_side) == 1
    a, b = side_by_side[0]
    assert _unsqueezed_aspect(a, 1.25) == pytest.approx(1.4, abs=0.01)
    assert np.ptp(a[:, 0]) == pytest.approx(88 / 1.25 / 1.4, abs=0.01)  # 50.3 px
    assert a[:, 0].min() == pytest.approx(0) and b[:, 0].max() == pytest.approx(68)
    # cut as cards of card proportions (62.9 px wide), there is no room for two
    assert not [a for a, _ in end_cards(outline) if np.ptp(a[:, 1]) == pytest.approx(88)]


def test_the_squeeze_is_the_other_cards_and_guessed_without_them() -> None:
    lone = [UNION]
    assert frame_squeezes(lone, 0) == GUESSED_SQUEEZES
    assert frame_squeezes([UNION, PLAIN], 0) == (1.0,)
    # the other cards, 63 x 88 stored at 80% of the width: 50 x 88
    squeezed = [UNION, CardCandidate(_rect(200, 50, 50.4, 88), score=0.95),
                CardCandidate(_rect(300, 50, 50.4, 88), score=0.95)]
    ks = frame_squeezes(squeezed, 0)
    assert ks[0] == 1.0 and len(ks) == 2 and ks[1] == pytest.approx(1.25 * 1.4 / 1.45, abs=0.02)


_PATCHES = (np.zeros((64, 32, 3), np.uint8),) * 2
# A card-shaped outline (68 x 88) round two cards squeezed as above, with its own
# two corner patches (the detector's), beside two cards telling the squeeze.
SQUEEZED_PAIR = CardCandidate(_rect(20, 20, 68, 88), score=0.9, index_patches=_PATCHES,
                              patch_corners=(0, 2))
TELLING = [CardCandidate(_rect(x, 50, 88 / 1.45 / 1.25, 88), score=0.95, visible=0.9)
           for x in (200, 300)]


def _script(own: list[str | None], cards: list[str]) -> list[str | None]:
    """Readings for SQUEEZED_PAIR's patches: its own two, then its ways' ends cut
    for no squeeze (read nothing), then for the frame's (its first way, the cards
    side by side, reading `cards` at their outer corners; the others nothing)."""
    ks = frame_squeezes([SQUEEZED_PAIR, *TELLING], 0)
    assert ks[0] == 1.0 and ks[1] == pytest.approx(1.25, abs=0.01)
    outline = normalize_quad(SQUEEZED_PAIR.corners)
    plain = len(row_ends(IMAGE, outline, (1.0,)))
    squeezed = len(row_ends(IMAGE, outline, (ks[1],)))
    return [*own, *[None] * 4 * plain, *_ways((cards[0], cards[1])),
            *[None] * 4 * (squeezed - 1)]


def test_a_card_shaped_outline_not_read_as_one_card_is_tried_at_the_frames_squeeze() -> None:
    clf = _Scripted(_script(["KC", "JD"], ["KC", "JD"]))
    out = split_unions(clf, IMAGE, [SQUEEZED_PAIR, *TELLING])
    assert clf.calls == 1 and len(out) == 4 and out[2:] == TELLING
    for c in out[:2]:  # cards 50 x 88: card proportions once unsqueezed
        assert _unsqueezed_aspect(np.asarray(c.corners), 1.25) == pytest.approx(1.4, abs=0.05)


@pytest.mark.parametrize("own", [["KC", "KC"], ["KC", None]])
def test_a_card_shaped_outline_read_as_one_card_is_left_whole(own: list[str | None]) -> None:
    clf = _Scripted(_script(own, ["KC", "JD"]))
    cands = [SQUEEZED_PAIR, *TELLING]
    assert split_unions(clf, IMAGE, cands) == cands


@pytest.mark.parametrize("photo, stretch, cards", [
    ("IMG_2599.JPG", (0.8, 1.0), {"KC", "JD"}),  # alone: squeezes guessed
    ("IMG_2624.JPG", (1.0, 0.8), {"9H", "QH"}),  # beside cards telling the squeeze
])
def test_a_squeezed_real_row_of_two_is_read_as_its_two_cards(
        photo: str, stretch: tuple[float, float], cards: set[str]) -> None:
    """Real train photos resized non-uniformly: two cards side by side, one partly
    over the other, look like one card (an outline of aspect 1.24-1.31), which
    reads neither until split with end cards squeezed as the photo is."""
    from vision.detect import detect_cards
    from vision.evaluate import REAL_PHOTOS, stretched
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_candidates, read_image

    path = REAL_PHOTOS / "images" / "train" / photo
    if not path.is_file():
        pytest.skip("real photos not here")
    clf = IndexClassifier.load()
    image = stretched(load_image(path), *stretch)
    assert not cards & {s.card for s in read_candidates(clf, image, detect_cards(image))}
    assert cards <= {s.card for s in read_image(clf, image)}


def test_an_end_read_as_a_whole_card_is_the_card_the_outline_was_cut_too_long_for() -> None:
    """An outline round one card and bare table beside it (a squeezed card given the
    nominal aspect): an end card that reads as a card (the one reading rule on its
    two index corners), where no way's ends read two cards, is that card."""
    clf = _Scripted([*_ways(("QH", None)), None, None, None, None])
    out = split_unions(clf, IMAGE, [UNION, PLAIN])
    assert len(out) == 2 and out[1] is PLAIN
    card = out[0]
    assert card.index_visible == (True, True) and len(card.index_patches) == 2
    assert _aspect(np.asarray(card.corners)) == pytest.approx(1.4, abs=0.01)
    ends = row_ends(IMAGE, normalize_quad(UNION.corners), (1.0,))
    assert np.asarray(card.corners) == pytest.approx(ends[0][0][0])


@pytest.mark.parametrize("script", [
    ["QH", "7C", None, None, None, None, None, None],  # its corners disagree
    ["QH", None, "QH", None, None, None, None, None],  # one card, the same at both ends
])
def test_no_whole_end_card_otherwise(script: list[str | None]) -> None:
    assert split_unions(_Scripted(script), IMAGE, [UNION, PLAIN]) == [UNION, PLAIN]


def test_an_end_card_beside_another_cards_index_comes_with_that_card() -> None:
    """The other end of the way shows another card's index, short of the bars: the
    outline holds two cards, no card and bare table, and the end card read alone
    would reach over the other card, which nothing reports (IMG_2601 at 0.75 x 1:
    the queen's quad took the ten's label). Both end cards are given, each to be
    read at its two corners."""
    clf = _Scripted(["QH", None, ("10D", 0.77), None, None, None, None, None])
    out = split_unions(clf, IMAGE, [UNION, PLAIN])
    assert len(out) == 3 and out[2] is PLAIN
    ends = row_ends(IMAGE, normalize_quad(UNION.corners), (1.0,))[0]
    for cand, end in zip(out, ends):
        assert np.asarray(cand.corners) == pytest.approx(end.quad)
        assert cand.index_visible == (True, True) and len(cand.index_patches) == 2


def test_an_outline_of_no_cards_shape_seen_at_one_corner_is_not_read() -> None:
    """Mostly seen, whole in the frame, one index corner under another card, and
    near-square where cards are not: two cards under one outline, whose free corner
    may show the card below (IMG_2635 at 0.8 x 1): nothing of it is read."""
    half = CardCandidate(_rect(50, 50, 100, 100), score=0.8, visible=0.95,
                         index_visible=(False, True), index_patches=_PATCHES[:1],
                         patch_corners=(2,))
    clf = _Scripted([])
    out = split_unions(clf, IMAGE, [half, PLAIN])
    assert clf.calls == 0 and out[1] is PLAIN
    assert out[0].corners == half.corners and out[0].index_visible == (False, False)
    assert out[0].index_patches == ()
    # of a card's shape, much covered, or cut by the frame's edge: read as it is
    for kept in (replace(half, corners=_rect(50, 50, 63, 88)), replace(half, visible=0.6),
                 replace(half, corners=_rect(0, 50, 100, 100))):
        assert split_unions(clf, IMAGE, [kept, PLAIN]) == [kept, PLAIN]


def test_the_real_k_under_a_queen_and_over_an_ace_is_not_read_as_the_ace() -> None:
    """IMG_2635 at 0.8 x 1: one outline round the K (its index under the Q) and the
    ace it lies on read AC, matched to the K's label. No reading is wrong now."""
    from vision.detect import detect_cards
    from vision.evaluate import REAL_PHOTOS, match_real, real_labels, stretched
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_image

    path = REAL_PHOTOS / "images" / "train" / "IMG_2635.JPG"
    if not path.is_file():
        pytest.skip("real photos not here")
    clf = IndexClassifier.load()
    image = stretched(load_image(path), 0.8, 1.0)
    labels = real_labels(REAL_PHOTOS, "train")["IMG_2635.JPG"]
    boxes = [(x0 * 0.8, y0, x1 * 0.8, y1) for _, (x0, y0, x1, y1) in labels]
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)  # (as evaluation runs: with more, this photo's cards differ)
    try:
        cands = detect_cards(image)
    finally:
        cv2.setNumThreads(threads)
    assert any(sum(c.index_visible) == 1 and c.visible >= 0.9 for c in cands)
    sightings = read_image(clf, image, lambda _: cands)
    for (rank, _), j in zip(labels, match_real(boxes, [s.corners for s in sightings])):
        if j is not None and sightings[j].card is not None:
            assert sightings[j].card[:-1] == rank


def test_an_end_card_unsure_at_its_outer_corner_counts_with_its_inner_one() -> None:
    """IMG_2601 at 0.8 x 1: the 10D's outer corner alone falls short of the bar for
    one corner; with its inner corner (seen: it reads the same card) it passes the
    bar for two. The outline splits; that end card keeps both corners."""
    clf = _Scripted(["QH", None, ("10D", 0.85), ("10D", 0.95), None, None, None, None])
    out = split_unions(clf, IMAGE, [UNION, PLAIN])
    assert len(out) == 3 and out[2] is PLAIN
    assert sum(out[0].index_visible) == 1 and len(out[0].index_patches) == 1
    assert out[1].index_visible == (True, True) and len(out[1].index_patches) == 2


def test_an_outline_longer_than_a_card_is_not_cut_down_to_one_end() -> None:
    """A long outline is a row: one end card read alone, cut from it, need not be
    where its card is (held-out decks: 4 cards reported where they were not)."""
    row = CardCandidate(_rect(50, 50, 63, 130), score=0.9)
    n = len(row_ends(IMAGE, normalize_quad(row.corners), (1.0,)))
    assert n >= 1
    clf = _Scripted(["QH", *[None] * (4 * n - 1)])
    assert split_unions(clf, IMAGE, [row, PLAIN]) == [row, PLAIN]
    assert clf.calls == 1
