"""vision.detect finds plainly visible cards that phone photos of the real table lost:
a card among small crisp specks (a patterned cloth, bark, brick), cards cut off by
the edge of the picture, an outline that sits off the card's border by more than
the first polish reaches, an ace beside a notepad.

Hand-laid tables (vision.detect.tableau), so the truth is exact. Each test fails on
the detector before these fixes (commit 0e222ff): the card among the specks was
never reported (the specks were, as cards), no card cut by the frame was, the
rescue module did not exist, and the notepad was reported instead of the ace.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import deck_or_skip

from vision import cardart
from vision.detect import DetectorConfig, detect_cards
from vision.detect import geometry as g
from vision.detect.tableau import Placement, lay


@pytest.fixture(scope="module")
def anglo() -> cardart.DeckArt:
    return deck_or_skip("gnome/anglo")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_card_among_specks_is_found_and_specks_are_not(anglo: cardart.DeckArt, seed: int) -> None:
    """A big card, a corner of it under a book, beside small crisp dark rectangles
    (a sixth of its size). The book hides part of two sides, so the card is not
    an outline seen whole; the specks are, and sized the card out as too big."""
    img, laid = lay(anglo, [Placement("AS", (640, 380), 12)], kind="felt", seed=seed,
                    card_height=420, size=(1280, 960))
    book = cv2.boxPoints(((900, 640), (420, 360), 0)).astype(np.int32)
    cv2.fillPoly(img, [book], (30, 60, 120), lineType=cv2.LINE_AA)
    rng = np.random.default_rng(seed)
    specks = []
    for _ in range(10):
        c = (float(rng.uniform(60, 1220)), float(rng.uniform(60, 900)))
        if abs(c[0] - 700) < 380 and abs(c[1] - 450) < 400:
            continue  # not on the card or the book
        pts = cv2.boxPoints((c, (76, 106), float(rng.uniform(0, 90))))
        cv2.fillPoly(img, [pts.astype(np.int32)], (90, 40, 20), lineType=cv2.LINE_AA)
        specks.append(pts.astype(np.float32))
    assert specks
    img = cv2.GaussianBlur(img, (3, 3), 0)
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    card = g.order_quad(laid[0].corners)
    assert max((g.iou(c.quad, card) for c in cands), default=0.0) >= 0.9, len(cands)
    area = g.quad_area(card)
    assert all(g.quad_area(c.quad) >= 0.3 * area for c in cands), "a speck reported as a card"


@pytest.mark.parametrize("kind", ["felt", "dark"])
def test_cards_cut_by_the_frame_are_found(anglo: cardart.DeckArt, kind: str) -> None:
    """Three cards whole, one running out of the picture on the left, one at the
    bottom (centres in view): all five found, the cut ones as the part in view."""
    placements = [Placement("7C", (400, 300), 10), Placement("QH", (700, 330), -15),
                  Placement("AS", (1000, 280), 5), Placement("9D", (40, 420), 80),
                  Placement("KS", (640, 670), 3)]
    img, laid = lay(anglo, placements, kind=kind, seed=1, card_height=240)
    h, w = img.shape[:2]
    cands = detect_cards(img)
    assert len(cands) == 5, len(cands)
    lo, hi = np.zeros(2, np.float32), np.array([w - 1, h - 1], np.float32)
    for t in laid:
        seen = g.bounding_box(np.clip(t.corners, lo, hi))
        best = max(g.box_iou(seen, g.bounding_box(np.clip(c.quad, lo, hi))) for c in cands)
        assert best >= 0.85, (t.card, best)
    # The cut cards' index corners out of view are not handed to the recogniser.
    for c in cands:
        for shown, k in zip(c.index_visible, (0, 2)):
            if shown:
                assert (c.quad[k] >= -1).all() and (c.quad[k] <= hi + 1).all()


@pytest.mark.parametrize("shift", [8.0, 12.0])
def test_outline_off_the_border_is_snapped_onto_it(anglo: cardart.DeckArt, shift: float) -> None:
    """A lone card's outline with one long side `shift` work pixels outside the
    card (a shadow or glare the outline followed): the first polish (4 px) leaves
    it short of the support a card needs; rescue.snap_again puts it on the card.
    Not where a card is found already (a covered card's outline is weak for
    another reason)."""
    from vision.detect import refine, select
    from vision.detect.evidence import gather
    from vision.detect.rescue import snap_again

    img, laid = lay(anglo, [Placement("QH", (640, 480), 20)], kind="dark", seed=0,
                    card_height=440, size=(1280, 960))
    ev = gather(img)
    true = g.order_quad(laid[0].corners * ev.scale)
    q = true.copy()
    side = q[2] - q[1]
    out = np.array([side[1], -side[0]]) / np.linalg.norm(side)
    if np.dot((q[1] + q[2]) / 2 - q.mean(axis=0), out) < 0:
        out = -out
    q[1] += out * shift
    q[2] += out * shift
    weak = select.score_many(ev, [q])[0]
    assert 0.5 <= weak.support < 0.75
    polished = select.score_many(ev, list(g.order_quads(refine.refine_many(ev, q[None]))))[0]
    assert polished.support < 0.75  # why the second look is needed
    found = snap_again(ev, [weak], 0.75, [])
    assert len(found) == 1 and found[0].support >= 0.75
    assert g.iou(found[0].quad, true) >= 0.95
    card = select.score_many(ev, [true])[0]
    assert snap_again(ev, [card, weak], 0.75, []) == []


@pytest.mark.parametrize("kind", ["wood", "dark"])
def test_notepad_beside_a_card_is_no_card(anglo: cardart.DeckArt, kind: str) -> None:
    """A notepad three times a card's size with a printed header at its top: its
    outline is crisp and card-shaped and the header is ink, so it was taken for a
    card, first (the largest), and the ace beside it, a third its size, was then
    dropped as too small to be a card."""
    img, laid = lay(anglo, [Placement("AS", (1000, 520), 8)], kind=kind, seed=0,
                    card_height=360, size=(1280, 960))
    note = cv2.boxPoints(((450, 480), (520, 700), -4)).astype(np.float32)
    cv2.fillPoly(img, [np.rint(note).astype(np.int32)], (232, 236, 238), lineType=cv2.LINE_AA)
    header = np.zeros_like(img)
    cv2.putText(header, "SCHOOL OF LAW", (250, 200), cv2.FONT_HERSHEY_SIMPLEX, 1.3, (255, 255, 255), 3)
    cv2.putText(header, "University of Montana", (250, 245), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                (255, 255, 255), 2)
    header = cv2.warpAffine(header, cv2.getRotationMatrix2D((450, 480), -4, 1.0), (1280, 960))
    img = cv2.GaussianBlur(np.where(header > 0, np.uint8(60), img), (3, 3), 0)
    cands = detect_cards(img, DetectorConfig(with_patches=False))
    assert max((g.iou(c.quad, g.order_quad(laid[0].corners)) for c in cands), default=0.0) >= 0.9
    assert all(g.iou(c.quad, g.order_quad(note)) < 0.2 for c in cands)
