"""vision.recognize.partial: a card partly under a book or a board, read from the part
of it in view (grown to card proportions across the object's edge); never where the
outline ends at the table all round, never a card read already."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.detect import CardCandidate
from vision.recognize.objectedge import OBJECT_CONTRAST, object_edges
from vision.recognize.objectedge import lab_of as _lab
from vision.recognize.overlap import quad_iou
from vision.recognize.partial import find_partial, grown_cards
from vision.recognize.readings import Calibration, Reading

DECK = "gnome/anglo"  # a training deck, rendered a whole sheet at a time


def _rect(x0: float, y0: float, w: float, h: float) -> np.ndarray:
    return np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], np.float32)


def test_the_top_of_a_card_grows_into_the_card() -> None:
    """The top 45% of an upright 70 x 98 card, cut by its bottom side: one way grows
    it down to the whole card, reading the top-left index (its corner 0)."""
    part = _rect(100, 50, 70, 44)
    card = _rect(100, 50, 70, 98)
    down = [g for g in grown_cards(part) if quad_iou(g.quad, card) > 0.95]
    assert len(down) == 1
    g = down[0]
    # (normalised, the part starts at a short side: top-right, bottom-right, ...)
    assert g.cut == 1  # its bottom side
    assert np.abs(g.quad[g.corner] - np.float32([100, 50])).max() < 1.0
    # ... and the sizes tried bracket it, from the same kept side
    lengths = sorted(float(t[:, 1].max() - t[:, 1].min()) for t in g.tries)
    assert lengths == pytest.approx([0.9 * 98, 98, 1.1 * 98], abs=1.0)


def test_a_squeezed_photo_grows_the_card_at_its_squeeze() -> None:
    """A photo stored at 80% of its height: the card is 98 * 0.8 tall in it, its part
    grown to that."""
    part = _rect(100, 50, 70, 35)
    card = _rect(100, 50, 70, 98 * 0.8)
    assert any(quad_iou(g.quad, card) > 0.95 for g in grown_cards(part, squeeze=0.8))
    assert not any(quad_iou(g.quad, card) > 0.95 for g in grown_cards(part, squeeze=1.0))


def _table(block: bool) -> tuple[np.ndarray, np.ndarray]:
    """A dark cloth, the visible top of a white card and (`block`) a striped board
    lying over the rest of it: (image, the part in view)."""
    img = np.full((240, 320, 3), 50, np.uint8)
    rng = np.random.default_rng(0)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    img[50:94, 100:170] = 235
    if block:
        img[94:200, 60:260] = (170, 90, 170)
        img[94:200:8, 60:260] = (40, 200, 230)  # stripes
    return img, _rect(100, 50, 70, 44)


def test_an_objects_edge_is_told_from_the_table() -> None:
    img, part = _table(block=True)
    edges = object_edges(_lab(img), part)
    # (sides of the normalised part: right, bottom, left, top)
    assert edges[1] >= OBJECT_CONTRAST  # the bottom side: the board
    assert max(edges[0], edges[2], edges[3]) < OBJECT_CONTRAST
    img, part = _table(block=False)
    assert max(object_edges(_lab(img), part)) < OBJECT_CONTRAST


class _Scripted:
    """A stand-in recogniser: a patch reads `card` surely when its top-left quarter is
    mostly white paper with a dark mark (a whole index cut at a card's proportions
    from the part's top-left corner), "not an index" otherwise."""

    deck = None
    fallback = None
    wants_second_look = None

    def __init__(self, card: str) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.card = card

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        out = []
        for p in patches:
            grey = p.mean(axis=2)
            index = grey[4:40, 2:20]
            if (index > 200).mean() > 0.6 and (index < 100).mean() > 0.05 \
                    and (grey[:, 24:] > 200).mean() > 0.8:
                out.append(Reading(self.card[:-1], self.card[-1], 0.999, 0.999, 0.999, 0.0))
            else:
                out.append(Reading(None, None, 0.9, 0.0, 0.0, 0.9))
        return out


def _with_index(img: np.ndarray) -> np.ndarray:
    img = img.copy()
    img[56:66, 104:108] = 0  # a rank glyph at the top-left corner
    return img


def _part_cand(img: np.ndarray, part: np.ndarray) -> CardCandidate:
    from vision.recognize.patch import extract_index_patches

    return CardCandidate(tuple(map(tuple, part.tolist())),  # type: ignore[arg-type]
                         score=0.9, index_patches=tuple(extract_index_patches(img, part)),
                         patch_corners=(0, 2))


def test_a_part_under_a_board_is_grown_and_read_only_where_an_object_cuts_it() -> None:
    clf = _Scripted("7H")
    img, part = _table(block=True)
    img = _with_index(img)
    cand = _part_cand(img, part)
    assert clf.classify(list(cand.index_patches))[0].rank is None  # cut from the part
    (got,) = find_partial(clf, img, [cand])
    assert quad_iou(got.corners, _rect(100, 50, 70, 98)) > 0.9
    (k,) = got.patch_corners  # the one index read: the part's top-left corner
    assert np.abs(np.asarray(got.corners)[k] - (100, 50)).max() < 1.0
    assert got.index_visible == (k == 0, k == 2) and len(got.index_patches) == 1
    assert got.visible == pytest.approx(44 / 98, abs=0.02)
    # The same part ending at the table all round: a card of its own, not grown.
    plain, _ = _table(block=False)
    plain = _with_index(plain)
    assert find_partial(clf, plain, [_part_cand(plain, part)])[0].corners == \
        _part_cand(plain, part).corners


def test_a_card_read_already_is_not_read_again_from_a_part() -> None:
    """One deck holds each card once: a part reading 7H where 7H is read is left."""
    clf = _Scripted("7H")
    img, part = _table(block=True)
    img = _with_index(img)
    img[10:40, 250:300] = 235  # a card elsewhere (its own patches read 7H below)
    cand = _part_cand(img, part)
    sure = np.full((64, 32, 3), 235, np.uint8)
    sure[8:30, 4:12] = 0
    other = CardCandidate(((250.0, 10.0), (300.0, 10.0), (300.0, 80.0), (250.0, 80.0)),
                          score=0.9, index_patches=(sure,), patch_corners=(0,),
                          index_visible=(True, False))
    assert clf.classify([sure])[0].rank == "7"
    assert find_partial(clf, img, [cand])[0] is not cand  # (alone, it is grown)
    got = find_partial(clf, img, [cand, other])
    assert got[0] is cand


@pytest.fixture(scope="module")
def clf():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier.load()


@pytest.mark.parametrize("card, angle, texture, table", [
    ("4C", -100.0, "stripes", "CLOTH_DARK"),
    ("7H", 80.0, "stripes", "CLOTH_DARK"),
    ("4C", -100.0, "print", "FELT_GREEN"),
])
def test_a_card_under_a_board_is_read_from_its_part_in_view(  # type: ignore[no-untyped-def]
        clf, card: str, angle: float, texture: str, table: str) -> None:
    """A phone-like photo of a card, half of it under a board: the detector outlines
    the half in view (its corners cut there read nothing); read as the card, the
    grown quad on it."""
    from vision.recognize.reader import read_image
    from vision.scene import CameraSpec, CardPlacement, Distractor, DistractorShape, LightSpec
    from vision.scene.photos import PhotoSpec, render_photo
    from vision.scene.spec import SceneSpec, TableStyle

    deck_or_skip(DECK)
    board = Distractor(DistractorShape.PAPER, x_mm=30.0, y_mm=0.0, size_mm=64.0,
                       angle_deg=-20.0, colour=(172, 90, 169), aspect=4.3, seed=5,
                       over_cards=True, texture=texture)
    scene = SceneSpec(cards=(CardPlacement(DECK, card, 0.0, 0.0, angle),), size=(378, 504),
                      table=TableStyle[table], table_seed=1, camera=CameraSpec(px_per_mm=2.5),
                      light=LightSpec(shadow=0.0), distractors=(board,))
    image, (t,) = render_photo(PhotoSpec(scene, "single", occluded=True),
                               np.random.default_rng(0))
    assert 0.4 < t.visible_fraction < 0.5
    read = [s for s in read_image(clf, image) if s.card]
    assert [s.card for s in read] == [card]
    assert quad_iou(read[0].corners, t.corners) > 0.8
