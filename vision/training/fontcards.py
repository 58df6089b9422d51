"""Card faces drawn from system fonts, to teach the network glyphs, not 28 decks' fonts.

Why: trained on the Debian decks alone, the network learnt those decks' few typefaces
and misread new ones (a bold sans K as an 8). Real decks vary mostly in the typeface,
size and placement of the index, so we draw cards whose index is set in any of the
fonts installed (DejaVu, Liberation, FreeFont, URW base35: Debian packages
fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf fonts-urw-base35), at random
sizes, weights, offsets and colours, with a suit sign under the rank (a font's glyph,
or on half the cards a sign of random proportions from suitshapes.py), plus decoys
in the card body (big pips, a court frame). They go through the same camera simulation
as rendered decks (vision.training.synth). Uses Pillow (the `train` extra).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from vision.training.suitshapes import suit_mask
from vision.training.synth import ART_HEIGHT, CardArt
from vision.types import RANKS, SUITS

FONT_DIRS = (Path("/usr/share/fonts"),)
_SKIP = ("D050000L", "Z003", "MathTeX", "StandardSymbols")  # dingbats, script, symbols
_PIPS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@lru_cache(maxsize=1)
def fonts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(text fonts, fonts with the four suit signs), as file paths."""
    from PIL import ImageFont

    text, pips = [], []
    for d in FONT_DIRS:
        for p in sorted(d.rglob("*")):
            if p.suffix.lower() not in (".ttf", ".otf"):
                continue
            if not any(s in p.name for s in _SKIP):
                text.append(str(p))
            try:
                f = ImageFont.truetype(str(p), 40)
                if all(f.getmask(ch).getbbox() for ch in _PIPS.values()) and \
                        f.getmask("\u2665").size != f.getmask("\uffff").size:
                    pips.append(str(p))
            except OSError:
                continue
    return tuple(text), tuple(pips)


def font_card(rng: np.random.Generator, rank: int, suit: int,
              height: int = ART_HEIGHT) -> np.ndarray:
    """One BGRA card face with rank `RANKS[rank]` and suit `SUITS[suit]` indices."""
    from PIL import Image, ImageDraw, ImageFont

    text_fonts, pip_fonts = fonts()
    aspect = rng.uniform(0.62, 0.74)
    h, w = height, int(height * aspect)
    paper = tuple(int(v) for v in rng.integers(225, 256, 3))
    s = SUITS[suit]
    red = s in "HD"
    if rng.random() < 0.1:  # four-colour deck
        ink = {"C": (20, 120, 20), "D": (30, 60, 200), "H": (200, 20, 20), "S": (10, 10, 10)}[s]
    else:
        ink = (int(rng.integers(150, 230)), int(rng.integers(0, 40)), int(rng.integers(0, 50))) \
            if red else tuple(int(v) for v in rng.integers(0, 50, 3))
    card = Image.new("RGBA", (w, h), paper + (255,))
    layer = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    font_path = text_fonts[int(rng.integers(len(text_fonts)))]
    label = RANKS[rank]
    size = int(h * rng.uniform(0.07, 0.17))
    font = ImageFont.truetype(font_path, size)
    x0 = int(w * rng.uniform(0.02, 0.09))
    y0 = int(h * rng.uniform(0.01, 0.06))
    # Bold (stroke) and condensed/expanded indices: real decks print both.
    stroke = int(rng.integers(0, 3)) if rng.random() < 0.35 else 0
    squeeze = float(rng.uniform(0.65, 1.15)) if rng.random() < 0.5 else 1.0
    glyph = _text_image(label, font, ink, stroke, squeeze)
    max_w = int(w * 0.2)
    if glyph.width > max_w:  # squeeze wide "10"s as real decks do
        glyph = glyph.resize((max_w, glyph.height))
    tw, th = glyph.size
    layer.alpha_composite(glyph, (x0, y0))
    pip_font_path = pip_fonts[int(rng.integers(len(pip_fonts)))] if pip_fonts else font_path
    pip_size = int(max(th, 8) * rng.uniform(0.7, 1.15))
    # Half the cards carry drawn signs of random proportions (suitshapes.py): the
    # fonts hold only a few club and spade shapes, too few to learn the suit from.
    shaped = rng.random() < 0.5
    if shaped:
        sign = _sign_image(rng, suit, int(pip_size * rng.uniform(0.75, 1.0)), ink)
        pb = (0, 0) + sign.size
    else:
        pfont = ImageFont.truetype(pip_font_path, pip_size)
        pb = draw.textbbox((0, 0), _PIPS[s], font=pfont)
    pw, ph = pb[2] - pb[0], pb[3] - pb[1]
    px = x0 + tw // 2 - pw // 2 + int(rng.integers(-2, 3))
    py = y0 + th + int(th * rng.uniform(0.1, 0.4))
    if py + ph > h * 0.34:  # keep inside the index box, as printed cards do
        py = int(h * 0.34) - ph
    if shaped:
        layer.alpha_composite(sign, (max(0, px), max(0, py)))
    else:
        draw.text((px - pb[0], py - pb[1]), _PIPS[s], font=pfont, fill=ink + (255,))
    turned = layer.rotate(180)
    card.alpha_composite(layer)
    card.alpha_composite(turned)
    body = ImageDraw.Draw(card)
    if rank >= 10 and rng.random() < 0.8:  # court frame with clutter
        fx = int(w * rng.uniform(0.2, 0.27))
        fy = int(h * rng.uniform(0.1, 0.16))
        body.rectangle((fx, fy, w - fx, h - fy), outline=ink + (255,), width=2)
        for _ in range(12):
            cx, cy = rng.integers(fx, w - fx), rng.integers(fy, h - fy)
            r = int(rng.integers(4, 20))
            col = tuple(int(v) for v in rng.integers(0, 256, 3)) + (255,)
            body.ellipse((cx - r, cy - r, cx + r, cy + r), fill=col)
    else:  # big pips in the body
        big_size = int(h * rng.uniform(0.1, 0.16))
        big = ImageFont.truetype(pip_font_path, big_size)
        sign = _sign_image(rng, suit, int(big_size * 0.8), ink) if shaped else None
        n = min(rank + 1, 10) if rank < 10 else 1
        for i in range(n):
            bx = int(w * rng.uniform(0.3, 0.62))
            by = int(h * (0.15 + 0.65 * (i + 0.5) / n))
            if sign is not None:
                card.alpha_composite(sign, (max(0, bx - sign.width // 2),
                                            max(0, by - sign.height // 2)))
            else:
                body.text((bx, by), _PIPS[s], font=big, fill=ink + (255,), anchor="mm")
    arr = np.array(card)  # RGBA
    # Rounded corners, as cut cards have.
    rad = int(w * rng.uniform(0.03, 0.08))
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), rad, fill=255)
    arr[:, :, 3] = np.array(mask)
    return np.ascontiguousarray(arr[:, :, [2, 1, 0, 3]])


def _sign_image(rng: np.random.Generator, suit: int, height: int, ink: tuple[int, ...]):
    """A drawn suit sign (suitshapes.py) `height` px tall, in `ink`, as an RGBA image."""
    from PIL import Image

    mask = suit_mask(rng, suit, max(4, height))
    rgba = np.zeros(mask.shape + (4,), np.uint8)
    rgba[:, :, :3] = ink[:3]
    rgba[:, :, 3] = mask
    return Image.fromarray(rgba, "RGBA")


def _text_image(text: str, font, ink: tuple[int, ...], stroke: int, squeeze: float):
    """`text` in `ink` on a transparent image cropped to the ink, width scaled by
    `squeeze` (condensed < 1 < expanded), strokes thickened by `stroke` px (bold)."""
    from PIL import Image, ImageDraw

    box = ImageDraw.Draw(Image.new("RGBA", (1, 1))).textbbox(
        (0, 0), text, font=font, stroke_width=stroke)
    img = Image.new("RGBA", (box[2] - box[0] + 2, box[3] - box[1] + 2), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((1 - box[0], 1 - box[1]), text, font=font,
                             fill=tuple(ink) + (255,), stroke_width=stroke,
                             stroke_fill=tuple(ink) + (255,))
    img = img.crop(img.getbbox() or (0, 0, 1, 1))
    if squeeze != 1.0:
        img = img.resize((max(1, round(img.width * squeeze)), img.height))
    return img


def font_faces(rng: np.random.Generator, n: int) -> list[CardArt]:
    """`n` random font-drawn faces, labelled."""
    out = []
    for _ in range(n):
        rank, suit = int(rng.integers(len(RANKS))), int(rng.integers(len(SUITS)))
        out.append(CardArt(font_card(rng, rank, suit), rank, suit, "fonts",
                           RANKS[rank] + SUITS[suit]))
    return out
