"""Real train photos: cards cut by the photo's edge read from their part in view
(offframe.py: partial.py grows an outline across the photo's edge; indexfind takes
an index whose card runs off the photo)."""

from __future__ import annotations

from vision_helpers import read_right_on_real_train, real_train_photo


def test_cards_cut_by_the_photos_edge_are_read_from_their_part_in_view() -> None:
    # IMG_2611: the nine and the ace of diamonds run off the photo's right edge,
    # outlined up to it and unread; the two tens stay read
    right = read_right_on_real_train("IMG_2611.JPG")
    assert right.get(0) == "AD" and right.get(1) == "9D"
    assert right.get(3, "").startswith("10") and right.get(4, "").startswith("10")


def test_a_card_index_at_the_photos_corner_is_found_though_its_card_runs_off_it() -> None:
    # IMG_2642's ace of clubs lies mostly beyond the photo's top-left corner: only
    # its far index shows; on_paper counted the column samples beyond the photo as
    # no paper, and no outline was found. (As taken, the find's quad, grown from the
    # index by nominal proportions, holds 0.84 of the label's box, short of
    # evaluate.REAL_INSIDE: read right, not matched; resized 0.8 x 1 it is matched.)
    from vision.recognize.indexfind_marks import index_marks, on_paper
    from vision.recognize.offframe import on_paper_cut

    image = real_train_photo("IMG_2642.JPG")
    ace = [m for m in index_marks(image) if abs(m.middle[0] - 37) < 4 and abs(m.middle[1] - 72) < 4]
    assert ace and on_paper(image, ace[0]) is None and on_paper_cut(image, ace[0]) is not None
    assert read_right_on_real_train("IMG_2642.JPG", 0.8, 1.0).get(1) == "AC"


def test_a_mark_with_its_column_in_the_photo_is_left_to_on_paper() -> None:
    # IMG_2588's king at the right edge: its column lies in the photo and runs into
    # the picture; the photo's edge is no excuse for it
    from vision.recognize.indexfind_marks import index_marks
    from vision.recognize.offframe import on_paper_cut

    image = real_train_photo("IMG_2588.JPG")
    king = [m for m in index_marks(image) if abs(m.middle[0] - 346) < 4 and abs(m.middle[1] - 200) < 4]
    assert king and on_paper_cut(image, king[0]) is None
