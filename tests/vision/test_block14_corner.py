"""Cards partly under a book or a board in phone-like photos (session 14): in a photo
where no card is read (no card size told), an index mark is tried at its own size
where the card's own corner by it is seen (indexcorner.corner_seen, through
indexfind.find_by_index)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import training_photo

from vision.recognize.indexcorner import corner_seen
from vision.recognize.indexfind_marks import IndexMark

STEP = 12.0  # glyph-pip distance (px): the usual card is 10 steps tall, 7.1 wide


def _index_on(paper_box: tuple[float, float, float, float] | None) -> tuple[np.ndarray, IndexMark]:
    """A dark cloth, a glyph over a pip at (100, 100) on white paper spanning
    `paper_box` (left, top, right, bottom, in steps from the pair's middle), or on
    a white sheet filling the photo (None)."""
    rng = np.random.default_rng(0)
    img = np.clip(np.full((300, 300, 3), 60.0) + rng.normal(0, 3, (300, 300, 3)),
                  0, 255).astype(np.uint8)
    mid = np.array([100.0, 100.0])
    if paper_box is None:
        img[:] = 235
    else:
        x0, y0, x1, y1 = (int(mid[i % 2] + v * STEP) for i, v in enumerate(paper_box))
        img[y0:y1, x0:x1] = 235
    gy, py, x = int(mid[1] - 0.5 * STEP), int(mid[1] + 0.5 * STEP), int(mid[0])
    img[gy - 4:gy + 4, x - 3:x + 3] = 20
    img[py - 4:py + 4, x - 4:x + 4] = 20
    return img, IndexMark((float(mid[0]), float(mid[1])), (0.0, 1.0), STEP)


def test_an_index_at_its_cards_corner_shows_the_corner() -> None:
    """The usual deck's corner: paper 0.64 steps left of the index and 1.5 above,
    then the cloth; the card runs 3 steps down (the rest under a block)."""
    img, mark = _index_on((-0.64, -1.5, 5.0, 3.0))
    got = corner_seen(img, mark)
    assert got is not None
    assert got.down == pytest.approx((0.0, 1.0), abs=1e-6)


def test_a_mark_on_a_sheet_shows_no_corner() -> None:
    """Paper all round (a mark in a card's picture, a page's print): no edge."""
    img, mark = _index_on(None)
    assert corner_seen(img, mark) is None


def test_a_mark_far_from_its_papers_edge_shows_no_corner() -> None:
    """The paper's edges 3 steps left and up: farther than a card's corner stands
    from its index."""
    img, mark = _index_on((-3.0, -3.0, 5.0, 5.0))
    assert corner_seen(img, mark) is None


def test_a_books_printed_lines_give_no_cornered_card() -> None:
    """Training decks seed 32, photo 74: a book's page beside an 8S, some 2500
    glyph-like pairs of print; the few whose paper ends as a card's corner would
    read no card at their own size."""
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.indexcorner import cornered_finds
    from vision.recognize.indexfind_marks import index_marks

    spec, image, _ = training_photo(32, 74)
    assert spec.occluded
    marks = index_marks(image)
    assert len(marks) > 1000
    assert cornered_finds(IndexClassifier.load(), image, marks) == []


def test_a_lone_card_under_a_book_is_read_from_its_cornered_index() -> None:
    """Training decks seed 31, photo 23: a JH (gnome/paris) 43% in view, a book's
    page over the rest, the photo's only card: no card read, so no size for
    indexsize and indexown to try its mark at. Its corner is seen (paper 0.4-0.6
    steps left of the index and 1.3-1.4 above, then the carpet) and its tries read
    JH at 1.000; missed before, and no other card is given."""
    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.overlap import quad_iou
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    clf = IndexClassifier.load()
    spec, image, truth = training_photo(31, 23)
    assert spec.occluded
    (card,) = [t for t in truth if t.card == "JH"]
    read = [s for s in without_doubles(read_candidates(clf, image, still_detector(clf)(image)))
            if s.card]
    assert [s.card for s in read] == ["JH"]
    assert quad_iou(read[0].corners, card.corners) > 0.3
