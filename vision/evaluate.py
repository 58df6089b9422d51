"""How well the recogniser reads cards: accuracy, wrong readings, abstentions.

Two measurements, used by the tests (small samples, seconds) and `make bench`
(bigger samples):

* `evaluate_rendered`: scenes from vision.scene of decks held out from training
  (vision.training.split.HELDOUT_DECKS), overlapping pairs included. Cards are read
  either from their true quads (`quads="truth"`: the recogniser alone) or from the
  detector's (`quads="detect"`: the whole chain; unmatched cards count as abstained;
  sightings are matched to true cards by IoU, then a read sighting still unmatched
  to the card whose visible index corner it lies on: match_rendered).
* `evaluate_real`: the real photos in ../shared/data/real-photos-ranks (rank labels
  only; each box holds what is seen of a card): labelled boxes are matched to
  detections by IoU, and a box of a card mostly covered to the sighting holding it
  (match_real).

A wrong reading is far worse than an abstention, so the two are always reported apart.
The counting and matching live in evaluate_match.py, the real photos in
evaluate_real.py, the bench's timings in evaluate_timing.py (their names that tests
import from here still are: `__all__`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.evaluate_match import INDEX_SHOWN, Tally, best_matches, match_real, match_rendered
from vision.evaluate_real import REAL_PHOTOS, RealReport, evaluate_real, real_labels, stretched
from vision.evaluate_timing import time_classify, time_pips, time_second_opinion
from vision.recognize.classifier import IndexClassifier
from vision.recognize.reader import read_candidates, without_doubles

#: With this module's own names, those of evaluate_match.py and evaluate_real.py that
#: tests and scripts import from here, as before they moved there.
__all__ = [
    "INDEX_SHOWN", "REAL_PHOTOS", "RealReport", "RenderedReport", "Tally", "bench",
    "best_matches", "evaluate_real", "evaluate_rendered", "live_detector", "match_real",
    "match_rendered", "real_labels", "stretched", "tally_scene",
]


@dataclass(slots=True)
class RenderedReport:
    """`all` face-up cards with a visible index; `overlapped` those partly covered;
    `backs_read` counts face-down cards wrongly given a card; `phantoms` readings of
    detections matching no card."""

    all: Tally = field(default_factory=Tally)
    overlapped: Tally = field(default_factory=Tally)
    backs: int = 0
    backs_read: int = 0
    phantoms: int = 0
    scenes: int = 0
    # where each back read and each phantom was (measure.py -v lists them to trace)
    back_examples: list[str] = field(default_factory=list)
    phantom_examples: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _TruthCandidate:
    """A ground-truth card dressed as a detector candidate."""

    corners: Any
    face_down: bool
    index_visible: tuple[bool, bool]
    index_patches: tuple[np.ndarray, ...] | None = None
    visible: float = 1.0  # share of the card not covered (as the detector's `visible`)


def truth_candidates(image: np.ndarray, truth: Sequence[Any]) -> list[_TruthCandidate]:
    """Each true card of a rendered `image` shown to the reader as a detector
    candidate: its true quad, and patches cut only at its index corners in view
    (what `evaluate_rendered(quads="truth")` and the tracers read)."""
    from vision.recognize.patch import extract_index_patches

    out = []
    for t in truth:
        vis: Any = tuple(r.visible for r in t.index_regions) or (False, False)
        patches = None
        if not t.face_down:
            patches = tuple(p for p, v in zip(extract_index_patches(image, t.corners), vis) if v)
        out.append(_TruthCandidate(t.corners, t.face_down, vis, patches, t.visible_fraction))
    return out


def live_detector() -> Callable[[np.ndarray], list[Any]]:
    """The live pipeline's detection (`Pipeline` reads its candidates with
    `read_candidates`, then `without_doubles`, as evaluate_rendered does)."""
    from vision.detect import detect_cards
    from vision.pipeline import LIVE_DETECTOR

    def detect(image: np.ndarray) -> list[Any]:
        return detect_cards(image, LIVE_DETECTOR)

    return detect


def rendered_scenes(decks: Iterable[Any], n_scenes: int, seed: int = 0, *,
                    n_cards: int = 8, overlap: float = 0.4, face_down: float = 0.1
                    ) -> Iterator[tuple[np.ndarray, list[Any]]]:
    """(image, truth) of each of `n_scenes` random table scenes of `decks` (names or
    decks), drawn from `seed` exactly as evaluate_rendered draws them, so a tracer or
    a test sees the scene a measurement counted."""
    from vision.scene import SceneRenderer, random_scene_spec

    names = [d if isinstance(d, str) else d.name for d in decks]
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    for _ in range(n_scenes):
        spec = random_scene_spec(rng, names, n_cards, overlap=overlap, face_down=face_down)
        yield renderer.render(spec, rng)


def evaluate_rendered(clf: IndexClassifier, decks: Iterable[Any], n_scenes: int,
                      seed: int = 0, *, n_cards: int = 8, overlap: float = 0.4,
                      face_down: float = 0.1, quads: str = "truth",
                      detect: Callable[[np.ndarray], list[Any]] | None = None
                      ) -> RenderedReport:
    """Read `n_scenes` rendered scenes of `decks` and tally the outcomes (see module).

    `quads`: "truth" (the recogniser alone, on the true quads), "detect" (the stills
    chain: `still_detector`, as `cardtable recognize`) or "live" (what the referee's
    `vision.pipeline.Pipeline` reads from a frame: its detector, none of the stills
    steps); `detect` overrides the detector of the last two."""
    rep = RenderedReport()
    if quads == "detect" and detect is None:
        from vision.recognize.reader import still_detector

        detect = still_detector(clf)
    if quads == "live" and detect is None:
        detect = live_detector()
    scenes = rendered_scenes(decks, n_scenes, seed, n_cards=n_cards, overlap=overlap,
                             face_down=face_down)
    for i, (image, truth) in enumerate(scenes):
        rep.scenes += 1
        shown: list[Any] = []  # what the reader is shown, a frame at a time as live
        match: list[int | None] = []  # truth[k] is shown[match[k]]
        if quads == "truth":
            shown = truth_candidates(image, truth)
            match = list(range(len(shown)))
        else:
            assert detect is not None
            shown = detect(image)
        # (the live Pipeline reads no lattice, no signs at moved cuts, no zoom: stills only)
        stills = quads != "live"
        read = read_candidates(clf, image, shown, lattice=stills, sign_veto=stills,
                               zoom=stills)
        if quads != "truth":  # as read_image reports them
            read = without_doubles(read)
            match = match_rendered(truth, read)
        tally_scene(rep, truth, read, match, f"scene {i}")
    return rep


def tally_scene(rep: RenderedReport, truth: Sequence[Any], read: Sequence[Any],
                match: Sequence[int | None], scene: str) -> None:
    """Count one scene's readings into `rep`: `truth[k]` was read as `read[match[k]]`
    (None: not found); a card read where no true card lies is a phantom."""
    for j, s in enumerate(read):
        if j not in match and s.card:
            rep.phantoms += 1
            rep.phantom_examples.append(f"{scene}: read {s.card}")
    pairs = [(t, read[j] if j is not None else None) for t, j in zip(truth, match)]
    for t, sighting in pairs:
        got = sighting.card if sighting is not None else None
        if t.face_down:
            rep.backs += 1
            if got is not None:
                rep.backs_read += 1
                rep.back_examples.append(f"{scene} ({t.deck}): back of {t.card} read {got}")
            continue
        if not any(r.visible for r in t.index_regions):
            if got is not None and got != t.card:
                rep.all.add(t.card, got, f"{scene} ({t.deck}, covered)")
            continue
        where = f"{scene} ({t.deck})"
        rep.all.add(t.card, got, where)
        if t.visible_fraction < 0.95:
            rep.overlapped.add(t.card, got, where)


def bench(out: Callable[[str], None] = print, scenes: int = 60, real_limit: int | None = None
          ) -> dict[str, float]:
    """The recognition part of `make bench`: prints a table, returns the key figures.

    Rendered scenes of the held-out decks (8 cards, 40% overlapping), read from true
    quads (the recogniser alone), from detected ones (the whole stills chain) and as
    the live pipeline reads a frame (its detector, no stills steps: what the referee
    sees); then the real test photos (rank only).
    """
    import time

    from vision.training.split import heldout_decks

    clf = IndexClassifier.load()
    decks = heldout_decks()
    figures: dict[str, float] = {}
    med, best = time_classify(clf)
    figures["classify_16_ms"] = med
    out(f"index classifier ({clf.model_path.name}, "
        f"{clf.model_path.stat().st_size / 1e6:.2f} MB): 16 patches (8 cards) in "
        f"{med:.1f} ms median, {best:.1f} ms best, one thread")
    if clf.fallback is not None:
        med, best = time_second_opinion(clf)
        figures["second_opinion_2_ms"] = med
        out(f"second opinion ({', '.join(clf.fallback.member_names)}, the cards the first "
            f"network leaves unread): 2 patches (a card's corners) in {med:.2f} ms median, "
            f"{best:.2f} ms best, one thread")
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        p_all, p_yes, p_no, p_n = time_pips(decks)
    finally:
        cv2.setNumThreads(threads)
    figures["pips_ms"] = p_all
    out(f"pip count of a whole card (number cards' second witness, pipcheck.py): "
        f"{p_all:.2f} ms median over {p_n} cards ({p_yes:.2f} counted, {p_no:.2f} "
        f"refused), one thread")
    out(f"recognition on rendered scenes of held-out decks "
        f"({', '.join(d.name for d in decks)}), {scenes} scenes x 8 cards:")
    for mode in ("truth", "detect", "live"):
        t0 = time.perf_counter()
        rep = evaluate_rendered(clf, decks, scenes, seed=1234, quads=mode)
        out(f"  {mode + ' quads':12s} all        {rep.all.row()}")
        out(f"  {'':12s} overlapped {rep.overlapped.row()}")
        out(f"  {'':12s} backs read as a card: {rep.backs_read}/{rep.backs}; "
            f"phantom cards: {rep.phantoms}  ({time.perf_counter() - t0:.0f} s)")
        for ex in rep.all.wrong_examples[:5]:
            out(f"      wrong: {ex}")
        figures[f"rendered_{mode}_accuracy"] = rep.all.accuracy
        figures[f"rendered_{mode}_wrong"] = rep.all.wrong_rate
    if (REAL_PHOTOS / "images").is_dir():
        out("real photos (images/test, rank only), as they are and resized non-uniformly "
            "(width x height), as judges' photos may be:")
        for sx, sy in ((1.0, 1.0), (0.8, 1.0), (1.0, 0.8)):
            t0 = time.perf_counter()
            real = evaluate_real(clf, limit=real_limit, stretch=(sx, sy))
            key = "real" if (sx, sy) == (1.0, 1.0) else f"real_stretch_{sx}x{sy}"
            out(f"  {sx:.1f} x {sy:.1f}, {real.images} photos: {real.ranks.row()}  missed by "
                f"detector {real.missed}  ({time.perf_counter() - t0:.0f} s)")
            out(f"  {'':10s} rank alone too: {real.rank_alone.row()}")
            for ex in real.ranks.wrong_examples[:3]:
                out(f"      wrong: {ex}")
            figures[f"{key}_accuracy"] = real.ranks.accuracy
            figures[f"{key}_wrong"] = real.ranks.wrong_rate
            figures[f"{key}_rank_alone_accuracy"] = real.rank_alone.accuracy
            figures[f"{key}_rank_alone_wrong"] = real.rank_alone.wrong_rate
    else:
        out(f"real photos: not found at {REAL_PHOTOS}")
    return figures
