"""A card read from one corner of an outline that is no card's shape: two cards, not one.

Why: a card lying whole in view, nothing on it, shows its index at both ends of
its diagonal. An outline the detector drew round two cards, one partly over the
other and both turned alike, also has two index corners, but they are corners of
two different cards: one may show the index of the card beneath, the other that
card's blank corner or the other card's face. The one index read passes the
single-corner bars, and the card it names is given for an outline that matches
the other card as well as it (IoU about 0.6 with each): the sweep of session 10
found 7 such wrong cards (rendered training decks: 10S read 9H, JC read 10S, 10D
read 9C, 10S read AH; real train photos stretched 1 x 1.2: K read AC, 10 read
KC, J read 9H), each an outline near square once the frame's squeeze is undone,
while the cards of a frame are oblong (1.4). The same outline round two cards
laid nearly on top of each other is what the held-out classes "an outline matched
to the wrong card" look like.

So a card given from one corner alone is not given when the card is seen whole
(the detector's `visible`, both index corners in view, inside the frame), the
other corner does not name its rank, and the outline is shorter than a card (long
over short side under SHORTER_THAN_A_CARD) both as it is and unsqueezed by the
squeeze the frame's other cards show (unions.frame_squeezes). A card whose
corners both name it, or that is partly covered (its other corner may be under a
card), or whose pips vouched for it, is left alone; so is a card no other card
of the photo tells the squeeze for (a lone card may be a squeezed photo's or
seen steeply: real train photos IMG_2475, cam_image13). Fewer than FIRM_SQUEEZE
other cards, themselves slanted, tell a squeeze only roughly (real train photos
at 0.8 x 1: single cards of 1.42-1.75 as they are, near square at the squeeze
told, were lost), so the outline must then be short both as it is and
unsqueezed; more tell it well (rendered training decks, seed 25: an outline
round 3H and JH, 1.47 as it is, near square at the squeeze its seven cards
told, the camera tilted 35°). Real photos shot steeply still show single cards
near square (1.05-1.19: IMG_2450, 2657), which this costs. It costs a few
arithmetic operations a card read from one corner; the live pipeline runs it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from vision.recognize.patch import normalize_quad
from vision.recognize.readings import CardReading, Reading

#: Share of the card that must be seen (the detector's `visible`) for its second
#: corner's silence to count against it (as turn.py and unions.py).
MIN_VISIBLE = 0.97
#: An outline whose long over short side, unsqueezed, is under this is no card's
#: shape (unions.LOOKS_LIKE_A_CARD's low end; a card is 1.4).
SHORTER_THAN_A_CARD = 1.25
#: Other cards of sure outline that tell the frame's squeeze firmly: the outline is
#: then judged at that squeeze alone, else both as it is and at the squeeze told.
FIRM_SQUEEZE = 3


def _side_ratio(quad: np.ndarray, squeeze: float) -> float:
    """Long over short side (means of opposite sides) of `quad` once the frame's
    height is divided by `squeeze`."""
    q = normalize_quad(quad) / np.array([1.0, squeeze], np.float32)
    a = 0.5 * (np.hypot(*(q[1] - q[0])) + np.hypot(*(q[2] - q[3])))
    b = 0.5 * (np.hypot(*(q[3] - q[0])) + np.hypot(*(q[2] - q[1])))
    return float(max(a, b) / max(min(a, b), 1e-6))


def read_at_one_corner(card: CardReading, readings: Sequence[Reading]) -> bool:
    """Do exactly one of two corner readings name the card's rank?"""
    if card.card is None or len(readings) != 2:
        return False
    return sum(r.rank == card.rank for r in readings) == 1


def seen_whole(cand: Any, shape: tuple[int, ...]) -> bool:
    """Is `cand` face up, MIN_VISIBLE of it seen, both index corners in view and
    its quad inside the frame?"""
    return not getattr(cand, "face_down", False) and lies_whole(cand, shape)


def lies_whole(cand: Any, shape: tuple[int, ...]) -> bool:
    """Is MIN_VISIBLE of `cand` seen, both its index corners in view and its quad
    inside the frame (face up or not)?"""
    if float(getattr(cand, "visible", 1.0)) < MIN_VISIBLE:
        return False
    if not all(getattr(cand, "index_visible", (True, True))):
        return False
    q = np.asarray(cand.corners, np.float32).reshape(4, 2)
    h, w = shape[:2]
    return bool(q.min() >= 0 and q[:, 0].max() <= w - 1 and q[:, 1].max() <= h - 1)


def two_cards_in_one(cands: Sequence[Any], i: int, card: CardReading,
                     readings: Sequence[Reading], shape: tuple[int, ...]) -> bool:
    """Is cands[i], read as `card` from `readings` (its two corners), an outline
    round two cards read at one corner (see module)?"""
    if not read_at_one_corner(card, readings) or not seen_whole(cands[i], shape):
        return False
    from vision.recognize.unions import GUESSED_SQUEEZES, frame_squeezes

    squeezes = frame_squeezes(cands, i)
    if squeezes == GUESSED_SQUEEZES:
        return False  # (no other card tells the photo's squeeze: a lone card may be squeezed)
    quad = np.asarray(cands[i].corners, np.float32).reshape(4, 2)
    if _telling(cands, i) >= FIRM_SQUEEZE:
        squeezes = squeezes[-1:]  # (told firmly: the frame's squeeze alone)
    return all(_side_ratio(quad, k) < SHORTER_THAN_A_CARD for k in squeezes)


def _telling(cands: Sequence[Any], i: int) -> int:
    """How many face-up candidates other than cands[i] tell the frame's squeeze
    (edge support squeeze.TELLING_SUPPORT)?"""
    from vision.detect.squeeze_estimate import TELLING_SUPPORT

    return sum(1 for j, c in enumerate(cands) if j != i and not getattr(c, "face_down", False)
               and float(getattr(c, "score", 0.0)) >= TELLING_SUPPORT)
