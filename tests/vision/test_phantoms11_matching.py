"""evaluate.match_rendered: a card read from its own index with a loose quad is
that card's sighting, not a card read where none lies; a card laid over the wrong
card stays a phantom; the matching never looks at what was read."""

from __future__ import annotations

from collections.abc import Sequence

from vision.evaluate import RenderedReport, best_matches, match_rendered, tally_scene
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import index_quads
from vision.scene import CardTruth, IndexRegion
from vision.types import CardSighting


def _truth(card: str, corners: Sequence[Sequence[float]], shown: tuple[float, float]) -> CardTruth:
    quad = tuple(tuple(p) for p in corners)
    regions = tuple(IndexRegion(tuple(map(tuple, q.tolist())), v)  # type: ignore[arg-type]
                    for q, v in zip(index_quads(quad), shown))
    return CardTruth(card, False, quad, 1.0, regions)  # type: ignore[arg-type]


def _read(card: str | None, corners: Sequence[Sequence[float]]) -> CardSighting:
    quad = tuple(tuple(map(float, p)) for p in corners)
    if card is None:
        return CardSighting(quad)  # type: ignore[arg-type]
    return CardSighting(quad, False, card, 0.999, card[:-1], card[-1])  # type: ignore[arg-type]


# Calibration decks, seed 30, scene 27: a KH lying whole in view, found by its
# index (indexfind.py) at a guessed size: IoU 0.46 with the card.
KH = [[875, 591], [839, 684], [701, 652], [734, 556]]
KH_FOUND = [[879, 586], [864, 728], [666, 708], [680, 566]]
# Training decks, seed 30, scene 65: a 10S over a 5C; strips.py read the 5C's strip
# and laid a "10S" strip over the 5C too (IoU 0.12 with the 10S).
C5 = [[363, 509], [452, 590], [331, 696], [243, 619]]
S10 = [[347, 462], [422, 555], [280, 642], [205, 554]]
C5_STRIP = [[392, 509], [468, 586], [327, 690], [256, 619]]
S10_STRIP = [[407, 536], [478, 618], [325, 705], [259, 629]]


def test_a_loose_quad_read_from_the_cards_own_index_is_matched() -> None:
    truth = [_truth("KH", KH, (1.0, 1.0))]
    read = [_read("KH", KH_FOUND)]
    assert quad_iou(truth[0].corners, read[0].corners) < 0.5
    assert best_matches([[quad_iou(truth[0].corners, read[0].corners)]], 0.5) == [None]
    assert match_rendered(truth, read) == [0]


def test_what_was_read_does_not_matter() -> None:
    """The same quad read as another card is a wrong reading, not a phantom."""
    truth = [_truth("KH", KH, (1.0, 1.0))]
    read = [_read("QH", KH_FOUND)]
    rep = RenderedReport()
    tally_scene(rep, truth, read, match_rendered(truth, read), "scene 0")
    assert (rep.all.wrong, rep.phantoms) == (1, 0)


def test_a_card_laid_over_the_wrong_card_stays_a_phantom() -> None:
    truth = [_truth("5C", C5, (0.0, 1.0)), _truth("10S", S10, (1.0, 1.0))]
    read = [_read("5C", C5_STRIP), _read("10S", S10_STRIP), _read(None, S10)]
    match = match_rendered(truth, read)
    assert match == [0, 2]
    rep = RenderedReport()
    tally_scene(rep, truth, read, match, "scene 65")
    assert (rep.all.correct, rep.phantoms) == (1, 1)
    assert rep.phantom_examples == ["scene 65: read 10S"]  # (measure.py -v lists it)


def test_a_back_read_as_a_card_is_named_where_it_lies() -> None:
    """measure.py -v lists each back read with its scene, to be traced."""
    quad = tuple(tuple(map(float, p)) for p in KH)
    truth = [CardTruth("KH", True, quad, 1.0, (), "gnome/plastic")]  # type: ignore[arg-type]
    rep = RenderedReport()
    tally_scene(rep, truth, [_read("QS", KH)], [0], "scene 3")
    assert (rep.backs, rep.backs_read) == (1, 1)
    assert rep.back_examples == ["scene 3 (gnome/plastic): back of KH read QS"]


def test_an_unread_sighting_is_never_matched_by_its_index() -> None:
    truth = [_truth("KH", KH, (1.0, 1.0))]
    assert match_rendered(truth, [_read(None, KH_FOUND)]) == [None]


def test_a_covered_index_matches_nothing() -> None:
    truth = [_truth("KH", KH, (0.2, 0.0))]
    assert match_rendered(truth, [_read("KH", KH_FOUND)]) == [None]


# Training decks, seed 31, scene 148: a QH outlined twice, read on one outline
# (IoU 0.57) and not on a part of it turned another way (IoU 0.65).
QH = [[1096, 291], [1032, 345], [968, 277], [1035, 217]]
QH_READ = [[969, 276], [1012, 238], [1066, 317], [1033, 343]]
QH_PART = [[1035, 217], [1074, 264], [1008, 335], [973, 273]]


def test_a_read_sighting_is_matched_before_an_unread_one() -> None:
    truth = [_truth("QH", QH, (1.0, 1.0))]
    read = [_read(None, QH_PART), _read("QH", QH_READ)]
    assert best_matches([[quad_iou(QH, s.corners) for s in read]], 0.5) == [0]
    assert match_rendered(truth, read) == [1]


def test_a_read_sighting_at_the_cards_index_beats_an_unread_outline() -> None:
    """Training decks seed 32 scene 39: a QD read from an end cut of an outline
    round two cards (IoU 0.36, its index corner on the QD's) and an unread outline
    of the QD (IoU 0.59)."""
    qd = [[896, 166], [954, 47], [1115, 126], [1054, 239]]
    cut = [[1110, 125], [1075, 193], [976, 151], [1011, 83]]
    outline = [[1079, 111], [1032, 202], [913, 133], [953, 50]]
    truth = [_truth("QD", qd, (1.0, 1.0))]
    read = [_read("QD", cut), _read(None, outline)]
    assert match_rendered(truth, read) == [0]
    assert match_rendered(truth, [_read("QD", cut)]) == [0]
    assert match_rendered(truth, [_read(None, cut), _read(None, outline)]) == [1]
