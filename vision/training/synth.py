"""Synthetic corner-index patches with labels, for training and calibrating.

Every sample is made the way a camera would see it, not by augmenting the patch
itself: a rendered card is warped at a random scale, rotation, aspect ratio and
perspective into a small canvas over a random table texture, maybe partly covered by
another card, lit warm or cold with gradient, glare and shadow, blurred, noised and
JPEG-compressed; then the patch is cut with `extract_index_patches` from a *jittered*
copy of the true quad, as a detector would get it slightly wrong. What comes out is
therefore exactly what the classifier sees at run time.

Labels: rank 0..12 (`RANKS`) or `NONE_RANK` (13), suit 0..3 (`SUITS`) or `NONE_SUIT`
(4). "None" patches (card bodies, backs, cloth, mostly covered corners, other suit
systems) teach the network to say "not an index", which is how it abstains.
Deterministic for a given seed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cardart import ALL_CARDS, CardArtError, DeckArt, parse_card, render_back, render_card
from vision.recognize.patch import PATCH_H, PATCH_W, extract_index_patches, index_quads
from vision.types import RANKS, SUITS

NONE_RANK = len(RANKS)
NONE_SUIT = len(SUITS)
#: Height at which card art is rendered for synthesis (then resampled by the warp).
ART_HEIGHT = 320


@dataclass(frozen=True, slots=True)
class CardArt:
    """One rendered face (or back) with its labels; `rank`/`suit` None for a back."""

    image: np.ndarray  # BGRA
    rank: int
    suit: int
    deck: str
    card: str | None


def _plausible(img: np.ndarray) -> bool:
    """Reject renders that are not a single card (some SVG ids pick up whole groups)."""
    h, w = img.shape[:2]
    if not 0.5 <= w / h <= 0.82:
        return False
    alpha = img[:, :, 3]
    return float((alpha > 128).mean()) > 0.85


def load_faces(decks: list[DeckArt], cards: tuple[str, ...] = ALL_CARDS,
               height: int = ART_HEIGHT, as_negative: bool = False) -> list[CardArt]:
    """Render (through the cardart cache) every card of `decks`, skipping broken renders.

    With `as_negative`, faces are labelled "none" (decks of other suit systems).
    """
    out = []
    for deck in decks:
        for card in cards:
            try:
                img = render_card(deck, card, height)
            except CardArtError:
                continue
            if not _plausible(img):
                continue
            r, s = parse_card(card)
            rank, suit = (NONE_RANK, NONE_SUIT) if as_negative else \
                (RANKS.index(r), SUITS.index(s))
            out.append(CardArt(img, rank, suit, deck.name, card))
    return out


def load_backs(decks: list[DeckArt], height: int = ART_HEIGHT) -> list[CardArt]:
    """Card backs of `decks`, labelled "none"."""
    out = []
    for deck in decks:
        try:
            img = render_back(deck, height)
        except CardArtError:
            continue
        if _plausible(img):
            out.append(CardArt(img, NONE_RANK, NONE_SUIT, deck.name, None))
    return out


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A random table surface: cloth-like noise, wood-like stripes or blotches."""
    base = rng.integers(0, 256, 3).astype(np.float32)
    if rng.random() < 0.3:  # dark cloth
        base *= 0.35
    kind = rng.integers(0, 3)
    tex = np.empty((h, w), np.float32)
    if kind == 0:  # fine cloth
        cv2.randn(tex, 0, float(rng.uniform(3, 18)))
    elif kind == 1:  # wood grain
        a = rng.uniform(0, np.pi)
        f = rng.uniform(0.05, 0.3)
        n = 64
        line = (np.sin(np.arange(-n, 2 * n, dtype=np.float32) * f * 3) * 25)[None, :]
        stripes = cv2.resize(np.repeat(line, 4, axis=0), (3 * w, 4))
        tex = cv2.resize(stripes, (w, h))
        if a > np.pi / 2:
            tex = cv2.resize(tex.T.copy(), (w, h))
        tex = tex + _smooth_field(rng, h, w, 6) * 15
    else:  # blotchy
        tex = _smooth_field(rng, h, w, max(2, h // 8)) * 20
    img = base[None, None, :] + tex[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _composite(canvas: np.ndarray, art: np.ndarray, h: np.ndarray) -> np.ndarray:
    """Warp BGRA `art` into `canvas` (in place) by homography `h`; return its alpha."""
    ch, cw = canvas.shape[:2]
    warped = cv2.warpPerspective(art, h, (cw, ch), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas[:] = (warped[:, :, :3] * a + canvas * (1 - a)).astype(np.uint8)
    return a[:, :, 0]


def _card_quad(rng: np.random.Generator, center: np.ndarray, h_img: float, aspect: float,
               angle: float, persp: float) -> np.ndarray:
    w_img = h_img * aspect
    rect = np.array([[-w_img / 2, -h_img / 2], [w_img / 2, -h_img / 2],
                     [w_img / 2, h_img / 2], [-w_img / 2, h_img / 2]], dtype=np.float32)
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, -s], [s, c]], dtype=np.float32)
    q = rect @ rot.T + center
    return (q + rng.normal(0, persp * h_img, (4, 2))).astype(np.float32)


def _smooth_field(rng: np.random.Generator, h: int, w: int, n: int = 3) -> np.ndarray:
    """A smooth random field (h, w) float32 around 0: cheap low-res noise, upsampled."""
    small = rng.normal(0, 1, (n, n)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Camera and light: colour temperature, exposure, uneven light, glare, blur, noise,
    JPEG. Fields are built at low resolution and upsampled (this runs per sample)."""
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    warm = rng.uniform(-1, 1)  # -1 cold (blue) .. +1 warm (orange)
    gains = np.array([1 - 0.18 * warm, 1 - 0.03 * abs(warm), 1 + 0.15 * warm], np.float32)
    gains *= rng.uniform(0.85, 1.1, 3).astype(np.float32) * rng.uniform(0.5, 1.2)
    light = 1 + _smooth_field(rng, h, w, 2) * rng.uniform(0, 0.25)
    if rng.random() < 0.25:  # glare: a soft bright blob
        g = np.zeros((8, 8), np.float32)
        g[rng.integers(8), rng.integers(8)] = 1
        g = cv2.resize(cv2.GaussianBlur(g, (0, 0), rng.uniform(0.7, 2)), (w, h))
        glare = g / max(float(g.max()), 1e-6) * rng.uniform(40, 170)
    else:
        glare = None
    f *= light[..., None] * gains
    if glare is not None:
        f += glare[..., None]
    if rng.random() < 0.4:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.1))
    sigma = rng.uniform(0, 8)
    if sigma > 0.5:
        noise = np.empty_like(f)
        cv2.randn(noise, 0, sigma)
        f += noise
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        q = int(rng.integers(25, 95))
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def _poly_fraction(mask: np.ndarray, quad: np.ndarray) -> float:
    """Fraction of the polygon `quad` where `mask` > 0.5."""
    m = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 1)
    n = int(m.sum())
    if n == 0:
        return 1.0
    return float(((mask > 0.5) & (m > 0)).sum()) / n


def sample(rng: np.random.Generator, faces: list[CardArt], clutter: list[CardArt],
           negatives_per_card: int = 1) -> list[tuple[np.ndarray, int, int]]:
    """One synthetic view of a random card of `faces`: its patches with labels.

    `clutter` (other faces and backs) supplies covering cards. Returns the two corner
    patches (labelled, or "none" when mostly covered; dropped when half covered) plus
    `negatives_per_card` patches cut from elsewhere on the card or the table.
    """
    art = faces[int(rng.integers(len(faces)))]
    h0, w0 = art.image.shape[:2]
    h_img = float(np.exp(rng.uniform(np.log(55), np.log(200))))
    aspect = (w0 / h0) * float(np.clip(np.exp(rng.normal(0, 0.09)), 0.78, 1.28))
    size = int(h_img * 1.45) + 8
    canvas = background(rng, size, size)
    center = np.array([size / 2, size / 2], dtype=np.float32) + rng.normal(0, 3, 2)
    quad = _card_quad(rng, center.astype(np.float32), h_img, aspect,
                      rng.uniform(0, 2 * np.pi), rng.uniform(0, 0.04))
    src = np.array([[0, 0], [w0, 0], [w0, h0], [0, h0]], dtype=np.float32)
    hom = cv2.getPerspectiveTransform(src, quad)
    if rng.random() < 0.5:  # drop shadow
        sh = cv2.warpPerspective(art.image[:, :, 3], hom, (size, size)).astype(np.float32)
        off = rng.normal(0, 0.02 * h_img, 2)
        sh = cv2.warpAffine(sh, np.float32([[1, 0, off[0]], [0, 1, off[1]]]), (size, size))
        sh = cv2.GaussianBlur(sh, (0, 0), 0.02 * h_img + 1) / 255.0
        canvas[:] = (canvas * (1 - rng.uniform(0.2, 0.6) * sh[..., None])).astype(np.uint8)
    _composite(canvas, art.image, hom)
    cover = np.zeros((size, size), np.float32)
    if clutter and rng.random() < 0.4:  # another card lying across part of this one
        other = clutter[int(rng.integers(len(clutter)))]
        oh, ow = other.image.shape[:2]
        corner = quad[int(rng.integers(4))]
        oc = corner + rng.normal(0, 0.35 * h_img, 2)
        oq = _card_quad(rng, oc.astype(np.float32), h_img * rng.uniform(0.9, 1.1),
                        ow / oh, rng.uniform(0, 2 * np.pi), 0.02)
        osrc = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], dtype=np.float32)
        cover = _composite(canvas, other.image, cv2.getPerspectiveTransform(osrc, oq))
    img = _photometric(rng, canvas)
    out: list[tuple[np.ndarray, int, int]] = []
    det = quad + np.clip(rng.normal(0, 0.018 * h_img, (4, 2)), -0.05 * h_img, 0.05 * h_img)
    det = det.astype(np.float32)
    patches = extract_index_patches(img, det)
    for patch, iq in zip(patches, index_quads(quad)):
        covered = _poly_fraction(cover, iq)
        if covered < 0.15:
            out.append((patch, art.rank, art.suit))
        elif covered > 0.6:
            out.append((patch, NONE_RANK, NONE_SUIT))
    for _ in range(negatives_per_card):
        if rng.random() < 0.35:
            continue
        out.append((_negative_patch(rng, img, det, h_img), NONE_RANK, NONE_SUIT))
    return out


def _negative_patch(rng: np.random.Generator, img: np.ndarray, quad: np.ndarray,
                    h_img: float) -> np.ndarray:
    """A patch cut where no index is: elsewhere on the card, or off it."""
    # Shift the card frame so that its index box lands inside the card body or outside.
    du = rng.uniform(0.3, 0.78) if rng.random() < 0.7 else rng.uniform(-1.2, -0.3)
    dv = rng.uniform(0.33, 0.69) if rng.random() < 0.7 else rng.uniform(-1.0, 1.0)
    if rng.random() < 0.3:
        du = rng.uniform(-0.2, 0.78)
        dv = rng.uniform(0.4, 0.69)
    e_u = quad[1] - quad[0]
    e_v = quad[3] - quad[0]
    shift = du * e_u + dv * e_v
    q = quad + shift
    if rng.random() < 0.5:
        q = np.roll(q, 2, axis=0)
    return extract_index_patches(img, q)[0]


def make_dataset(rng: np.random.Generator, faces: list[CardArt], clutter: list[CardArt],
                 n_views: int, negative_faces: list[CardArt] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`n_views` synthetic views -> (patches uint8 (N, H, W, 3), rank labels, suit labels).

    15% of the views show a card of `negative_faces` (backs, other suit systems),
    whose corners are all labelled "none".
    """
    xs, rs, ss = [], [], []
    for i in range(n_views):
        pool = faces
        if negative_faces and rng.random() < 0.15:
            pool = negative_faces
        for patch, r, s in sample(rng, pool, clutter):
            xs.append(patch)
            rs.append(r)
            ss.append(s)
    x = np.stack(xs) if xs else np.zeros((0, PATCH_H, PATCH_W, 3), np.uint8)
    return x, np.array(rs, np.int64), np.array(ss, np.int64)
