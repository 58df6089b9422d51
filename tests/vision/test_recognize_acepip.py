"""vision.recognize.acepip and pipcheck.read_by_ace: an ace's one big middle spade
vouches for AS where the corners read the ace of spades short of the spade bars;
clubs, red pips, blurred or partial pips and every other card give nothing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from vision_helpers import Cand, card_on_table

from vision.recognize import acepip
from vision.recognize.classifier import Calibration, Reading, combine
from vision.recognize.patch import normalize_quad
from vision.recognize.pipcheck import ace_verdict, read_by_ace, read_by_pips

CAL = Calibration(min_prob=0.965, min_prob_pair=0.99, suit_min_prob=(0.945, 0.97, 0.9, 0.985),
                  suit_min_prob_pair=(0.99, 0.99, 0.99, 0.9992))




def r(card: str, rank_p: float, suit_p: float = 1.0, none_p: float = 0.0) -> Reading:
    return Reading(card[:-1], card[-1], min(rank_p, suit_p), rank_p, suit_p, none_p)


def _photo(deck: str, card: str, height: int = 300, blur: float = 0.0, turned: bool = False,
           at: tuple[int, int] = (150, 60)) -> tuple[np.ndarray, tuple]:
    """`card` of `deck` lying upright (or turned 180°) on a green table, and its quad."""
    img, quad = card_on_table(deck, card, np.float32([at] * 4), height, turned)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    return img, quad


@pytest.mark.parametrize("deck", ["gnome/rheinland", "kde/nicu-white", "gnome/ornamental"])
def test_an_aces_middle_spade_is_seen_either_way_up(deck: str) -> None:
    for turned in (False, True):
        img, quad = _photo(deck, "AS", turned=turned)
        assert acepip.ace_suit(img, quad) == "S", (deck, turned)


@pytest.mark.parametrize("deck", ["gnome/anglo", "gnome/dondorf", "kde/dondorf", "gnome/tango",
                                  "gnome/plastic", "gnome/lattmann"])
def test_clubs_and_red_aces_are_never_taken_for_spades(deck: str) -> None:
    for card in ("AC", "AH", "AD"):
        for turned in (False, True):
            img, quad = _photo(deck, card, turned=turned)
            assert acepip.ace_suit(img, quad) is None, (deck, card, turned)


def test_a_blurred_club_whose_lobes_melt_into_a_spade_is_refused() -> None:
    # gnome/dondorf's ace of clubs under a Gaussian blur of 1.5 px passes the shape
    # test (its lobes melt into one outline) at pip sharpness 0.70.
    img, quad = _photo("gnome/dondorf", "AC", height=160, blur=1.5)
    assert acepip.ace_suit(img, quad) is None


def test_a_lopsided_blob_is_no_spade_though_its_ends_look_like_one() -> None:
    # A detector's quad over a card's corner and the table beside it once showed a
    # dark check of the tablecloth, pointed at one end and hollow at the other.
    img, quad = _photo("gnome/rheinland", "AS")
    q = normalize_quad(quad)
    card = acepip.look_upright(img, q, acepip.MIN_PAPER)
    found = acepip._silhouette(card, float(np.linalg.norm(q[3] - q[0])) / acepip.CANON_H)
    assert found is not None
    sil = found[0]
    assert acepip.silhouette_suit(sil) == "S"
    h, w = sil.shape
    sheared = cv2.warpAffine(sil, np.float32([[1, 0.4, 0], [0, 1, 0]]), (w + h, h))
    ys, xs = np.nonzero(sheared)
    sheared = sheared[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()
    (point, _), (stem, _) = sorted(acepip.end_features(sheared))
    assert point <= acepip.CONVEX and stem >= acepip.STEM  # the ends alone say spade
    assert acepip.silhouette_suit(sheared) is None


def test_only_a_plain_ace_shows_one_big_middle_pip() -> None:
    for card in ("2S", "3S", "5S", "KS", "QC", "JS"):
        img, quad = _photo("gnome/rheinland", card)
        assert acepip.ace_suit(img, quad) is None, card


def test_a_pip_reaching_out_of_the_frame_is_not_read() -> None:
    img, quad = _photo("gnome/rheinland", "AS")
    assert acepip.ace_suit(img, quad) == "S"
    q = np.asarray(quad, np.float32)
    cut = img[:, :int(q[:, 0].mean())].copy()  # the frame ends at the card's middle
    assert acepip.ace_suit(cut, quad) is None
    # The warp fills what lies off the frame with the edge's pixels: the pip's box
    # itself (canonical pixels) must map into the frame.
    box = (30, 50, 40, 40)
    assert acepip._in_frame(box, normalize_quad(quad), img.shape)
    assert not acepip._in_frame(box, normalize_quad(quad), cut.shape)


def test_the_corners_must_read_the_ace_of_spades_surely_but_for_the_suit() -> None:
    # A real photo's Bicycle ace of spades: "AS 0.989 | AS 0.692", rank sure.
    corners = [r("AS", 0.999, 0.989), r("AS", 0.999, 0.692)]
    assert combine(corners, CAL).card is None
    assert ace_verdict(corners, CAL) == pytest.approx(0.999999, abs=1e-5)
    assert ace_verdict([r("AS", 0.999, 0.47)], CAL) is None  # a lone corner leaning away
    assert ace_verdict([r("AS", 0.95, 0.9)], CAL) is None  # the rank short of its bar
    assert ace_verdict([r("AS", 0.999, 0.9), r("AC", 0.999, 0.9)], CAL) is None
    assert ace_verdict([r("AS", 0.999, 0.9), r("4S", 0.3)], CAL) is None
    assert ace_verdict([r("AC", 0.999, 0.9)], CAL) is None  # clubs: the network's own
    assert ace_verdict([r("AS", 0.999, 0.9, none_p=0.5)], CAL) is None


def test_the_reader_path_gives_the_ace_only_for_an_uncovered_card() -> None:
    img, quad = _photo("gnome/rheinland", "AS")
    corners = [r("AS", 0.999, 0.95), r("AS", 0.998, 0.9)]
    got = read_by_pips(img, Cand(quad), corners, CAL)
    assert got is not None and got.card == "AS" and got.rank == "A" and got.suit == "S"
    assert read_by_ace(img, Cand(quad, visible=0.9), corners, CAL) is None
    assert read_by_ace(img, Cand(quad, index_visible=(True, False)), corners, CAL) is None
    assert read_by_ace(img, Cand(quad, face_down=True), corners, CAL) is None
    club, cq = _photo("gnome/rheinland", "AC")
    assert read_by_pips(club, Cand(cq), corners, CAL) is None


@pytest.mark.parametrize("name", ["IMG_2434.JPG", "IMG_2614.JPG", "cam_image41.jpg",
                                  "cam_image48.jpg"])
def test_real_bicycle_aces_of_spades_left_unread_by_the_network_are_read(name: str) -> None:
    """Bicycle's engraved ace of spades lying alone (IMG_2614's top corner off the
    frame, cam_image48 a dim photo under warm light): the network reads "AS" under
    the spade bars; the pip vouches."""
    from vision.evaluate import REAL_PHOTOS, match_real, real_labels
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import read_candidates, still_detector

    path = REAL_PHOTOS / "images" / "train" / name
    if not path.is_file():
        pytest.skip("real photos not available")
    clf = IndexClassifier.load()
    img = load_image(path)
    labels = real_labels(REAL_PHOTOS, "train")[name]
    sightings = read_candidates(clf, img, still_detector(clf)(img))
    match = match_real([b for _, b in labels], [s.corners for s in sightings])
    aces = [sightings[j].card for (rank, _), j in zip(labels, match)
            if rank == "A" and j is not None]
    assert "AS" in aces
