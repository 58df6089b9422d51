"""Rendered phone-like photos (vision.scene.photos) and their scoring
(vision.evaluate_photos): the truth must say where each drawn index is, also after the
non-uniform resize and under a book, and the scoring must count right, rank alone,
suit wrong, wrong, unread, missed and phantom cards each where they belong."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision.evaluate_photos import PhotoReport, score_photo
from vision.recognize.patch import extract_index_patches, index_quads
from vision.scene import CameraSpec, CardPlacement, Distractor, DistractorShape, LightSpec
from vision.scene.photos import LAYOUTS, PhotoSpec, random_photo_spec, render_photo
from vision.scene.render import SceneRenderer
from vision.scene.spec import CardTruth, IndexRegion, SceneSpec, TableStyle
from vision.types import CardSighting

DECK = "gnome/anglo"  # a training deck, rendered a whole sheet at a time


@pytest.fixture(scope="module")
def clf():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier.load()


def _clean(spec: PhotoSpec) -> PhotoSpec:
    """The same photo without blur, noise, JPEG, glare or shadows (the layout, camera,
    block and resize kept): what is drawn where, not how well it survives a phone."""
    scene = dataclasses.replace(spec.scene, blur_sigma=0.0, motion_px=0.0, noise_sigma=0.0,
                                jpeg_quality=None, light=LightSpec(shadow=0.0))
    return dataclasses.replace(spec, scene=scene)


def _ranks_read(clf, image, truth):  # type: ignore[no-untyped-def]
    """(right, wrong, read) over the uncovered index regions, read from the true quads."""
    patches, want = [], []
    for t in truth:
        for region, patch in zip(t.index_regions, extract_index_patches(image, t.corners)):
            if region.visible:
                patches.append(patch)
                want.append(t.card[:-1])
    got = [r.rank for r in clf.classify(patches)]
    read = [(g, w) for g, w in zip(got, want) if g is not None]
    return sum(g == w for g, w in read), sum(g != w for g, w in read), len(want)


def test_true_quads_hold_their_indices(clf):  # type: ignore[no-untyped-def]
    """Every layout, resized or not: the index cut from each card's true quad at an
    uncovered corner reads as that card's rank (a misplaced, mirrored or unresized
    truth reads as something else or as nothing)."""
    deck_or_skip(DECK)
    rng = np.random.default_rng(11)
    renderer = SceneRenderer()
    layouts: set[str] = set()
    right = wrong = n = 0
    resized = 0
    for i in range(14):
        spec = _clean(random_photo_spec(rng, [DECK], resize_share=0.5, occluder=0.5))
        layouts.add(spec.layout)
        resized += spec.resized
        image, truth = render_photo(spec, np.random.default_rng(i), renderer)
        sx, sy = spec.resize
        w, h = spec.scene.size
        assert image.shape[:2] == (round(h * sy), round(w * sx))
        r, wr, k = _ranks_read(clf, image, truth)
        right, wrong, n = right + r, wrong + wr, n + k
    assert layouts == {name for name, _ in LAYOUTS} and resized >= 3
    assert n >= 30
    assert wrong == 0 and right >= 0.9 * n, (right, wrong, n)


def test_resize_scales_truth_with_the_image(clf):  # type: ignore[no-untyped-def]
    """The same photo squeezed on either axis: truth scaled alike, still on the index."""
    deck_or_skip(DECK)
    spec = _clean(random_photo_spec(np.random.default_rng(5), [DECK], resize_share=0.0))
    renderer = SceneRenderer()
    _, plain = render_photo(spec, np.random.default_rng(0), renderer)
    for resize in ((0.75, 1.0), (1.0, 1.3)):
        image, truth = render_photo(dataclasses.replace(spec, resize=resize),
                                    np.random.default_rng(0), renderer)
        h, w = image.shape[:2]
        fx, fy = w / spec.scene.size[0], h / spec.scene.size[1]
        for a, b in zip(plain, truth):
            np.testing.assert_allclose(np.array(b.corners), np.array(a.corners) * [fx, fy],
                                       atol=1e-6)
        right, wrong, n = _ranks_read(clf, image, truth)
        assert n and wrong == 0 and right >= n - 1


def test_a_book_over_a_card_hides_what_it_covers(clf):  # type: ignore[no-untyped-def]
    """A printed page laid over the top half of a card: truth says the top index is
    covered and the bottom one in view, and the pixels agree (the bottom one reads,
    the top one does not)."""
    deck_or_skip(DECK)
    card = CardPlacement(DECK, "8C", 0.0, 0.0, 0.0)
    book = Distractor(DistractorShape.PAPER, x_mm=0.0, y_mm=44.0 + 70.0 - 40.0,
                      size_mm=150.0, aspect=140.0 / 150.0, colour=(230, 232, 236),
                      seed=3, over_cards=True, texture="print")
    scene = SceneSpec(cards=(card,), size=(378, 504), table=TableStyle.WOOD, table_seed=1,
                      camera=CameraSpec(px_per_mm=2.5), light=LightSpec(shadow=0.0),
                      distractors=(book,))
    image, (t,) = render_photo(PhotoSpec(scene, "single", occluded=True),
                               np.random.default_rng(0))
    top, bottom = t.index_regions
    assert top.visible_fraction < 0.05 and bottom.visible
    assert 0.4 < t.visible_fraction < 0.6
    readings = clf.classify(extract_index_patches(image, t.corners))
    assert readings[1].rank == "8" and readings[0].rank != "8"


def _card(x0: float, card: str | None = "QH", covered: bool = False) -> CardTruth:
    """An upright 60x90 card at x0 (its indices in view unless `covered`)."""
    corners = ((x0, 0.0), (x0 + 60.0, 0.0), (x0 + 60.0, 90.0), (x0, 90.0))
    regions = tuple(IndexRegion(tuple(map(tuple, q)), 0.0 if covered else 1.0)  # type: ignore
                    for q in index_quads(corners))
    return CardTruth(card=card, face_down=False, corners=corners,  # type: ignore[arg-type]
                     visible_fraction=0.5 if covered else 1.0, index_regions=regions,
                     deck=DECK)


def _seen(x0: float, card: str | None = None, rank: str | None = None,
          width: float = 60.0, height: float = 90.0, y0: float = 0.0) -> CardSighting:
    corners = ((x0, y0), (x0 + width, y0), (x0 + width, y0 + height), (x0, y0 + height))
    return CardSighting(corners, card=card, rank=rank, confidence=1.0 if card else 0.0)


def test_scoring_counts_each_outcome_once():
    """Hand-made photo: right, rank alone, suit wrong, rank wrong, unread, missed, a
    covered card read wrong, a card read through a quad reaching far past it (its
    index corner on the card's), a card seen twice (unread whole, read through a
    quad too big: the reading counts, no phantom), a card of which only the lower
    part was found, and a phantom."""
    truth = [_card(0, "QH"), _card(100, "7S"), _card(200, "9H"), _card(300, "QD"),
             _card(400, "5C"), _card(500, "AH"), _card(600, "3D", covered=True),
             _card(700, "10C"), _card(1000, "JH"), _card(1200, "8H")]
    sightings = [_seen(0, "QH"), _seen(100, rank="7"), _seen(200, "9S"), _seen(300, "KD"),
                 _seen(400), _seen(600, "4D"),
                 _seen(700, "10C", width=90.0, height=135.0),  # IoU 0.44, index on it
                 _seen(900, "2C"),  # nothing there
                 _seen(1000), _seen(1000, "JH", width=90.0, height=135.0),
                 _seen(1200, "8H", y0=50.0, height=40.0)]  # its lower part
    rep = PhotoReport()
    score_photo(rep, truth, sightings, photo=3, layout="row")
    assert (rep.ranks.correct, rep.ranks.wrong, rep.ranks.abstained) == (6, 2, 2)
    assert (rep.cards.correct, rep.cards.wrong, rep.cards.abstained) == (4, 3, 3)
    assert rep.phantoms == 1 and rep.hidden == 1 and rep.photos == 1
    assert [r.outcome for r in rep.records] == [
        "right", "rank", "suit", "wrong", "unread", "missed", "right", "right", "right"]
    assert rep.rank_accuracy() == (6, 1, 9)


def test_bench_prints_the_photo_figures():
    """`python -m bench vision` prints the phone-like photo lines (here two photos of a
    training deck, to keep the held-out decks for measuring)."""
    from bench.vision import photos

    deck_or_skip(DECK)
    lines: list[str] = []
    figures = photos(lines.append, n=2, decks=[DECK])
    assert lines[0].startswith("phone-like rendered photos of decks (gnome/anglo; 2 photos")
    assert lines[1].startswith("  rank only:  n=") and "whole card: n=" in lines[2]
    assert 0.0 <= figures["photos_rank_accuracy"] <= 1.0
