"""How well stills are read on rendered phone-like photos (vision.scene.photos).

The judges read real phone photos of decks we do not have (rank only, >= 90% right,
<= 2% wrong, photos possibly resized non-uniformly); our real photos are of one deck
and our rendered benchmark (vision.evaluate.evaluate_rendered) measures the
referee's camera. This renders photos like the real ones of any decks and reads them
exactly as `evaluate_real` does (`reader.still_detector`, `read_candidates`,
`without_doubles`), scoring each card two ways:

* `ranks`: the rank only, as the judges do; a rank given alone (suit not sure) counts
  as read, as `RealReport.rank_alone`;
* `cards`: the whole card.

Cards with no index in view (a book over both corners) are not scored unless read
wrong (as evaluate_rendered); `phantoms` are readings where no card is (matched to
no card by quad or by index corner, `match_photo`). Every scored
card is kept as a `PhotoCard` record (layout, outcome, ...) so misses can be told
apart: never found ("missed"), found but unread ("unread"), rank alone ("rank"),
read wrong ("wrong": its rank; "suit": rank right, suit wrong).

Figures when written (200 photos, 30% with a block over a card; rank only):
French training decks (less guyenne-classic) seed 7: 322/399 right as taken, 327/399
all resized, 0 wrong, 0 phantoms; held-out decks seed 1234: 322/377 and 314/377, 0
wrong, 0 phantoms (photos without a block: 257/268 and 253/268). Most cards missed
lie partly under a block (the detector gives the part in view as the card).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.evaluate_match import INDEX_SHOWN, Tally, best_matches
from vision.recognize.overlap import quad_iou
from vision.recognize.patch import index_quads
from vision.scene.spec import CardTruth
from vision.types import CardSighting

#: A sighting is the card whose quad it overlaps by this IoU (best pairs first), or
#: the card whose uncovered index region its own index corner covers by INDEX_SHOWN
#: (a card in part in view, under a book or in a fan: the detector's quad may reach
#: well past the card, yet its corner read is that card's index) ...
MIN_IOU = 0.5
#: ... or whose uncovered index region lies in the sighting when this share of the
#: sighting lies on the card (the part in view found as if it were a card).
ON_CARD = 0.7

OUTCOMES = ("right", "rank", "suit", "unread", "missed", "wrong")


@dataclass(frozen=True, slots=True)
class PhotoCard:
    """One scored card of one photo and what became of it (`OUTCOMES`)."""

    photo: int
    layout: str
    deck: str
    card: str
    outcome: str
    got: str | None
    visible: float
    occluded: bool
    resized: bool


@dataclass(slots=True)
class PhotoReport:
    """Tallies over the photos (see module) and one record per scored card."""

    ranks: Tally = field(default_factory=Tally)
    cards: Tally = field(default_factory=Tally)
    phantoms: int = 0
    hidden: int = 0
    photos: int = 0
    records: list[PhotoCard] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)

    def outcomes(self, where: Callable[[PhotoCard], bool] = lambda r: True) -> Counter[str]:
        """How many cards came out each way, of the records `where` keeps."""
        return Counter(r.outcome for r in self.records if where(r))

    def rank_accuracy(self, where: Callable[[PhotoCard], bool] = lambda r: True
                      ) -> tuple[int, int, int]:
        """(rank right, rank wrong, cards) of the records `where` keeps."""
        c = self.outcomes(where)
        return (c["right"] + c["rank"] + c["suit"], c["wrong"], sum(c.values()))


def rank_of(card: str | None) -> str | None:
    """"10H" -> "10"."""
    return card[:-1] if card else None


def _area(q: np.ndarray) -> float:
    return float(cv2.contourArea(q))


def _index_shown(t: CardTruth, s: CardSighting) -> float:
    """How much of `t`'s uncovered index regions `s` shows: covered by one of `s`'s
    index corners (a quad reaching past the card), or lying in `s` when ON_CARD of
    `s` lies on the card (the part of a card in view, its corners not the card's);
    the best such share, 0 when no index of `t` is in view."""
    card = cv2.convexHull(np.asarray(t.corners, np.float32).reshape(4, 2))
    quad = cv2.convexHull(np.asarray(s.corners, np.float32).reshape(4, 2))
    on_card = cv2.intersectConvexConvex(quad, card)[0] >= ON_CARD * max(_area(quad), 1e-6)
    best = 0.0
    for r in t.index_regions:
        if not r.visible:
            continue
        region = cv2.convexHull(np.asarray(r.quad, np.float32).reshape(4, 2))
        area = max(_area(region), 1e-6)
        for q in index_quads(s.corners):
            best = max(best, cv2.intersectConvexConvex(region, cv2.convexHull(q))[0] / area)
        if on_card:
            best = max(best, cv2.intersectConvexConvex(region, quad)[0] / area)
    return best


def _match_among(truth: Sequence[CardTruth], sightings: Sequence[CardSighting],
                 which: list[int], match: list[int | None]) -> None:
    """Match the sightings `which` to the cards still unmatched in `match` (in place):
    by IoU (MIN_IOU, best pairs first), then by index corner (INDEX_SHOWN)."""
    free = [i for i, m in enumerate(match) if m is None]
    iou = [[quad_iou(truth[i].corners, sightings[j].corners) for j in which] for i in free]
    for k, j in enumerate(best_matches(iou, MIN_IOU)):
        if j is not None:
            match[free[k]] = which[j]
    used = {j for j in match if j is not None}
    pairs = sorted(((shown, i, j) for i in range(len(truth)) if match[i] is None
                    for j in which if j not in used
                    for shown in [_index_shown(truth[i], sightings[j])]
                    if shown >= INDEX_SHOWN), reverse=True)
    for _, i, j in pairs:
        if match[i] is None and j not in used:
            match[i] = j
            used.add(j)


def match_photo(truth: Sequence[CardTruth], sightings: Sequence[CardSighting]
                ) -> list[int | None]:
    """For each true card, the sighting it is matched with, or None.

    The sightings giving a card or a rank are matched first (MIN_IOU, then
    INDEX_SHOWN): a judge sees only those, and an unread sighting of a card (the
    detector may give one card twice) must not take the card from the one that read
    it, which would then count as a phantom. The unread ones are matched to the cards
    left, to tell "found but unread" from "never found"."""
    match: list[int | None] = [None] * len(truth)
    read = [j for j, s in enumerate(sightings) if s.card or s.rank]
    _match_among(truth, sightings, read, match)
    _match_among(truth, sightings, [j for j in range(len(sightings)) if j not in read],
                 match)
    return match


def outcome(truth: str, sighting: CardSighting | None) -> str:
    """What became of a card with an index in view (`OUTCOMES`)."""
    if sighting is None:
        return "missed"
    if sighting.card == truth:
        return "right"
    got = rank_of(sighting.card) or sighting.rank
    if got is None:
        return "unread"
    if got != rank_of(truth):
        return "wrong"
    return "suit" if sighting.card else "rank"


def score_photo(rep: PhotoReport, truth: Sequence[CardTruth],
                sightings: Sequence[CardSighting], *, photo: int = 0, layout: str = "",
                occluded: bool = False, resized: bool = False) -> None:
    """Add one photo's cards to `rep` (see module)."""
    match = match_photo(truth, sightings)
    rep.photos += 1
    rep.phantoms += sum(1 for j, s in enumerate(sightings)
                        if j not in match and (s.card or s.rank))
    for t, j in zip(truth, match):
        if t.face_down or t.card is None:
            continue
        s = sightings[j] if j is not None else None
        what = outcome(t.card, s)
        where = f"photo {photo} ({t.deck}, {layout})"
        got_card = s.card if s is not None else None
        got_rank = (rank_of(s.card) or s.rank) if s is not None else None
        if not t.readable:
            rep.hidden += 1
            if what in ("wrong", "suit"):  # a wrong reading counts wherever it is
                rep.cards.add(t.card, got_card, where + " covered")
                if what == "wrong":
                    rep.ranks.add(rank_of(t.card), got_rank, where + " covered")
            continue
        rep.cards.add(t.card, got_card, where)
        rep.ranks.add(rank_of(t.card), got_rank, where)
        rep.records.append(PhotoCard(photo, layout, t.deck, t.card, what,
                                     got_card or got_rank, t.visible_fraction, occluded,
                                     resized))


def evaluate_photos(clf: Any, decks: Iterable[Any], n_photos: int, seed: int = 0, *,
                    resize_share: float = 0.3, occluder: float = 0.3,
                    detect: Callable[[np.ndarray], list[Any]] | None = None
                    ) -> PhotoReport:
    """Render `n_photos` phone-like photos of `decks` (seeded) and read each through
    the stills chain (`still_detector(clf)` unless `detect` is given); see module.

    `resize_share` of the photos are resized non-uniformly (0: none, 1: all; the
    scenes are the same for any share)."""
    from vision.recognize.reader import read_candidates, still_detector, without_doubles
    from vision.scene.photos import random_photo_spec, render_photo
    from vision.scene.render import SceneRenderer

    names = [d if isinstance(d, str) else d.name for d in decks]
    det = detect or still_detector(clf)
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    rep = PhotoReport()
    for i in range(n_photos):
        spec = random_photo_spec(rng, names, resize_share=resize_share, occluder=occluder)
        image, truth = render_photo(spec, np.random.default_rng([seed, i]), renderer)
        t0 = time.perf_counter()
        sightings = without_doubles(read_candidates(clf, image, det(image)))
        rep.read_ms.append((time.perf_counter() - t0) * 1000)
        score_photo(rep, truth, sightings, photo=i, layout=spec.layout,
                    occluded=spec.occluded, resized=spec.resized)
    return rep


def report_lines(rep: PhotoReport) -> list[str]:
    """The figures as printed by bench: rank only and whole card, what became of the
    cards not read right, then rank only split by resized or not and by a book or
    board lying over a card of the photo or not."""
    c = rep.outcomes()
    lines = [f"rank only:  {rep.ranks.row()}",
             f"whole card: {rep.cards.row()}   phantoms {rep.phantoms}",
             "not right: " + ", ".join(f"{k} {c[k]}" for k in OUTCOMES[1:])
             + f"; no index in view (not scored) {rep.hidden}; read "
               f"{float(np.median(rep.read_ms)) if rep.read_ms else 0:.0f} ms/photo median"]
    splits: list[tuple[str, Callable[[PhotoCard], bool]]] = [
        ("as taken", lambda r: not r.resized), ("resized", lambda r: r.resized),
        ("no block", lambda r: not r.occluded), ("a block", lambda r: r.occluded)]
    for label, keep in splits:
        right, wrong, n = rep.rank_accuracy(keep)
        if n:
            lines.append(f"  {label:9s} rank right {right}/{n} ({right / n:.1%}), "
                         f"wrong {wrong} ({wrong / n:.1%})")
    return lines


def bench(out: Callable[[str], None] = print, photos: int = 60, seed: int = 4321,
          decks: Sequence[Any] | None = None) -> dict[str, float]:
    """Print the figures on `photos` rendered phone-like photos of `decks` (default:
    the held-out decks), half of them resized non-uniformly; returns the key figures."""
    from vision.recognize.classifier import IndexClassifier
    from vision.training.split import heldout_decks

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    names = [d if isinstance(d, str) else d.name for d in (decks or heldout_decks())]
    t0 = time.perf_counter()
    try:
        rep = evaluate_photos(IndexClassifier.load(), names, photos, seed, resize_share=0.5)
    finally:
        cv2.setNumThreads(threads)
    out(f"phone-like rendered photos of {'held-out decks' if decks is None else 'decks'} "
        f"({', '.join(names)}; "
        f"{photos} photos, 1-6 cards, seed {seed}, half resized 0.75-1.33 on one axis; "
        f"{time.perf_counter() - t0:.0f} s):")
    for line in report_lines(rep):
        out("  " + line)
    for ex in rep.ranks.wrong_examples[:3]:
        out(f"      wrong: {ex}")
    return {"photos_rank_accuracy": rep.ranks.accuracy, "photos_rank_wrong": rep.ranks.wrong_rate,
            "photos_card_accuracy": rep.cards.accuracy, "photos_card_wrong": rep.cards.wrong_rate,
            "photos_phantoms": float(rep.phantoms)}
