"""Synthetic scenes: the ground truth must say exactly where the drawn cards are.

Real rendering (rsvg card art, OpenCV warps); the checks compare pixels against the
truth, so a wrong corner order, a mirrored card or a stale visibility would fail.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cardart import find_deck, list_decks, render_card
from vision.recognize.patch import PATCH_SIZE, extract_index_patches
from vision.scene import (
    CameraSpec,
    CardPlacement,
    Distractor,
    DistractorShape,
    LightSpec,
    SceneRenderer,
    SceneSpec,
    TableStyle,
    random_scene_spec,
    render_scene,
)

pytestmark = pytest.mark.skipif(not list_decks(), reason="card art packages not installed")

DECK = "gnome/anglo"
FLAT = LightSpec(shadow=0.0)


@pytest.fixture(scope="module")
def renderer() -> SceneRenderer:
    return SceneRenderer()


def _spec(cards, *, tilt=0.0, roll=0.0, table=TableStyle.FELT_GREEN, light=FLAT, **kw):
    return SceneSpec(cards=tuple(cards), size=(640, 480), table=table, table_seed=3,
                     camera=CameraSpec(px_per_mm=1.8, tilt_deg=tilt, roll_deg=roll),
                     light=light, **kw)


def _mask(quad, shape, grow=0.0):
    q = np.asarray(quad, np.float32)
    c = q.mean(axis=0)
    q = c + (q - c) * (1 + grow)
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(m, np.round(q * 16).astype(np.int32), 1, shift=4)
    return m.astype(bool)


@pytest.mark.parametrize("tilt,roll,stretch,table", [
    (0, 0, 1.0, TableStyle.FELT_GREEN), (30, 15, 1.0, TableStyle.CARPET),
    (20, -70, 1.0, TableStyle.WOOD), (10, 40, 0.75, TableStyle.CLOTH_LIGHT)])
def test_corners_match_the_drawn_card(renderer, tilt, roll, stretch, table):
    card = CardPlacement(DECK, "QS", x_mm=10, y_mm=-5, angle_deg=33)
    paper = Distractor(DistractorShape.PAPER, x_mm=-90, y_mm=40, size_mm=60, aspect=1.4,
                       colour=(240, 240, 235))
    kw = {"tilt": tilt, "roll": roll, "stretch_x": stretch, "table": table,
          "distractors": (paper,)}
    bare, _ = render_scene(_spec([], **kw), np.random.default_rng(0), renderer)
    img, truth = render_scene(_spec([card], **kw), np.random.default_rng(0), renderer)
    assert img.shape == bare.shape == (480, round(640 * stretch), 3)
    changed = np.abs(img.astype(int) - bare.astype(int)).max(axis=2) > 12
    (t,) = truth
    inside = _mask(t.corners, img.shape, grow=-0.06)   # clear of the rounded corners
    outside = ~_mask(t.corners, img.shape, grow=0.03)
    assert changed[inside].mean() > 0.9     # the card covers its quad...
    assert changed[outside].mean() < 0.001  # ...and nothing outside it
    assert t.visible_fraction == pytest.approx(1.0, abs=0.01)
    assert [r.visible for r in t.index_regions] == [True, True]


def test_first_corner_is_the_printed_top_left(renderer):
    """Warping the scene back through the truth corners gives the art upright (and not
    the art turned 180 degrees, which a corner list starting at the wrong end gives)."""
    art = render_card(find_deck(DECK), "7H", 200)
    h, w = art.shape[:2]
    opaque = art[:, :, 3] > 250
    upright = cv2.cvtColor(art[:, :, :3], cv2.COLOR_BGR2GRAY).astype(np.float32)
    turned = upright[::-1, ::-1]
    rect = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    for angle in (0, 100, 200, 290):
        img, (t,) = render_scene(_spec([CardPlacement(DECK, "7H", 0, 0, angle)], tilt=15),
                                 np.random.default_rng(1), renderer)
        m = cv2.getPerspectiveTransform(np.float32(t.corners), rect)
        back = cv2.cvtColor(cv2.warpPerspective(img, m, (w, h)), cv2.COLOR_BGR2GRAY)
        back = back.astype(np.float32)

        def corr(ref, seen=back):
            return float(np.corrcoef(seen[opaque], ref[opaque])[0, 1])
        assert corr(upright) > 0.85, angle
        assert corr(upright) > corr(turned) + 0.2, angle


def test_index_patches_follow_index_regions(renderer):
    """extract_index_patches on the truth corners crops where index_regions say."""
    img, (t,) = render_scene(_spec([CardPlacement(DECK, "10S", 5, 5, 60)], tilt=20),
                             np.random.default_rng(4), renderer)
    patches = extract_index_patches(img, t.corners)
    assert len(patches) == 2 and patches[0].shape[:2] == (PATCH_SIZE[1], PATCH_SIZE[0])
    for region in t.index_regions:
        q = np.float32(region.quad)
        pw, ph = PATCH_SIZE
        m = cv2.getPerspectiveTransform(q, np.float32([[0, 0], [pw, 0], [pw, ph], [0, ph]]))
        mine = cv2.warpPerspective(img, m, PATCH_SIZE)
        best = max(float(np.corrcoef(mine.ravel(), p.ravel())[0, 1]) for p in patches)
        assert best > 0.8


def test_durak_overlap_records_visible_fractions(renderer):
    attack = CardPlacement(DECK, "9H", x_mm=0, y_mm=0, angle_deg=0)
    beat = CardPlacement(DECK, "KH", x_mm=22, y_mm=-30, angle_deg=35, lift_mm=0.3)
    _, (ta, tb) = render_scene(_spec([attack, beat]), np.random.default_rng(2), renderer)
    qa = np.asarray(ta.corners, np.float32)
    qb = np.asarray(tb.corners, np.float32)
    inter, _ = cv2.intersectConvexConvex(qa, qb)
    expected = 1 - inter / cv2.contourArea(qa)
    assert 0.2 < ta.visible_fraction < 0.9
    assert ta.visible_fraction == pytest.approx(expected, abs=0.02)
    assert tb.visible_fraction == pytest.approx(1.0, abs=0.01)
    top_left, bottom_right = ta.index_regions
    assert top_left.visible and not bottom_right.visible
    assert ta.readable and tb.readable


def test_face_down_cards_have_no_label_and_no_index(renderer):
    _, (t,) = render_scene(_spec([CardPlacement(DECK, None, 0, 0, 10)]),
                             np.random.default_rng(3), renderer)
    assert t.face_down and t.card is None and t.index_regions == () and not t.readable


def test_same_seed_same_scene_other_seed_other_scene(renderer):
    decks = ["gnome/anglo", "kde/standard"]
    a = random_scene_spec(np.random.default_rng(7), decks, 6, overlap=0.5)
    b = random_scene_spec(np.random.default_rng(7), decks, 6, overlap=0.5)
    c = random_scene_spec(np.random.default_rng(8), decks, 6, overlap=0.5)
    assert a == b and a != c
    img_a, truth_a = render_scene(a, np.random.default_rng(1), renderer)
    img_b, truth_b = render_scene(b, np.random.default_rng(1), SceneRenderer())
    assert np.array_equal(img_a, img_b) and truth_a == truth_b
    img_c, _ = render_scene(c, np.random.default_rng(1), renderer)
    assert not np.array_equal(img_a, img_c)


@pytest.mark.parametrize("seed", range(4))
def test_random_scenes_keep_cards_in_frame_and_distinct(renderer, seed):
    rng = np.random.default_rng(seed)
    spec = random_scene_spec(rng, ["gnome/anglo", "kde/standard"], 8, overlap=0.0,
                             face_down=0.2, size=(1280, 720), px_per_mm=(1.3, 1.8),
                             distractors=1.0)
    assert spec.distractors
    img, truth = render_scene(spec, rng, renderer)
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8
    labels = [t.card for t in truth if t.card]
    assert len(labels) == len(set(labels)) and len(truth) == 8
    for t in truth:
        xs, ys = zip(*t.corners)
        assert min(xs) >= 0 and max(xs) <= 1280 and min(ys) >= 0 and max(ys) <= 720
    # free placement: nearly every card lies uncovered
    assert sum(t.visible_fraction > 0.98 for t in truth) >= 7


def test_overlap_setting_produces_covered_cards_with_an_index_in_view(renderer):
    covered = 0
    for seed in range(5):
        rng = np.random.default_rng(100 + seed)
        spec = random_scene_spec(rng, ["kde/standard"], 8, overlap=1.0, face_down=0.0)
        _, truth = render_scene(spec, rng, renderer)
        for t in truth:
            if t.visible_fraction < 0.9:
                covered += 1
    assert covered >= 10


def test_sensor_noise_is_zero_mean_with_the_asked_sigma_on_every_channel(renderer):
    """Regression: a scalar subtracted with cv2 only touches channel 0."""
    clean = SceneSpec(cards=(), size=(320, 240), light=FLAT)
    noisy = SceneSpec(cards=(), size=(320, 240), light=FLAT, noise_sigma=5.0)
    a, _ = render_scene(noisy, np.random.default_rng(0), renderer)
    b, _ = render_scene(clean, np.random.default_rng(0), renderer)
    d = a.astype(float) - b.astype(float)
    assert np.abs(d.mean(axis=(0, 1))).max() < 0.3
    assert d.std(axis=(0, 1)) == pytest.approx([5.0, 5.0, 5.0], abs=0.4)


def test_card_half_out_of_frame_counts_the_edge_as_covering(renderer):
    # at 1.8 px/mm a card is ~158 px tall; centre it on the left edge of a 640 px frame
    edge_x_mm = -320 / 1.8
    _, (t,) = render_scene(_spec([CardPlacement(DECK, "5C", edge_x_mm, 0, 0)]),
                           np.random.default_rng(5), renderer)
    assert t.visible_fraction == pytest.approx(0.5, abs=0.03)
    assert min(x for x, _ in t.corners) < 0 < max(x for x, _ in t.corners)
    assert [r.visible for r in t.index_regions] == [False, True]


def test_a_hand_over_a_card_counts_as_covering_it(renderer):
    card = CardPlacement(DECK, "JH", x_mm=0, y_mm=0, angle_deg=10)
    hand = Distractor(DistractorShape.HAND, x_mm=-20, y_mm=-90, size_mm=170, angle_deg=-5,
                      colour=(110, 140, 200), seed=3, over_cards=True)
    plain, (t0,) = render_scene(_spec([card]), np.random.default_rng(0), renderer)
    img, (t,) = render_scene(_spec([card], distractors=(hand,)), np.random.default_rng(0),
                             renderer)
    assert t0.visible_fraction == pytest.approx(1.0, abs=0.01)
    inside = _mask(t.corners, img.shape)
    changed = np.abs(img.astype(int) - plain.astype(int)).max(axis=2) > 12
    hidden = changed[inside].mean()
    assert 0.1 < hidden < 0.9
    assert t.visible_fraction == pytest.approx(1 - hidden, abs=0.05)


def test_off_edge_cards_stick_out_of_the_frame_but_are_centred_in_it(renderer):
    out = checked = 0
    for seed in range(3):
        rng = np.random.default_rng(200 + seed)
        spec = random_scene_spec(rng, [DECK], 6, overlap=0.0, off_edge=1.0, size=(640, 480))
        _, truth = render_scene(spec, rng, renderer)
        for t in truth:
            cx, cy = t.center
            assert 0 <= cx <= 640 and 0 <= cy <= 480
            xs, ys = zip(*t.corners)
            if min(xs) < -10 or max(xs) > 650 or min(ys) < -10 or max(ys) > 490:
                out += 1
            # a card no other card touches: visible = the part of it inside the frame
            q = np.float32(t.corners)
            if any(cv2.intersectConvexConvex(q, np.float32(o.corners))[0] > 0
                   for o in truth if o is not t):
                continue
            frame = np.float32([[0, 0], [640, 0], [640, 480], [0, 480]])
            inter, _ = cv2.intersectConvexConvex(q, frame)
            assert t.visible_fraction == pytest.approx(inter / cv2.contourArea(q), abs=0.01)
            checked += 1
    assert out >= 12 and checked >= 6
