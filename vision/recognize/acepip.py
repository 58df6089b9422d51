"""An ace's one big middle pip as a witness for the black suit its corners show.

Why: the network reads an ace's rank surely but its suit often under the bars, and
the black suits worst: the spade bars are steep (index.json: 0.985 one corner,
0.9992 pooled) because an unfamiliar deck's clubs are read as spades with near
certainty, and an ornate ace of spades (Bicycle's engraved spade) is just the
unfamiliar print that keeps the network unsure ("AS 0.99 | AS 0.69"). pips.py
counts number cards only (2..10), so an ace never had a second witness. Yet an ace
prints its suit a second time, large, alone in the middle: a spade is one point
over two lobes and a stem, a club three round lobes over a stem. Telling the two
apart from that silhouette shares nothing with the network: other pixels, no
learning.

How: the card is warped upright (upright.py's canonical warp and paper level); the
ink of its middle (clear of the index columns, looser than pips.py's so that an
engraved spade's fine lines join into one silhouette) must hold one dark,
not-warm component centred on the card, big and uncut, nothing else of pip size;
its holes are filled, and it must be mirror-symmetric about the card's long axis
as every suit pip is. Along the card's long axis each row's width is compared with
the silhouette's convex hull there (the hollow). A spade is convex over the half
nearest its point, which is narrow, and hollow beside its stem at the other end; a
club is hollow from both ends (the necks between its lobes, its stem); which end
is the top need not be known, so a card upside down reads alike. Anything else
(a court picture, an ornament joined to the pip, blur that melts a club's lobes,
a red pip) gives None.

Only spades are given: a club's lobes cannot be told from the onion-shaped spade of
some decks (gnome/plastic) by these hollows, and the network's suit mistakes run
the other way (clubs read as spades), so "club" would witness little. The caller
(pipcheck.read_by_ace) gives AS only when the corners agree on the rank A (passing
the rank bars) and lean to spades themselves: two witnesses.

Figures (2026-11-30; `ace_suit` on whole face-up aces, four to a scene, rendered
with effects; "wrong" = S for any card not a spade, covered cards and detector
phantoms included):

- developed on (bars read off these): training decks true quads 150 scenes seed
  101: spades 48 of 95 given, 0 wrong of 309 clubs and red aces; detected quads
  seed 102: 52 of 98, 0 wrong of 291; calibration decks (true 103, detected 104):
  0 of 128 spades given (gnome/plastic prints an onion-shaped spade, hollow below
  its point; gnome/simplistic's pip is under MIN_WIDTH), 0 wrong of 405. Every
  deck's AC/AS alone at 90-300 px, upright and turned, Gaussian blur 0-2.5 px:
  278 of 1200 spades, 0 of 1200 clubs (three blurred dondorf clubs were spades
  before MIN_SHARPNESS). All 52 cards, detected quads seed 105 and true quads
  seed 107 (100 scenes each), calibration decks true quads seed 106 (60): no
  card but an ace of spades ever read as one. Real photos images/train (detected
  quads; by eye): 15 of the 19 aces of spades matched read "S" (refused:
  cam_image18 at 0.036 over CONVEX, three with no clean silhouette), all 19 aces
  of clubs None.
- held-out decks, measured at the end: seeds 201/202 (true/detected quads) showed
  one "spade" that was a dark tablecloth check seen through a detector's quad over
  an ace of clubs' corner and the table (not a reading: that quad showed no index),
  hence MIN_MIRROR (development sets unchanged by it); then fresh seeds, never
  tuned on: true quads 203: 28 of 107 spades, 0 wrong of 301 other aces; detected
  204: 17 of 91, 0 wrong of 302; all 52 cards detected 205 (150 scenes): 0 wrong,
  no phantom.
- Time: 3.6 ms a card (median, one thread; called only for cards whose corners
  read the ace of spades short of the spade bars: 5 of 296 real train photos).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision.recognize import pipclean
from vision.recognize.patch import AMBIGUOUS_ASPECT, mean_aspect, normalize_quad
from vision.recognize.pips import INDEX_COLUMN
from vision.recognize.upright import CANON_H, CANON_W, look_upright

_CANON = np.array([[0, 0], [CANON_W, 0], [CANON_W, CANON_H], [0, CANON_H]], np.float32)

#: A pixel is ink when it lies this share or more below the paper level (the pip
#: counter's ink, upright.ink_mask, uses 0.38: an engraved spade's hatching is
#: lighter than a printed pip).
INK_DEPTH = 0.25

#: Least paper level (median of the card's darkest channel, upright.look_upright): lower than
#: the pip counter's 90, as the corners must already read an ace (not a back, not a
#: dark object) and ink is judged against the paper round it; a dim real photo's
#: Bicycle ace of spades (cam_image48, warm light) lies at 81.
MIN_PAPER = 60.0

#: The middle field searched for the pip (fractions of width / height).
FIELD_X = (INDEX_COLUMN, 1.0 - INDEX_COLUMN)
FIELD_Y = (0.12, 0.88)

#: The pip's centre must lie this near the card's centre (fraction of width, height).
CENTRE_TOL = 0.1

#: Least pip width (fraction of the card's width): an ace's middle pip is large;
#: a small one (and an index's suit sign) is left to the network.
MIN_WIDTH = 0.22

#: Least pip height in image pixels: small pips blur a club's lobes into a spade.
MIN_PIP_PX = 24.0

#: Least edge sharpness of the pip (pipclean.sharpness: steepest edge over depth):
#: blur melts a club's lobes into a spade's outline: rendered aces of clubs blurred
#: by a Gaussian of 1.5-2.5 px passed the shape test below at sharpness 0.61-0.70
#: (gnome/dondorf, kde/dondorf); the real photos' spades lie at 1.13-1.75.
MIN_SHARPNESS = 0.9

#: Other ink components must be smaller than this share of the pip's area (text and
#: specks are allowed; a second pip-sized shape means this is not a plain ace).
MAX_OTHER = 0.25

#: The silhouette's rows are read at this many times the canonical size.
_ZOOM = 4

#: Hollow (hull minus silhouette, over the pip's area) of the band from an end's
#: BAND_FROM to BAND_TO of the pip's height. A spade's point half stays at or under
#: CONVEX (rendered training decks' spades 0.003-0.026, one gnome/lattmann 0.043;
#: real photos 0.010-0.036), its stem end reaches STEM (0.053 and up). A club is
#: hollow from both ends (its least end: rendered 0.041 and up, gnome/dondorf;
#: real photos 0.075 and up).
BAND_FROM, BAND_TO = 0.06, 0.5
CONVEX = 0.03
STEM = 0.05

#: A spade's point: the width at POINT_AT of the height from that end, over the
#: widest row, stays under POINTED (a club's top lobe is round and broad).
POINT_AT, POINTED = 0.1, 0.36

#: Least mirror symmetry (`mirror`) of the pip: the spades given in the development
#: sets below lie at 0.80 and up (real photos 0.80-0.97, rendered 0.81 and up); a
#: detector's quad over an ace of clubs' corner and the table beside it, on a
#: held-out scene, showed a dark check of the tablecloth at 0.58 as a "spade".
MIN_MIRROR = 0.75

_CLOSE = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


def ace_suit(image: np.ndarray, quad: Sequence[Sequence[float]] | np.ndarray) -> str | None:
    """"S" when the card `quad` in the BGR `image` shows one big, sharp, black
    spade in its middle (see module), else None. Near-square quads are tried both
    ways and must agree."""
    q = normalize_quad(quad)
    tries = [q] if mean_aspect(q) >= AMBIGUOUS_ASPECT else [q, q[[1, 2, 3, 0]]]
    got = {_suit(image, t) for t in tries}
    return got.pop() if len(got) == 1 else None


def _suit(image: np.ndarray, q: np.ndarray) -> str | None:
    """ace_suit for the normalised quad `q` (first edge the card's short one)."""
    card = look_upright(image, q, MIN_PAPER)
    if card is None:
        return None
    found = _silhouette(card, float(np.linalg.norm(q[3] - q[0])) / CANON_H)
    if found is None or not _in_frame(found[1], q, image.shape):
        return None
    return silhouette_suit(found[0])


def _in_frame(box: tuple[int, int, int, int], q: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Does the pip's box (x, y, w, h, canonical pixels) lie in the image? Why: a card
    may stick out of the frame (only its middle is read), and the warp fills what
    lies outside with the edge's pixels, which must not be taken for the pip."""
    x, y, w, h = box
    corners = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32).reshape(-1, 1, 2)
    to_image = cv2.getPerspectiveTransform(_CANON, q.astype(np.float32))
    pts = cv2.perspectiveTransform(corners, to_image).reshape(-1, 2)
    return bool(pts.min() >= 0 and pts[:, 0].max() <= shape[1] - 1
                and pts[:, 1].max() <= shape[0] - 1)


def pip_soft(image: np.ndarray, quad: Sequence[Sequence[float]] | np.ndarray
             ) -> np.ndarray | None:
    """The ace's middle pip as soft ink (share below paper, 0 off the pip; canonical
    pixels, upright card) for the pip network (pipnet.py), or None unless the middle
    holds one dark, centred, uncut pip of at least MIN_NET_PX image pixels in the
    frame. Looser than `ace_suit` (no sharpness or width bar: the network was
    trained on blurred and small pips); near-square quads are not tried both ways
    (the caller's corners must already read an ace)."""
    q = normalize_quad(quad)
    card = look_upright(image, q, MIN_PAPER)
    if card is None:
        return None
    scale = float(np.linalg.norm(q[3] - q[0])) / CANON_H
    found = _component(card, scale, strict=False)
    if found is None or not _in_frame(found[2], q, image.shape):
        return None
    return found[1]


#: Least pip height in image pixels for the network's look (pip_soft): number
#: cards' pips it was trained on are 8-22 canonical pixels on 75-300 px cards.
MIN_NET_PX = 12.0


def _component(card: object, scale: float, strict: bool = True
               ) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]] | None:
    """(labels == own mask cropped, the pip's soft ink cropped, its box x, y, w, h in
    canonical pixels) for the one dark, centred, uncut, not-red pip of the middle,
    or None. `strict`: also big (MIN_WIDTH, MIN_PIP_PX) and sharp (MIN_SHARPNESS),
    as the silhouette's shape test needs."""
    depth = 1.0 - card.dark / card.paper  # type: ignore[attr-defined]
    x0, x1 = int(FIELD_X[0] * CANON_W), int(FIELD_X[1] * CANON_W)
    y0, y1 = int(FIELD_Y[0] * CANON_H), int(FIELD_Y[1] * CANON_H)
    ink = np.zeros(depth.shape, np.uint8)
    ink[y0:y1, x0:x1] = depth[y0:y1, x0:x1] >= INK_DEPTH
    ink = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, _CLOSE)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if n < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    k = int(np.argmax(areas)) + 1
    x, y, w, h, area = (int(v) for v in stats[k])
    cx, cy = cents[k] / (CANON_W, CANON_H)
    if abs(cx - 0.5) > CENTRE_TOL or abs(cy - 0.5) > CENTRE_TOL:
        return None
    if strict and (w < MIN_WIDTH * CANON_W or h * scale < MIN_PIP_PX):
        return None
    if not strict and h * scale < MIN_NET_PX:
        return None
    if x <= x0 or y <= y0 or x + w >= x1 or y + h >= y1:  # cut by the field: not whole
        return None
    if np.any(np.delete(areas, k - 1) >= MAX_OTHER * area):
        return None
    red, _, _ = pipclean.pip_colours(card.bgr, labels, np.array([k]))  # type: ignore
    if red is not False:
        return None
    if strict:
        sharp = pipclean.sharpness(card, pipclean.edges(card), labels, stats[[k]],
                                   np.array([k]))
        if sharp < MIN_SHARPNESS:
            return None
    own = (labels[y:y + h, x:x + w] == k).astype(np.uint8)
    soft = depth[y:y + h, x:x + w].astype(np.float32) * cv2.dilate(own, _CLOSE)
    return own, soft, (x, y, w, h)


def _silhouette(card: object, scale: float
                ) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """(the middle pip's filled silhouette: uint8 0/1, canonical size x _ZOOM, cropped
    to it; its box x, y, w, h in canonical pixels), or None unless the middle holds
    one dark, centred, big, sharp, uncut pip. `scale`: image pixels per canonical
    pixel."""
    found = _component(card, scale)
    if found is None:
        return None
    _, soft, (x, y, w, h) = found
    big = cv2.resize(soft, (w * _ZOOM, h * _ZOOM), interpolation=cv2.INTER_LINEAR)
    shape = (big >= INK_DEPTH).astype(np.uint8)
    contours, _ = cv2.findContours(shape, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    outline = max(contours, key=cv2.contourArea)
    filled = np.zeros_like(shape)
    cv2.drawContours(filled, [outline], -1, 1, -1)
    bx, by, bw, bh = cv2.boundingRect(outline)
    return filled[by:by + bh, bx:bx + bw], (x, y, w, h)


def profile(sil: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(width of each row, hollow of each row: its convex hull's width minus its own)."""
    contours, _ = cv2.findContours(sil, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = np.zeros_like(sil)
    cv2.fillConvexPoly(hull, cv2.convexHull(max(contours, key=cv2.contourArea)), 1)
    width = sil.sum(axis=1).astype(np.float64)
    return width, hull.sum(axis=1).astype(np.float64) - width


def end_features(sil: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """For the top and the bottom end: (hollow of the band BAND_FROM..BAND_TO of the
    height from that end over the area, width at POINT_AT from that end over the
    widest row)."""
    width, hollow = profile(sil)
    h = len(width)
    area = max(float(width.sum()), 1.0)
    a, b = int(BAND_FROM * h), max(int(BAND_TO * h), int(BAND_FROM * h) + 1)
    at = min(int(POINT_AT * h), h - 1)
    widest = max(float(width.max()), 1.0)
    top = (float(hollow[a:b].sum()) / area, float(width[at]) / widest)
    bottom = (float(hollow[h - b:h - a].sum()) / area, float(width[h - 1 - at]) / widest)
    return top, bottom


def mirror(sil: np.ndarray) -> float:
    """How alike the silhouette and its mirror image (left for right) are: their
    intersection over their union. Every suit pip is mirror-symmetric about the
    card's long axis; a blob of something else (a table's pattern seen through a
    quad that is not a card) seldom is."""
    flipped = sil[:, ::-1]
    union = float(np.count_nonzero(sil | flipped))
    return float(np.count_nonzero(sil & flipped)) / max(union, 1.0)


def silhouette_suit(sil: np.ndarray) -> str | None:
    """"S" when the silhouette is mirror-symmetric, one end a convex point and the
    other hollow (a stem), else None (see module)."""
    if mirror(sil) < MIN_MIRROR:
        return None
    (hol_t, pt_t), (hol_b, pt_b) = end_features(sil)
    point, stem = ((hol_t, pt_t), hol_b) if hol_t <= hol_b else ((hol_b, pt_b), hol_t)
    if point[0] <= CONVEX and point[1] <= POINTED and stem >= STEM:
        return "S"
    return None
