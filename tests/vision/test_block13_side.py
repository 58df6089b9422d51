"""Cards partly under a book or a board in phone-like photos (session 13): a corner
index in view whose card's side lies under a block, so that its top margin stops
at the block's edge (indexfind_side.on_paper_side, through
indexfind_blocked.on_paper_blocked)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_helpers import training_photo

from vision.recognize.indexfind_blocked import on_paper_blocked
from vision.recognize.indexfind_marks import IndexMark, on_paper
from vision.recognize.indexfind_side import on_paper_side

STEP = 12.0  # glyph-pip distance (px): the card is 10 steps tall, 7.1 wide


def _card_side_covered(paper_right: float, block: bool) -> tuple[np.ndarray, IndexMark]:
    """A dark cloth, an upright white card whose index (a glyph over a pip) stands
    at its top-left, white across to `paper_right` steps right of the index's
    middle; past that a striped board (`block`) or the cloth (the card ends)."""
    rng = np.random.default_rng(0)
    img = np.clip(np.full((300, 300, 3), 60.0) + rng.normal(0, 3, (300, 300, 3)),
                  0, 255).astype(np.uint8)
    mid = np.array([60.0, 60.0])
    x0, y0 = int(mid[0] - 0.64 * STEP), int(mid[1] - 1.5 * STEP)
    x1, y1 = int(mid[0] + paper_right * STEP), int(y0 + 10 * STEP)
    img[y0:y1, x0:x1] = 235
    img[int(mid[1] - 0.5 * STEP) - 4:int(mid[1] - 0.5 * STEP) + 4, int(mid[0]) - 3:int(mid[0]) + 3] = 20
    img[int(mid[1] + 0.5 * STEP) - 4:int(mid[1] + 0.5 * STEP) + 4, int(mid[0]) - 4:int(mid[0]) + 4] = 20
    if block:
        board = np.full((300, 300 - x1, 3), (60, 120, 190), np.uint8)
        board[::6, :] = (20, 40, 60)
        img[:, x1:] = board
    return img, IndexMark((float(mid[0]), float(mid[1])), (0.0, 1.0), STEP)


def test_a_card_whose_side_is_under_a_board_keeps_its_index() -> None:
    """Paper 1.5 steps right of the index, then a board down the card's length:
    on_paper refuses the mark (its top margin runs onto the board), the blocked
    test takes it, upright."""
    img, mark = _card_side_covered(1.5, block=True)
    assert on_paper(img, mark) is None
    got = on_paper_blocked(img, mark)
    assert got is not None
    assert got.down == pytest.approx((0.0, 1.0), abs=1e-6)


def test_a_narrow_card_on_the_table_is_not_taken() -> None:
    """The same card ending on the cloth 1.5 steps right of its index (a mark
    guessed too big runs off its card): no object beyond, refused."""
    img, mark = _card_side_covered(1.5, block=False)
    assert on_paper(img, mark) is None
    assert on_paper_side(img, mark) is None


def test_a_sliver_of_a_card_is_not_taken() -> None:
    """A board right at the index (paper to 0.3 steps past its middle): refused."""
    img, mark = _card_side_covered(0.3, block=True)
    assert on_paper_side(img, mark) is None


def test_a_books_printed_lines_give_no_side_blocked_index() -> None:
    """Training decks seed 32, photo 74: a book's page beside an 8S, whose printed
    lines make some 2500 glyph-like pairs, many with a paper column; the page
    beside them is no table, and none is taken."""
    from vision.recognize.indexfind_marks import index_marks

    spec, image, _ = training_photo(32, 74)
    assert spec.occluded
    marks = index_marks(image)
    assert len(marks) > 1000
    assert not [m for m in marks if on_paper_side(image, m)]


@pytest.fixture(scope="module")
def clf():  # type: ignore[no-untyped-def]
    from vision.recognize.classifier import IndexClassifier

    return IndexClassifier.load()


def test_a_card_under_a_block_over_its_side_is_read(clf) -> None:  # type: ignore[no-untyped-def]
    """Training decks seed 32, photo 5: a 7C, its right side and far end under a
    plain block, its index column paper, its top margin stopping at the block
    2.2 steps right of the index; read surely at all three sizes, refused by both
    paper tests before."""
    from vision.recognize.overlap import quad_iou
    from vision.recognize.reader import read_candidates, still_detector, without_doubles

    spec, image, truth = training_photo(32, 5)
    assert spec.occluded
    (card,) = [t for t in truth if t.card == "7C"]
    read = [s for s in without_doubles(read_candidates(clf, image, still_detector(clf)(image)))
            if s.card]
    got = [s for s in read if s.card == "7C"]
    assert len(got) == 1 and quad_iou(got[0].corners, card.corners) > 0.5
    assert all(s.card in {t.card for t in truth} for s in read)
