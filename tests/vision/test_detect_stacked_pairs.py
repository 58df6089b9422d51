"""vision.detect splits the outline of two cards lying nearly aligned, one mostly on
the other, shifted sideways: their joint outline is about square, so it passes for a
tilted card, and it was reported as one card (read as the top card, matched to the
one below: a wrong reading). Rendered held-out scenes 9 and 198 of seed 99 did this.

Hand-laid tables (vision.detect.tableau), no perspective, so the truth is exact.
The split pairs fail on the detector before commit a097443 (the joint outline was
the only card reported, IoU >= 0.93 with it).
"""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision import cardart
from vision.detect import DetectorConfig, detect_cards, prune
from vision.detect import geometry as g
from vision.detect.tableau import Placement, lay

CARD_H = 170
CARD_W = CARD_H * 63 / 88


@pytest.fixture(scope="module")
def anglo() -> cardart.DeckArt:
    return deck_or_skip("gnome/anglo")


@pytest.mark.parametrize(("shift", "turn", "kind"), [
    (0.35, 4.0, "felt"), (0.45, 4.0, "dark"), (0.45, 6.0, "felt"), (0.45, 6.0, "dark"),
    (0.45, 2.0, "felt"),
])
def test_card_shifted_along_another_is_not_one_square_card(
        anglo: cardart.DeckArt, shift: float, turn: float, kind: str) -> None:
    """The 4D laid on the 7D, moved sideways by `shift` of a card's width and a
    little up, turned by `turn` degrees: the top card is found, not the pair's
    outline (the 7D's left half plus the 4D)."""
    img, laid = lay(anglo, [Placement("7D", (600, 360), 0.0),
                            Placement("4D", (600 + shift * CARD_W, 350), -turn)],
                    kind=kind, seed=1, card_height=CARD_H)
    below, top = (g.order_quad(x.corners) for x in laid)
    pair = g.order_quad(np.array([below[0], top[1], top[2], below[3]], np.float32))
    quads = [c.quad for c in detect_cards(img, DetectorConfig(with_patches=False))]
    assert quads, "nothing found"
    assert max(g.iou(q, pair) for q in quads) < 0.8, "the two cards reported as one"
    assert max(g.iou(q, top) for q in quads) >= 0.9, "the top card lost"


def test_court_picture_inside_a_card_does_not_make_it_a_pair() -> None:
    """Outlines from a real photo (train IMG_2498, work scale): a jack, and an
    outline of its shape inside it, off its border by the picture's margin at one
    corner, made the jack a 'pair' before the shape test (`widen`). The pair of
    rendered scene 9 (square outline, card inside 1.4 times as oblong) is one."""
    jack = np.array([[236, 217], [317, 247], [263, 351], [192, 322]], np.float32)
    inside = np.array([[293, 299], [272, 355], [192, 321], [216, 265]], np.float32)
    assert not prune._runs_along(inside, jack)
    assert prune._runs_along(inside, jack, widen=0.0)  # the shape test decides it
    pair = np.array([[286, 94], [263, 185], [170, 157], [193, 66]], np.float32)
    top = np.array([[282, 122], [261, 185], [173, 156], [193, 92]], np.float32)
    assert prune._runs_along(top, pair)


@pytest.mark.parametrize("kind", ["felt", "dark"])
def test_two_piles_do_not_vouch_for_each_other(anglo: cardart.DeckArt, kind: str) -> None:
    """Two such pairs on one table, and two cards lying alone: each pair's outline
    is about the size of the other pair's, which made it "card-sized elsewhere",
    so neither was split and both top cards were lost (rendered training scenes
    6 and 46 of seed 5 did this; fails before the vote in prune._sized_like_outer).
    The cards lying alone are the cards' size: both top cards are found."""
    place = [Placement("7D", (330, 330), 0.0), Placement("4D", (330 + 0.45 * CARD_W, 320), -4.0),
             Placement("9C", (880, 330), 0.0), Placement("5S", (880 + 0.45 * CARD_W, 320), -4.0),
             Placement("KH", (420, 600), 30.0), Placement("2S", (900, 610), -20.0)]
    img, laid = lay(anglo, place, kind=kind, seed=2, card_height=CARD_H)
    quads = [c.quad for c in detect_cards(img, DetectorConfig(with_patches=False))]
    for k in (1, 3, 4, 5):  # the top cards and the lone ones
        card = g.order_quad(laid[k].corners)
        assert max((g.iou(q, card) for q in quads), default=0.0) >= 0.9, place[k].card
    for below, top in ((laid[0], laid[1]), (laid[2], laid[3])):
        b, t = g.order_quad(below.corners), g.order_quad(top.corners)
        pair = g.order_quad(np.array([b[0], t[1], t[2], b[3]], np.float32))
        assert max(g.iou(q, pair) for q in quads) < 0.8, "a pair reported as one card"


def test_runs_along_many_is_runs_along() -> None:
    """split_groups asks _runs_along of every candidate pair at once
    (_runs_along_many): the same verdicts as the pair-at-a-time reference, on cards shifted along, across and
    into the corners of bigger outlines, turned a little (both verdicts occur)."""
    import cv2

    rng = np.random.default_rng(3)
    inner, outer, want = [], [], []
    for _ in range(3000):
        c = rng.uniform(50, 300, 2)
        w, h, ang = rng.uniform(30, 60), rng.uniform(45, 90), rng.uniform(0, 180)
        o = g.order_quad(cv2.boxPoints((tuple(c), (w * rng.uniform(1.0, 1.7), h), ang)))
        i = g.order_quad(cv2.boxPoints((tuple(c + rng.normal(0, 4, 2)), (w, h * rng.uniform(0.8, 1.0)),
                                        ang + rng.normal(0, 3))))
        inner.append(i.astype(np.float32))
        outer.append(o.astype(np.float32))
        want.append(_runs_along_pairwise(inner[-1], outer[-1]))
    asp_i = np.array([g.aspect(q) for q in inner], np.float32)
    asp_o = np.array([g.aspect(q) for q in outer], np.float32)
    got = prune._runs_along_many(np.stack(inner), np.stack(outer), asp_i, asp_o)
    assert 100 < sum(want) < 2900, sum(want)
    assert got.tolist() == want


def _runs_along_pairwise(inner: np.ndarray, outer: np.ndarray, tol: float = 0.05,
                         step: float = 0.15, widen: float = 1.25) -> bool:
    """prune._runs_along as first written, one pair at a time: the reference the
    vectorised version is held to."""
    a = outer
    d = outer[[1, 2, 3, 0]] - a
    ln = np.linalg.norm(d, axis=1) + 1e-9
    rel = inner[:, None, :] - a[None, :, :]
    dist = np.abs(d[None, :, 0] * rel[..., 1] - d[None, :, 1] * rel[..., 0]) / ln[None, :]
    short = min(ln[0] + ln[2], ln[1] + ln[3]) / 2
    on = (dist <= tol * short).sum(axis=0)  # per side: corners on it
    near = (dist <= step * short).sum(axis=0)
    if int((on >= 2).sum()) >= 3:
        return True
    corners_on = int((dist <= tol * short).any(axis=1).sum())
    return (corners_on >= 2 and int((near >= 2).sum()) >= 3
            and g.aspect(inner) >= widen * g.aspect(outer))
