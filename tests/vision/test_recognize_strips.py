"""vision.recognize.strips (and stripgeom): the cards of a row, each partly under the next, read
from the strip of them in view, beside the cards found; never a card read already,
never a card's own index read from a guess beside it."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detect import CardCandidate
from vision.recognize.classifier import DEFAULT_MODEL, Calibration, IndexClassifier, Reading
from vision.recognize.stripgeom import gradients, row_ends, strip_quads
from vision.recognize.strips import find_strips


def _rect(x0: float, y0: float, w: float, h: float) -> np.ndarray:
    return np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h)], np.float32)


def test_a_rows_outline_gives_a_card_of_card_shape_at_each_end() -> None:
    ends = row_ends(_rect(10, 20, 250, 100))  # three 71 x 100 cards in a row
    assert len(ends) == 2
    xs = sorted((float(e[:, 0].min()), float(e[:, 0].max())) for e in ends)
    assert xs[0] == pytest.approx((10, 10 + 100 / 1.4), abs=0.5)
    assert xs[1] == pytest.approx((260 - 100 / 1.4, 260), abs=0.5)
    # A near-square outline: which way the row runs is not told, so both ways.
    assert len(row_ends(_rect(0, 0, 100, 100))) == 4


def _table_with_strip() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A dark table, a white card (the one found) and, left of it, the 30 px strip
    of a card of its size lying under it: (image, found card, strip card)."""
    img = np.full((240, 320, 3), 40, np.uint8)
    card, strip = _rect(130, 60, 70, 100), _rect(100, 60, 70, 100)
    img[60:160, 100:200] = 235
    img[60:160, 129:131] = 180  # the seam where the found card lies on the strip
    return img, card, strip


def test_the_strips_far_side_is_found_as_an_edge() -> None:
    img, card, strip = _table_with_strip()
    gx, gy = gradients(img)
    found = strip_quads(card, -1, gx, gy)
    assert found, "no strip beside the card"
    q, corner, _, shift = found[0]  # the strongest edge: the strip's left side
    assert corner == 0  # the strip shows its top-left index
    assert shift == pytest.approx(30 / 70, abs=0.03)
    assert np.abs(q - strip).max() < 3


class _Scripted:
    """A stand-in recogniser: a patch reads as `card` when it is bright enough on
    its left third (a strip's index against the table has paper there), else "not
    an index"; the found card's own patches read `own`."""

    deck = None

    def __init__(self, card: str, own: str | None) -> None:
        self.calibration = Calibration(min_prob=0.9, min_prob_pair=0.99)
        self.card, self.own = card, own
        self.seen: list[int] = []

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        self.seen.append(len(patches))
        out = []
        for p in patches:
            name = self.own if getattr(p, "own", False) else (
                self.card if p[:, : p.shape[1] // 3].mean() > 200 else None)
            out.append(Reading(name[:-1], name[-1], 0.999, 0.999, 0.999, 0.0) if name
                       else Reading(None, None, 0.0, 0.0, 0.0, 1.0))
        return out


class _Own(np.ndarray):
    own = True


def _candidate(card: np.ndarray, img: np.ndarray) -> CardCandidate:
    from vision.recognize.patch import extract_index_patches

    patches = tuple(p.view(_Own) for p in extract_index_patches(img, card))
    return CardCandidate(tuple(map(tuple, card.tolist())), index_patches=patches,
                         patch_corners=(0, 2), score=1.0)


def test_a_strip_beside_a_card_found_is_reported_as_a_card_read_at_one_corner() -> None:
    img, card, strip = _table_with_strip()
    clf = _Scripted("QH", own="9S")
    out = find_strips(clf, img, [_candidate(card, img)])
    assert len(out) == 2
    new = out[1]
    assert new.index_visible == (True, False) and new.patch_corners == (0,)
    assert len(new.index_patches) == 1 and new.visible < 0.5 and not new.face_down
    assert np.abs(np.asarray(new.corners) - strip).max() < 3


def test_a_strip_repeating_a_card_read_already_is_none() -> None:
    img, card, _ = _table_with_strip()
    clf = _Scripted("9S", own="9S")  # one deck: the 9S lies there already
    assert len(find_strips(clf, img, [_candidate(card, img)])) == 1


def test_an_enrolled_deck_or_no_candidate_is_left_alone() -> None:
    img, card, _ = _table_with_strip()
    clf = _Scripted("QH", own="9S")
    assert find_strips(clf, img, []) == []
    clf.deck = "some/deck"  # type: ignore[assignment]
    assert len(find_strips(clf, img, [_candidate(card, img)])) == 1
    assert clf.seen == []


needs_model = pytest.mark.skipif(not DEFAULT_MODEL.is_file(), reason="no model (make model)")


@needs_model
def test_rendered_rows_read_more_cards_none_wrong() -> None:
    """Hand-laid rows of four (each card a third over the last, later on top): the
    detector finds the row's top card or its outline; the strips read more of them,
    each where the card truly lies, and none wrong."""
    import cv2

    from vision.detect import detect_cards
    from vision.evaluate import best_matches
    from vision.recognize.overlap import quad_iou
    from vision.recognize.reader import read_candidates
    from vision.recognize.unions import split_unions
    from vision.scene import SceneRenderer
    from vision.scene.game import game_specs, row

    cv2.setNumThreads(1)
    clf = IndexClassifier.load()
    renderer = SceneRenderer()
    before = after = 0
    for deck, step in (("gnome/anglo", 30), ("gnome/anglo", 40), ("gnome/bellot", 22),
                       ("gnome/paris", 40)):
        spec = game_specs([row(["9H", "KS", "QD", "10C"], deck, step_mm=step)], jitter=0)[0]
        image, truth = renderer.render(spec, np.random.default_rng(0))
        found = split_unions(clf, image, detect_cards(image))
        for cands, was in ((found, True), (find_strips(clf, image, found), False)):
            read = read_candidates(clf, image, cands)
            match = best_matches([[quad_iou(t.corners, c.corners) for c in cands]
                                  for t in truth], 0.5)
            assert not any(s.card for j, s in enumerate(read) if j not in match), "phantom"
            for t, j in zip(truth, match):
                got = read[j].card if j is not None else None
                assert got in (None, t.card), (deck, step, t.card, got)
                if was:
                    before += got is not None
                else:
                    after += got is not None
    assert after >= before + 6, (before, after)


@needs_model
def test_real_rows_strip_cards_read_right() -> None:
    """Real train photos of rows (IMG_2648: A over 10 over Q; IMG_2667: 10 over A):
    the cards under the top one, which nothing else finds, read right from their
    strips, each holding the labelled strip."""
    from vision.evaluate import REAL_PHOTOS, match_real, real_labels
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_candidates, still_detector

    if not (REAL_PHOTOS / "images" / "train").is_dir():
        pytest.skip(f"real photos not found at {REAL_PHOTOS}")
    clf = IndexClassifier.load()
    labels = real_labels(REAL_PHOTOS, "train")
    for name, ranks in (("IMG_2648.JPG", {"10"}), ("IMG_2667.JPG", {"A", "10"})):
        image = load_image(REAL_PHOTOS / "images" / "train" / name)
        read = read_candidates(clf, image, still_detector(clf)(image))
        match = match_real([box for _, box in labels[name]], [s.corners for s in read])
        got = {rank: read[j].card for (rank, _), j in zip(labels[name], match)
               if j is not None and read[j].card}
        for rank in ranks:
            assert got.get(rank, "")[:-1] == rank, (name, got)
        assert all(card[:-1] == rank for rank, card in got.items()), (name, got)


class _Looks:
    """A recogniser whose every look at a strip card's index reads `card`."""

    def __init__(self, card: str | None, p: float = 0.79) -> None:
        self.calibration = Calibration(min_prob=0.9, disagree_prob=0.5)
        self.card, self.p = card, p

    def classify(self, patches: list[np.ndarray]) -> list[Reading]:
        if self.card is None:
            return [Reading(None, None, 0.0, 0.0, 0.0, 1.0) for _ in patches]
        return [Reading(self.card[:-1], self.card[-1], self.p, self.p, self.p, 0.0)
                for _ in patches]


def test_a_strip_card_whose_index_cut_a_little_further_reads_another_card_is_none() -> None:
    """The strip card's place along the row is a guess: its index is cut again 4%
    of a width either way, and where a cut names another card more surely than
    `disagree_prob` the index is not read (IMG_2650 at 1.2 x 1: a queen's index
    cut across the jack's edge read KH at 0.997, 4% further on QH at 0.79)."""
    from vision.recognize.classifier import CardReading
    from vision.recognize.strips import Strip, _steady

    img = np.full((300, 300, 3), 200, np.uint8)
    s = Strip(_rect(100, 60, 63, 88), 2, 0, 1)
    kh = CardReading("KH", 0.997, "K", "H")
    assert _steady(_Looks("QH"), img, [(s, kh)]) == []
    assert _steady(_Looks("KH"), img, [(s, kh)]) == [(s, kh)]
    assert _steady(_Looks(None), img, [(s, kh)]) == [(s, kh)]  # (no index there)
    assert _steady(_Looks("QH", 0.4), img, [(s, kh)]) == [(s, kh)]  # (unsure)
