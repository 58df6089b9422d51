#!/usr/bin/env python3
"""Render card art into the cache, check it, or draw a contact sheet to look at.

    python scripts/render_cards.py                 # warm the cache (all decks, 200 and 400 px)
    python scripts/render_cards.py --check         # every card + back of every deck renders
    python scripts/render_cards.py --sheet out.png # 7 cards + back per deck, labelled

The images are GPL/LGPL card art: they stay in the cache (or where you write them),
never in the repository.
"""

from __future__ import annotations

import argparse
import sys
import time

import cv2
import numpy as np

from vision.cardart import ALL_CARDS, CardArtError, list_decks, prerender, render_back, render_card
from vision.scene import ART_HEIGHTS


def _tile(img: np.ndarray, h: int, w: int) -> np.ndarray:
    img = cv2.resize(img, (min(w, round(img.shape[1] * h / img.shape[0])), h),
                     interpolation=cv2.INTER_AREA)
    out = np.full((h, w, 3), 110, np.uint8)
    a = img[:, :, 3:4].astype(np.float32) / 255
    out[:, :img.shape[1]] = (img[:, :, :3] * a + out[:, :img.shape[1]] * (1 - a)).astype(np.uint8)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pattern", help="only decks of this pattern (french, russian, ...)")
    ap.add_argument("--height", type=int, action="append",
                    help=f"card height in px (repeatable; default {ART_HEIGHTS})")
    ap.add_argument("--check", action="store_true", help="render and check every card")
    ap.add_argument("--sheet", metavar="PNG", help="write a contact sheet")
    args = ap.parse_args(argv)
    decks = list_decks(args.pattern)
    if not decks:
        print("no card decks installed: bash scripts/system-deps.sh", file=sys.stderr)
        return 1
    if args.sheet:
        rows = []
        for d in decks:
            tiles = [_tile(render_card(d, c, 160), 120, 96)
                     for c in ("AS", "10H", "JD", "QS", "KC", "6C", "2H")]
            tiles.append(_tile(render_back(d, 160), 120, 96))
            row = np.hstack(tiles)
            cv2.putText(row, f"{d.name} [{d.pattern.value}] {d.index_letters}", (3, 114),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 255), 1, cv2.LINE_AA)
            rows.append(row)
        cv2.imwrite(args.sheet, np.vstack(rows))
        print(f"wrote {args.sheet}: {len(decks)} decks")
        return 0
    failures = 0
    for h in args.height or list(ART_HEIGHTS):
        t0 = time.perf_counter()
        for d in decks:
            try:
                prerender([d], h)
                if args.check:
                    for c in [*ALL_CARDS, None]:
                        img = render_card(d, c, h) if c else render_back(d, h)
                        if not 1.25 < img.shape[0] / img.shape[1] < 1.75:
                            raise CardArtError(f"{d.name} {c or 'back'}: odd shape {img.shape}")
            except CardArtError as exc:
                failures += 1
                print(f"FAIL {exc}", file=sys.stderr)
        print(f"{len(decks)} decks x 53 images at {h}px: {time.perf_counter() - t0:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
