"""`cardtable recognize` and `cardtable enroll`: the recogniser from the terminal.

recognize: one result per image; with --json exactly one JSON line per image,
`{"image": PATH, "cards": [...]}` or `{"image": PATH, "error": "..."}` for an image
that cannot be read (the others are still processed; the exit code is then 1).

enroll: teaches a new deck by showing each card to the camera (see vision.enroll),
lists (--list) and removes (--remove NAME) enrolled decks.
"""

from __future__ import annotations

import argparse
import json
import sys

from vision.types import VisionError


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rec = subparsers.add_parser(
        "recognize", help="find and read the cards in image files",
        description="Find every card in each IMAGE and read its rank and suit. A card "
                    "seen but not read for sure is reported with card null.")
    rec.add_argument("images", nargs="+", metavar="IMAGE")
    rec.add_argument("--json", action="store_true", help="one JSON line per image")
    rec.add_argument("--deck", metavar="NAME", help="read with an enrolled deck's templates")
    rec.add_argument("--model", metavar="ONNX", help="use another model file")
    rec.set_defaults(func=run_recognize)

    enr = subparsers.add_parser(
        "enroll", help="teach the recogniser a new deck, card by card",
        description="Show each card of the deck to the camera when asked; the deck is "
                    "stored as files and used with `cardtable recognize --deck NAME`.")
    what = enr.add_mutually_exclusive_group(required=True)
    what.add_argument("--deck", metavar="NAME", help="name of the deck to enrol")
    what.add_argument("--list", action="store_true", help="list the enrolled decks")
    what.add_argument("--remove", metavar="NAME", help="delete an enrolled deck")
    enr.add_argument("--source", default="opencv:0", metavar="URL",
                     help="camera or file source, e.g. picamera2:0, opencv:0, "
                          "file:DIR/ (default opencv:0)")
    enr.add_argument("--cards", default="52", metavar="SET",
                     help="which cards the deck has: 52, 36 (6..A), 32 (7..A), "
                          "40 (children's 1..10), or a list like AS,KH,10D; default 52")
    enr.add_argument("--steady", type=int, default=3, metavar="N",
                     help="frames a card must lie still before it is captured (default 3)")
    enr.add_argument("--model", metavar="ONNX", help="use another model file")
    enr.set_defaults(func=run_enroll)


def _summary(cards: list) -> str:
    parts = []
    for c in cards:
        if c.face_down:
            parts.append("(face down)")
        elif c.card is None:
            parts.append("(unread)")
        else:
            parts.append(f"{c.card} {c.confidence:.2f}")
    return ", ".join(parts) if parts else "no cards"


def run_recognize(args: argparse.Namespace) -> int:
    import cv2

    from vision.recognize.classifier import IndexClassifier
    from vision.recognize.imagefile import load_image
    from vision.recognize.reader import default_detector, read_image

    try:
        clf = IndexClassifier.load(args.model, deck=args.deck)
    except VisionError as exc:
        print(f"recognize: {exc}", file=sys.stderr)
        return 2
    # One OpenCV thread: some of its parallel loops sum in another order with more
    # threads, which moved a real photo's outlines (IMG_2635 resized 0.8 x 1: 2
    # candidates on one thread, 4 on two). A photo must read the same on a Pi's four
    # cores as on the machine that measured it (make bench runs one thread).
    cv2.setNumThreads(1)
    detect = default_detector()
    failed = 0
    for path in args.images:
        try:
            image = load_image(path)
            cards = read_image(clf, image, detect)
        except (VisionError, cv2.error, MemoryError) as exc:
            # One bad image must not stop the others: report it on its own line.
            failed += 1
            msg = getattr(exc, "reason", None) or f"{type(exc).__name__}: {exc}".strip()
            if args.json:
                print(json.dumps({"image": path, "error": msg}, ensure_ascii=False),
                      flush=True)
            else:
                print(f"{path}: error: {msg}", flush=True)
            continue
        if not cards and float(image.mean()) < 12:
            print(f"{path}: the image is (almost) black: no cards can be seen",
                  file=sys.stderr)
        if args.json:
            print(json.dumps({"image": path, "cards": [c.to_json() for c in cards]},
                             ensure_ascii=False), flush=True)
        else:
            print(f"{path}: {_summary(cards)}", flush=True)
    return 1 if failed else 0


def run_enroll(args: argparse.Namespace) -> int:
    from vision import enroll

    try:
        if args.list:
            for name in enroll.list_decks():
                deck = enroll.load_deck(name)
                m = deck.manifest
                print(f"{name}\t{len(m.get('card_list', []))} cards\t{m.get('created', '')}"
                      f"\t{m.get('source', '')}")
            return 0
        if args.remove:
            enroll.remove_deck(args.remove)
            print(f"removed deck {args.remove!r}")
            return 0
        return _enroll(args)
    except VisionError as exc:
        print(f"enroll: {exc}", file=sys.stderr)
        return 1


def _enroll(args: argparse.Namespace) -> int:
    from vision import enroll
    from vision.recognize.reader import default_detector

    cards: str | tuple[str, ...] = args.cards
    if cards not in enroll.CARD_SETS:
        from vision.cardart import parse_card

        cards = tuple("".join(parse_card(c)) for c in args.cards.split(",") if c.strip())
    frames = _open_frames(args.source)
    try:
        enroll.enrol(args.deck, frames, detect=default_detector(), cards=cards,
                     prompt=lambda m: print(m, flush=True), steady=args.steady,
                     source=args.source)
    finally:
        close = getattr(frames, "close", None)
        if close is not None:
            close()
    return 0


def _open_frames(url: str):  # type: ignore[no-untyped-def]
    """Frames from the source at `url` (vision.sources), as an iterable."""
    from vision import sources

    src = sources.open_source(url)
    return src
