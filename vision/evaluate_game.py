"""How the referee's Pipeline reads a game: rendered scenes of ONE deck fed to one
Pipeline in order, several decks in turn.

Why a mode of its own: `evaluate_rendered(quads="live")` reads every scene afresh,
as a still. The referee's Pipeline keeps what one deck showed over earlier frames
(the sure black cards' suit signs, vision.recognize.gamesigns), so what it reads in
a frame depends on the game so far; only a sequence of one deck's scenes measures
that. `keep_signs=False` reads the same scenes as the default Pipeline does (no
signs kept: each frame on its own): the per-frame figure to compare with.

Each scene is a new table (random layout), read with the change cache forgotten
(`Pipeline.reset`: a new layout is no frame-to-frame change); a new deck starts a
new game (`reset_deck`). Tallies as vision.evaluate.evaluate_rendered's live mode.

`evaluate_settled_game`: the same games with each scene shown for several frames, so
that the Pipeline's settled look (vision.settle) happens: the live reading (the
scene's first frame) and the settled one (its last) tallied side by side.

`evaluate_laid_game`: one table per deck on which the scene's cards are laid one at
a time (the same camera, light and table: one card more each step), each step shown
for several frames: what a change frame reads of the cards that stayed, after the
last step's settled look.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.evaluate import RenderedReport, tally_scene
from vision.evaluate_match import match_rendered
from vision.types import Frame

if TYPE_CHECKING:
    from vision.settle import SettleConfig


def evaluate_live_game(clf: Any, decks: Iterable[Any], n_scenes: int, seed: int = 0, *,
                       keep_signs: bool = True, n_cards: int = 8, overlap: float = 0.4,
                       face_down: float = 0.1) -> RenderedReport:
    """`n_scenes` rendered scenes of EACH deck of `decks` (DeckArts or names, in the
    order given), all of a deck read by one Pipeline(clf) in a row (a game), the
    next deck after `reset_deck`; one random stream (`seed`) for all, so the same
    arguments give the same scenes with and without `keep_signs`."""
    from vision.pipeline import Pipeline

    rep = RenderedReport()
    pipe = Pipeline(clf, keep_signs=keep_signs)
    games = _deck_games(pipe, decks, n_scenes, seed, n_cards, overlap, face_down)
    for seq, (name, i, image, truth) in enumerate(games):
        rep.scenes += 1
        read = pipe.read(Frame(image, seq, seq * 0.1)).cards
        match = match_rendered(truth, read)  # scored as evaluate_rendered's
        tally_scene(rep, truth, read, match, f"{name} scene {i}")
    return rep


def _deck_games(pipe: Any, decks: Iterable[Any], n_scenes: int, seed: int, n_cards: int,
                overlap: float, face_down: float) -> Iterator[tuple[str, int, Any, Any]]:
    """(deck name, scene number, image, truth): `n_scenes` random scenes of each
    deck in turn, from one random stream (`seed`), `pipe` told of each new deck
    (reset_deck: a new game) and each new table (reset: a new layout is no
    frame-to-frame change)."""
    from vision.scene import SceneRenderer, random_scene_spec

    names = [d if isinstance(d, str) else d.name for d in decks]
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    for name in names:
        pipe.reset_deck()
        for i in range(n_scenes):
            spec = random_scene_spec(rng, [name], n_cards, overlap=overlap, face_down=face_down)
            image, truth = renderer.render(spec, rng)
            pipe.reset()
            yield name, i, image, truth


def evaluate_settled_game(clf: Any, decks: Iterable[Any], n_scenes: int, seed: int = 0, *,
                          settle: SettleConfig | None = None, keep_signs: bool = False,
                          n_cards: int = 8, overlap: float = 0.4, face_down: float = 0.1
                          ) -> tuple[RenderedReport, RenderedReport]:
    """(live, settled): `evaluate_live_game`'s scenes (same arguments, same scenes),
    each shown to a Pipeline(clf, settle=settle) for `settle.after + 1` frames (the
    same image again: an unchanged frame), the first frame's reading tallied in
    `live`, the last one's (the settled look's, inline) in `settled`.
    `keep_signs` defaults to off here: the default Pipeline's reading."""
    from vision.pipeline import Pipeline
    from vision.settle import SettleConfig

    cfg = settle or SettleConfig()
    if not cfg.inline:
        raise ValueError("evaluate_settled_game takes the settled look inline")
    live, settled = RenderedReport(), RenderedReport()
    pipe = Pipeline(clf, keep_signs=keep_signs, settle=cfg)
    seq = 0
    for name, i, image, truth in _deck_games(pipe, decks, n_scenes, seed, n_cards, overlap,
                                             face_down):
        readings = []
        for _ in range(cfg.after + 1):
            readings.append(pipe.read(Frame(image, seq, seq / 30)))
            seq += 1
        for rep, r in ((live, readings[0]), (settled, readings[-1])):
            rep.scenes += 1
            tally_scene(rep, truth, r.cards, match_rendered(truth, r.cards),
                        f"{name} scene {i}")
    return live, settled


@dataclass(slots=True)
class LaidReport:
    """`changed`: the frames where a card was laid (the live read, cards kept from
    the last reading where nothing changed); `settled`: the steps' settled
    readings; `lost`: cards a step's settled reading gave that the next change
    frame did not (each a card gone and back for the referee, unless the new card
    covers it)."""

    changed: RenderedReport = field(default_factory=RenderedReport)
    settled: RenderedReport = field(default_factory=RenderedReport)
    lost: int = 0


def evaluate_laid_game(clf: Any, decks: Iterable[Any], seed: int = 0, *,
                       settle: SettleConfig | None = None, n_cards: int = 8,
                       overlap: float = 0.4, face_down: float = 0.1) -> LaidReport:
    """For each deck, one random scene (as evaluate_live_game's) laid card by card
    (bottom first, each step rendered with the same noise seed), each step shown to
    one Pipeline(clf, settle=settle) for `settle.after + 1` frames."""
    from vision.pipeline import Pipeline
    from vision.scene import SceneRenderer, random_scene_spec
    from vision.settle import SettleConfig

    cfg = settle or SettleConfig()
    names = [d if isinstance(d, str) else d.name for d in decks]
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer()
    rep = LaidReport()
    seq = 0
    for name in names:
        spec = random_scene_spec(rng, [name], n_cards, overlap=overlap, face_down=face_down)
        noise = int(rng.integers(1 << 30))
        pipe = Pipeline(clf, settle=cfg)
        before: set[str] = set()
        for k in range(1, len(spec.cards) + 1):
            image, truth = renderer.render(replace(spec, cards=spec.cards[:k]),
                                           np.random.default_rng(noise))
            reads = []
            for _ in range(cfg.after + 1):
                reads.append(pipe.read(Frame(image, seq, seq / 30)))
                seq += 1
            for part, r in ((rep.changed, reads[0]), (rep.settled, reads[-1])):
                part.scenes += 1
                tally_scene(part, truth, r.cards, match_rendered(truth, r.cards),
                            f"{name} step {k}")
            rep.lost += len(before - {c.card for c in reads[0].cards if c.card})
            before = {c.card for c in reads[-1].cards if c.card}
    return rep
