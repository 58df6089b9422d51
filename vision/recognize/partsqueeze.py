"""The squeeze a card's part in view is grown at (partial.py): told by the cards
read, never by the part itself alone.

Why: partial.py grows an unread outline, taken as a card's part in view, to card
proportions at the photo's squeeze (a photo resized on one axis). That squeeze was
told (squeeze_estimate.told_squeeze) by every face-up outline of the photo, the part among
them; in a photo of one card half under a book the part is the only outline, and the
squeeze that turns it into a card's shape (0.6-1.67, anything) was taken for the
photo's. Its cards were then grown to the wrong proportions and read at an index
corner cut askew: rendered phone-like photos of training decks, seed 31, a 4H and
an AH lying alone half under a board (squeezes told 1.45 and 1.67; photos as
taken and at 0.86 x 1) read surely at 1.

What tells it instead: the outlines read as cards (a card read is a card; an
unread outline may be a part, a book, or two cards as one), with their edge
support as told_squeeze weighs it. With none read the squeeze is not told, and
both are tried: 1 and the squeeze all face-up outlines tell (a lone card's outline
left unread may be the whole card, and then its shape tells the photo's squeeze
right: real train photos at 0.8 x 1, IMG_2536's KS and cam_image32's 9H, read
grown at 0.8 only). A squeeze within squeeze.SQUEEZE_BAND is 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def read_squeezes(quads: Sequence[np.ndarray], cands: Sequence[Any],
                  sightings: Sequence[Any]) -> tuple[float, ...]:
    """The squeezes to grow the photo's parts in view at (see module): `quads` are
    the candidates' (4, 2) quads, `sightings` their readings."""
    from vision.detect.squeeze_estimate import told_squeeze

    faces = [i for i, c in enumerate(cands) if not getattr(c, "face_down", False)]
    read = [i for i in faces if sightings[i].card]
    k, _ = told_squeeze([quads[i] for i in read or faces],
                        [getattr(cands[i], "score", 0.0) for i in read or faces])
    told = _banded(k)
    return (told,) if read or told == 1.0 else (1.0, told)


def _banded(k: float | None) -> float:
    """`k`, or 1 when None or within squeeze.SQUEEZE_BAND."""
    from vision.detect.squeeze_estimate import SQUEEZE_BAND

    return 1.0 if k is None or SQUEEZE_BAND[0] <= k <= SQUEEZE_BAND[1] else k
