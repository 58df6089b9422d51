"""Geometry of a card's corner index, and cutting it out of a camera image.

Both the detector (vision/detect) and the classifier (vision/recognize) must agree on
exactly which part of a card is an "index patch", otherwise a network trained on one
crop is fed another. This module is that single agreement: the crop is given as
fractions of the card's width and height (so it holds for any deck size and any
camera distance), and the patch is always upright and of one fixed size.

A card quad is four image points, clockwise on screen, starting at the printed
top-left of the card (up to 180°: the bottom-right corner carries the same index,
printed upside down). `extract_index_patches` warps both index corners straight out
of the image (no full-card warp, so it costs two small `warpPerspective` calls) and
returns them as upright patches: top-left first, then bottom-right turned by 180°.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import cv2
import numpy as np

#: Card width / height of a standard (poker/bridge-ish) card, 63 x 88 mm.
CARD_ASPECT = 63.0 / 88.0

#: The index crop, as fractions of the card: (x0, y0, x1, y1), measured from the printed
#: top-left corner, x along the short (top) edge, y along the long (left) edge. Chosen
#: wide and tall enough to hold the rank and the suit pip under it across the Debian
#: decks (some print big indices far in: 0.22 x 0.31 cut their pips in half, and the
#: network then confused diamonds with hearts), yet mostly clear of the court figure.
INDEX_BOX = (0.0, 0.0, 0.24, 0.36)

#: Patch size in pixels (width, height); patches are BGR uint8 of shape (H, W, 3).
PATCH_W = 32
PATCH_H = 64
PATCH_SIZE = (PATCH_W, PATCH_H)


def normalize_quad(quad: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """Return the quad as a float32 (4, 2) array, clockwise on screen, with the first
    edge a short one (unless the quad is near-square: see AMBIGUOUS_ASPECT).

    Why: detectors and hand-written test quads differ in winding and in which corner
    they start at; a counter-clockwise quad would give mirror-image glyphs, and a start
    shifted by 90° would crop a corner without an index. A start shifted by 180° is
    harmless (the opposite corner carries the same index), so this never needs to know
    the printed orientation.
    """
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    # The same steps compiled where numba is (kernels.normalized_quad; about 40
    # calls a frame). Imported here: vision.detect imports this module while it
    # initialises, and the kernels' package imports vision.detect.
    from vision.recognize import kernels

    if kernels.COMPILED:
        return kernels.normalized_quad(np.ascontiguousarray(q), _AMBIGUOUS32)
    x, y = q[:, 0], q[:, 1]
    area2 = float(np.sum(x * y[_NEXT] - x[_NEXT] * y))
    if area2 < 0:  # counter-clockwise on screen (y points down): reverse, keep start
        q = q[[0, 3, 2, 1]]
    e = _lengths(q[_NEXT] - q)  # edges 0-1, 1-2, 2-3, 3-0
    if e[0] + e[2] > (e[1] + e[3]) * AMBIGUOUS_ASPECT:  # starts on a long edge: the
        q = q[_NEXT]  # index corner is the next one
    return q


#: A quad whose long sides (means of opposite edges) are less than this times its
#: short ones is near-square: which of its edges is the card's short one cannot be
#: told from its shape (a photo squeezed to 80% of its height turns an upright card's
#: 88/63 = 1.40 into 1.12), so `normalize_quad` keeps the start it is given (the
#: detector's, or the one vision.recognize.turn found the index at).
AMBIGUOUS_ASPECT = 1.2
#: AMBIGUOUS_ASPECT as numpy multiplies a float32 length by it (a weak Python float).
_AMBIGUOUS32 = np.float32(AMBIGUOUS_ASPECT)


def mean_aspect(quad: np.ndarray) -> float:
    """Long over short side of a (4, 2) quad, each the mean of two opposite edges."""
    e = _edge_lengths(np.asarray(quad, dtype=np.float32).reshape(4, 2))
    a, b = float(e[0] + e[2]), float(e[1] + e[3])
    return max(a, b) / max(min(a, b), 1e-6)


def _edge_lengths(q: np.ndarray) -> np.ndarray:
    """Lengths of the edges 0-1, 1-2, 2-3, 3-0 of the float32 (4, 2) quad `q`, in
    float32 (compiled where numba is: kernels.edge_lengths, the same figures;
    imported here as in normalize_quad)."""
    from vision.recognize import kernels

    if kernels.COMPILED:
        e = np.empty(4, dtype=np.float32)
        kernels.edge_lengths(np.ascontiguousarray(q), e)
        return e
    return _lengths(q[_NEXT] - q)


def _lengths(d: np.ndarray) -> np.ndarray:
    """Lengths of the rows of the float32 (n, 2) array `d`, in float32: the very
    figures np.linalg.norm gives row by row, at one call for all rows (per-call
    overhead is most of the cost on these tiny arrays)."""
    return np.sqrt((d * d).sum(axis=1))


#: Corner order starting one corner on (fancy indexing: np.roll costs ten times more
#: on a (4, 2) array, and the detector cuts patches for every card of every frame).
_NEXT = [1, 2, 3, 0]
#: The quad turned by 180 degrees: starting at the opposite (bottom-right) corner.
_OPPOSITE = [2, 3, 0, 1]


#: The unit card's corners, clockwise from the top-left.
_UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32)


def _card_to_image(quad: np.ndarray) -> np.ndarray:
    """Homography from unit card coordinates (0..1, 0..1) to image pixels."""
    return cv2.getPerspectiveTransform(_UNIT, quad.astype(np.float32))


def index_quads(quad: Sequence[Sequence[float]] | np.ndarray) -> list[np.ndarray]:
    """The two index regions as image quads (each (4, 2) float32): top-left, bottom-right.

    Useful to decide whether a corner is covered by another card.
    """
    return _index_quads(_corner_maps(normalize_quad(quad)))


def _corner_maps(q: np.ndarray) -> list[np.ndarray]:
    """Card-to-image homographies from each index corner of the normalised quad
    `q`: printed top-left, then bottom-right (the card turned by 180 degrees)."""
    return [_card_to_image(q), _card_to_image(q[_OPPOSITE])]


def _index_quads(maps: list[np.ndarray]) -> list[np.ndarray]:
    return [cv2.perspectiveTransform(_INDEX_CORNERS, h)[0] for h in maps]


#: INDEX_BOX's corners on the unit card, as cv2.perspectiveTransform takes points.
_INDEX_CORNERS = np.array([[[INDEX_BOX[0], INDEX_BOX[1]], [INDEX_BOX[2], INDEX_BOX[1]],
                            [INDEX_BOX[2], INDEX_BOX[3]], [INDEX_BOX[0], INDEX_BOX[3]]]],
                          dtype=np.float32)


def index_quads_and_patches(
    image: np.ndarray,
    quad: Sequence[Sequence[float]] | np.ndarray,
    patch_size: tuple[int, int] = PATCH_SIZE,
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`index_quads(quad)` and `extract_index_patches(image, quad, patch_size)` at
    once (the detector wants both for every card of every frame: the quad is
    normalised and the corner homographies are worked out once)."""
    q = normalize_quad(quad)
    maps = _corner_maps(q)
    return _index_quads(maps), _patches(image, q, maps, patch_size)


def _patch_from_card(patch_size: tuple[int, int]) -> np.ndarray:
    """Affine-as-homography from patch pixels to unit card coordinates."""
    pw, ph = patch_size
    x0, y0, x1, y1 = INDEX_BOX
    return np.array(
        [[(x1 - x0) / pw, 0, x0], [0, (y1 - y0) / ph, y0], [0, 0, 1]], dtype=np.float64
    )


@functools.lru_cache(maxsize=16)
def _patch_to_card(patch_size: tuple[int, int], k: int) -> np.ndarray:
    """Patch pixel centres (of a patch `k` times `patch_size`) to unit card
    coordinates; the same few matrices for every card, so worked out once (read-only)."""
    # Sample at pixel centres: patch pixel (u, v) -> card (u + .5, v + .5) scaled.
    shift = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]], dtype=np.float64)
    p2c = _patch_from_card(patch_size) @ shift
    if k > 1:
        p2c = p2c @ np.array([[1 / k, 0, 0], [0, 1 / k, 0], [0, 0, 1]], dtype=np.float64)
    p2c.flags.writeable = False
    return p2c


#: warpPerspective's pixel-centre convention: image pixel centres sit at integers.
_TO_PIXEL = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]], dtype=np.float64)
#: Quad corners whose differences are the card's sides (top, left, bottom, right).
_SIDE_TO, _SIDE_FROM = [1, 3, 2, 2], [0, 0, 3, 1]


def _index_scale(q: np.ndarray, patch_size: tuple[int, int]) -> float:
    """How many image pixels one patch pixel spans (largest of the two directions)."""
    x0, y0, x1, y1 = INDEX_BOX
    e = _edge_lengths(q)  # top, right, bottom, left (|q0 - q3| is |q3 - q0| exactly)
    across, down = float(e[0] + e[2]), float(e[3] + e[1])  # float32 sums, as before
    w, h = 0.5 * across, 0.5 * down
    return max(w * (x1 - x0) / patch_size[0], h * (y1 - y0) / patch_size[1])


def extract_index_patches(
    image: np.ndarray,
    quad: Sequence[Sequence[float]] | np.ndarray,
    patch_size: tuple[int, int] = PATCH_SIZE,
) -> list[np.ndarray]:
    """Cut both corner indices of the card `quad` out of `image` (BGR, or grey).

    Returns two upright patches of `patch_size` (width, height), same channels as the
    image: the top-left index, then the bottom-right index turned by 180°. Parts of the
    crop outside the image are filled by replicating the border.
    """
    q = normalize_quad(quad)
    return _patches(image, q, _corner_maps(q), patch_size)


def _patches(
    image: np.ndarray, q: np.ndarray, maps: list[np.ndarray], patch_size: tuple[int, int]
) -> list[np.ndarray]:
    """`extract_index_patches` for the normalised quad `q` and its `_corner_maps`."""
    pw, ph = patch_size
    # When the index is much larger in the image than the patch (a phone photo), warp to
    # an integer multiple first and shrink with INTER_AREA: plain bilinear sampling
    # would alias thin strokes away.
    k = int(max(1.0, np.ceil(_index_scale(q, patch_size) / 1.5)))
    p2c = _patch_to_card((int(pw), int(ph)), k)
    patches = []
    for c2i in maps:
        m = c2i.astype(np.float64) @ p2c
        # Pixel centre convention of warpPerspective maps dst (u, v) through M^-1 to src;
        # give it the patch->image map directly with WARP_INVERSE_MAP.
        m = _TO_PIXEL @ m
        patch = cv2.warpPerspective(
            image, m, (pw * k, ph * k), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
        if k > 1:
            patch = cv2.resize(patch, (pw, ph), interpolation=cv2.INTER_AREA)
        patches.append(patch)
    return patches
