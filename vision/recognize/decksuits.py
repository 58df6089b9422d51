"""A suit the network is unsure of, told by the frame's own sure cards of that deck.

Why: on a deck it never saw, the network often reads a card's rank surely and its
colour surely but cannot tell this deck's spade from its club at 8-10 px (held-out
gnome/atlasnye; the calibration deck gnome/plastic's clubs read as spades, which is
why the spade bars are steep). A table is played with ONE deck, so the cards of the
same frame read surely show what this deck's spade and club look like: the suit
sign (the small sign under the rank glyph of the upright index patch) of an unsure
card is compared with the signs of the sure ones.

How (`settle_suits`, called by reader.read_candidates on the cards still unread,
after the pips, second opinion and second look, before `one_of_each`):
- a card asked about: its corners name one rank, past the reader's bars (the
  verdict's rank), its colour black for sure (pooled spade + club probability >=
  COLOUR_BAR), "not an index" under `max_none`;
- its sign and the examples (`SuitSigns`, `frame_signs`): each corner reading the
  rank of a card read surely as a club or spade whose sign stands alone on paper
  (`sign_blob`: the largest ink blob under the rank glyph, clear of the patch's
  sides, of other ink and of the glyph), as a silhouette (`sign_descriptor`);
- the frame's signs must tell the two suits apart: examples of BOTH (one suit's
  examples alone prove nothing: a club and a spade may look alike at this size),
  and each example card whose suit has another example card told right by the
  others (`_tell_apart`);
- every sign of the card correlates with EVERY example of one suit by MARGIN more
  than with ANY example of the other (`tell_suit`: an odd example can only block),
  and the network's own pooled probability of that suit is not under NET_FLOOR.
Cheapest first: nothing is cut unless a card is asked about and both suits are
among the sure cards. Red suits would work alike but gained nothing (PAIRS).

The referee sees one deck all game: the live Pipeline can keep the sure signs of
earlier frames (opt-in `keep_signs=True`, see vision/pipeline.py for why not by
default; `found=`, gamesigns.GameSigns: newest few cards per suit and rank kind)
and pass them as `known`. Kept signs are examples like the frame's, under
the same rules (an odd one can only block: the NEAREST-th best of A against the
best of B), and three more: a card asked about is not shown kept signs of its own
rank (a wrong sure sighting of this very card, kept, would match it best and vouch
for the wrong suit again); a card sure in this frame stands with this frame's
signs only (its kept copies would count as more examples of one card); and the
trust check (`_tell_apart`) leaves out the example cards the others do not tell
right, which stay examples all the same (one wrong sure card kept would otherwise
distrust every frame until it aged out; as an example it can still only block).

Figures: see vision/recognize/README.md.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognize.readings import Calibration, CardReading, Reading, joint_prob
from vision.types import SUITS

#: The sign's silhouette is cut from its darkness enlarged SIGN_ZOOM times and
#: compared at SIGN_PX x SIGN_PX.
SIGN_ZOOM = 4
SIGN_PX = 16
#: A sign narrower or lower than this (patch pixels) shows no shape.
MIN_SIGN_PX = 4
_GROW = np.ones((3, 3), np.uint8)
#: The suits told apart by their signs. Red (("D", "H")) works the same way but was
#: left out: 0 cards gained on the development sets (the network tells hearts from
#: diamonds), and its one wrong suit came at a smaller margin than black's worst.
PAIRS: tuple[tuple[str, str], ...] = (("C", "S"),)
#: Pooled probability of the card's colour (its two suits' sum) the network must give.
#: (Of 4,909 red cards in the development scenes none reached 0.38 for black.)
COLOUR_BAR = 0.9
#: A sign is given suit A when it correlates with EVERY example of A by at least
#: MARGIN more than with ANY example of B (and with each of A's at least MIN_LIKE):
#: so an odd example (a badly cut sign) can only block, never decide. The worst
#: wrong suit's score on the development sets was 0.13 (a simplistic club nearer to
#: the frame's four spades than to its one club); 0.2 keeps a margin of half that.
MARGIN = 0.2
MIN_LIKE = 0.5
#: With many examples (signs kept over a game), A's NEAREST best stand for A: a sign
#: need not be like every blurred example ever kept, only like NEAREST of them.
NEAREST = 4
#: Each example card must be told right by the others by this much, or the frame's
#: signs are not trusted.
SELF_MARGIN = 0.0
#: The network's pooled probability of the suit given must reach this: the sign may
#: settle the network's doubt, never overrule its certainty.
NET_FLOOR = 0.02


@dataclass(frozen=True, slots=True)
class SuitSigns:
    """Suit-sign descriptors of one deck: (card, suit, descriptor) each, a card giving
    one per corner. Plain data: a caller may keep a game's and merge each frame's."""

    signs: tuple[tuple[str, str, np.ndarray], ...] = ()

    def merged(self, other: SuitSigns | None) -> SuitSigns:
        """Both sets of signs in one."""
        return self if other is None else SuitSigns(self.signs + other.signs)

    def of(self, suit: str, but: str | None = None) -> list[tuple[str, np.ndarray]]:
        """(card, descriptor) of `suit`'s signs, less those of card `but`."""
        return [(c, d) for c, s, d in self.signs if s == suit and c != but]


def darkness(patch: np.ndarray) -> np.ndarray:
    """0 (paper: the patch's 90th percentile of its darkest channel) .. 1 (its darkest
    pixel) per pixel of an upright index patch; all 0 with too little contrast."""
    grey = patch if patch.ndim == 2 else cv2.min(cv2.min(patch[:, :, 0], patch[:, :, 1]),
                                                 patch[:, :, 2])
    flat = grey.ravel()
    k = 0.9 * (flat.size - 1)  # (np.percentile's linear rule, by partition: faster)
    lo = int(k)
    part = np.partition(flat, (lo, min(lo + 1, flat.size - 1)))
    paper = float(part[lo]) + (k - lo) * (float(part[min(lo + 1, flat.size - 1)]) - float(part[lo]))
    ink = float(flat.min())
    if paper - ink < 40.0:
        return np.zeros(grey.shape, np.float32)
    return np.clip((paper - grey.astype(np.float32)) / (paper - ink), 0.0, 1.0)


def sign_blob(patch: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """The suit sign under the rank glyph: (its darkness map masked to it, bbox x, y,
    w, h), or None when it cannot be told apart (blur merging it with the glyph, no
    ink)."""
    d = darkness(patch)
    mask = (d >= 0.5).astype(np.uint8)
    n, lab, stats, cent = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = mask.shape
    edge = set(lab[0].tolist()) | set(lab[:, 0].tolist())
    comps = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= 4 and k not in edge]
    if len(comps) < 2:  # (the glyph and the sign at least)
        return None
    upper = [k for k in comps if cent[k][1] < 0.5 * h]
    if not upper:
        return None
    glyph = max(upper, key=lambda k: stats[k, cv2.CC_STAT_AREA])
    gx = cent[glyph][0]
    gbottom = max(stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT] for k in upper
                  if stats[k, cv2.CC_STAT_AREA] >= 0.3 * stats[glyph, cv2.CC_STAT_AREA])
    below = [k for k in comps if stats[k, cv2.CC_STAT_TOP] >= gbottom - 1
             and abs(cent[k][0] - gx) <= 0.3 * w]
    if not below:
        return None
    sign = max(below, key=lambda k: stats[k, cv2.CC_STAT_AREA])
    x, y, bw, bh = (int(stats[sign, i]) for i in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP,
                                                  cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    keep = cv2.dilate((lab == sign).astype(np.uint8), _GROW) > 0
    if not _clean_sign(d, keep, (x, y, bw, bh)):
        return None
    x0, y0 = max(x - 1, 0), max(y - 1, 0)
    x1, y1 = min(x + bw + 1, w), min(y + bh + 1, h)
    return (d * keep)[y0:y1, x0:x1], (x0, y0, x1 - x0, y1 - y0)


def _clean_sign(d: np.ndarray, keep: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Is the blob a whole sign (or one cut by the patch's lower edge, as decks with
    large indices print it) standing alone on paper?

    Why: a blob cut by the patch's side, run into a pip or the card's picture, or
    blurred into a smudge has the shape of none of the deck's signs, and comparing it
    with them tells nothing (worse: something arbitrary)."""
    h, w = d.shape
    x, y, bw, bh = box
    cut = y + bh >= h
    if x <= 0 or y <= 0 or x + bw >= w or bw < MIN_SIGN_PX or bh < MIN_SIGN_PX:
        return False
    if not (bw <= 0.7 * w and (0.3 if cut else 0.6) <= bh / bw <= 1.6):
        return False
    near = d[y - 1:y + bh + 1, x - 1:x + bw + 1] * ~keep[y - 1:y + bh + 1, x - 1:x + bw + 1]
    if near.size and float(near.max()) >= 0.5:  # (no other ink in the sign's box)
        return False
    return float(d[keep].max()) >= 0.8


def sign_descriptor(patch: np.ndarray) -> np.ndarray | None:
    """The sign's silhouette, SIGN_PX square, zero mean and unit norm (or None: no
    clean sign).

    The blob's darkness is enlarged SIGN_ZOOM times (cubic) and cut at half ink, so
    that its outline falls between pixels, cropped to it and padded square (its
    proportions kept). Why a silhouette, not the darkness: at 8-10 px both suits
    are a dark blob, and correlating darkness mostly measures their common mass (a
    club correlated better with the frame's spades than with its one club); the
    outline (a spade's point against a club's round lobe and side notches) is what
    differs."""
    found = sign_blob(patch)
    if found is None:
        return None
    blob = found[0]
    big = cv2.resize(blob, (blob.shape[1] * SIGN_ZOOM, blob.shape[0] * SIGN_ZOOM),
                     interpolation=cv2.INTER_CUBIC) >= 0.5
    ys, xs = np.nonzero(big)
    if len(ys) == 0:
        return None
    sil = big[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32)
    hh, ww = sil.shape
    side = max(hh, ww)
    sq = np.zeros((side, side), np.float32)
    sq[(side - hh) // 2:(side - hh) // 2 + hh, (side - ww) // 2:(side - ww) // 2 + ww] = sil
    v = cv2.resize(sq, (SIGN_PX, SIGN_PX), interpolation=cv2.INTER_AREA).ravel()
    v = v - v.mean()
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 1e-6 else None


def frame_signs(verdicts: Sequence[CardReading | None], cuts: Sequence[Sequence[np.ndarray]],
                firsts: Sequence[Sequence[Reading]], skip: Collection[str] = ()) -> SuitSigns:
    """The signs of a frame's sure cards (black ones: PAIRS): each corner reading the
    card's rank (whatever suit it reads: a club the pips gave shows a club's sign);
    cards in `skip` (signs kept already) are not cut."""
    out = []
    told = {s for pair in PAIRS for s in pair}
    for v, ps, rs in zip(verdicts, cuts, firsts):
        if v is None or v.card is None or v.rank is None or v.suit not in told \
                or v.card in skip:
            continue
        for p, r in zip(ps, rs):
            if r.rank != v.rank:
                continue
            d = sign_descriptor(p)
            if d is not None:
                out.append((v.card, v.suit, d))
    return SuitSigns(tuple(out))


def settle_suits(verdicts: list[CardReading | None], cuts: Sequence[Sequence[np.ndarray]],
                 firsts: Sequence[Sequence[Reading]], calib: Calibration,
                 known: SuitSigns | None = None, found: list[SuitSigns] | None = None
                 ) -> list[CardReading | None]:
    """`verdicts` with the unread cards' suits told by their signs where sure (module).

    `cuts[i]`/`firsts[i]`: candidate i's visible corner patches and the network's
    readings of them; `known`: signs kept from earlier frames of the same deck
    (gamesigns.GameSigns), of which a card asked about is never shown those kept
    under its own rank (its own earlier sighting, had it been read wrong, would
    vouch for the same wrong suit); a card of `known` sure in this frame too stands
    with this frame's signs only. `found`, when given, gets one SuitSigns appended:
    this frame's sure cards' signs, less the cards of `known` (the caller's to keep).
    """
    held = frozenset(c for c, _, _ in known.signs) if known is not None else frozenset()
    pairs = {i: sure_pair(v, firsts[i], calib) for i, v in enumerate(verdicts)}
    wanted = {i: pair for i, pair in pairs.items() if pair is not None}
    if not wanted:  # (the common case costs this loop only)
        if found is not None:
            found.append(frame_signs(verdicts, cuts, firsts, skip=held))
        return verdicts
    # Cheapest first: both suits among the sure cards, then the card's own sign,
    # only then the sure cards' signs.
    sure = {v.suit for v in verdicts if v is not None and v.card is not None}
    sure |= {s for _, s, _ in known.signs} if known is not None else set()
    descs = {i: [d for p, r in zip(cuts[i], firsts[i]) if r.rank == verdicts[i].rank  # type: ignore
                 for d in [sign_descriptor(p)] if d is not None]
             for i, pair in wanted.items() if sure.issuperset(pair)}
    if not any(descs.values()):
        if found is not None:
            found.append(frame_signs(verdicts, cuts, firsts, skip=held))
        return verdicts
    own = frame_signs(verdicts, cuts, firsts)
    if found is not None:
        found.append(SuitSigns(tuple(s for s in own.signs if s[0] not in held)))
    out = list(verdicts)
    trusted: dict[tuple[tuple[str, str], str], tuple[SuitSigns, bool]] = {}
    for i, mine in descs.items():
        v, pair = verdicts[i], wanted[i]
        assert v is not None and v.rank is not None
        if not mine:
            continue
        key = (pair, v.rank)
        if key not in trusted:
            signs = _with_kept(own, known, {f"{v.rank}{s}" for s in pair})
            kept = len(signs.signs) > len(own.signs)
            trusted[key] = signs, _tell_apart(signs, pair, lenient=kept)
        signs, ok = trusted[key]
        suit = tell_suit(signs, mine, pair) if ok else None
        if suit is None or _net_prob(firsts[i], v.rank, suit) < NET_FLOOR:
            continue
        rank_p = joint_prob([r.rank_prob for r in firsts[i] if r.rank == v.rank])
        out[i] = CardReading(f"{v.rank}{suit}", rank_p, v.rank, suit)
    return out


def _with_kept(own: SuitSigns, known: SuitSigns | None, but: set[str]) -> SuitSigns:
    """The frame's signs and the kept ones, less kept ones of cards in `but` and of
    cards the frame shows itself (one sighting per card: a card's copies must not
    pass for several examples)."""
    if known is None:
        return own
    mine = {c for c, _, _ in own.signs} | but
    return SuitSigns(own.signs + tuple(s for s in known.signs if s[0] not in mine))


def sure_pair(v: CardReading | None, readings: Sequence[Reading], calib: Calibration
              ) -> tuple[str, str] | None:
    """The suit pair (PAIRS) of an unread card whose rank and colour are sure, else
    None (also the gate of signsuit.py's witness)."""
    if v is None or v.card is not None or v.rank is None:
        return None
    votes = [r for r in readings if r.rank is not None]
    if not votes or any(r.rank != v.rank or r.probs is None for r in votes):
        return None
    if min(r.none_prob for r in votes) > calib.max_none:
        return None
    for pair in PAIRS:
        idx = [SUITS.index(s) for s in pair]
        colour = joint_prob([float(r.probs[1][idx].sum()) for r in votes  # type: ignore
                             ])
        if colour >= COLOUR_BAR:
            return pair
    return None


def _net_prob(readings: Sequence[Reading], rank: str, suit: str) -> float:
    """The network's pooled probability of `suit` over the corners reading `rank`."""
    k = SUITS.index(suit)
    return joint_prob([float(r.probs[1][k]) for r in readings  # type: ignore[index]
                       if r.rank == rank and r.probs is not None])


def tell_suit(signs: SuitSigns, descs: Sequence[np.ndarray], pair: tuple[str, str],
              but: str | None = None, margin: float | None = None,
              min_like: float | None = None) -> str | None:
    """The suit of `pair` every sign in `descs` is clearly more like (examples of card
    `but` left out), or None: no sign, no examples of one suit, too close a call."""
    margin = MARGIN if margin is None else margin
    min_like = MIN_LIKE if min_like is None else min_like
    if not descs:
        return None
    ex = {s: np.array([d for _, d in signs.of(s, but)]) for s in pair}
    if any(len(e) == 0 for e in ex.values()):
        return None
    got = set()
    for d in descs:
        like = {s: np.sort(e @ d)[::-1] for s, e in ex.items()}
        for a, b in (pair, pair[::-1]):
            near = float(like[a][:NEAREST][-1])  # (its NEAREST-th best, or its worst)
            if near - float(like[b][0]) >= margin and near >= min_like:
                got.add(a)
                break
        else:
            return None
    return got.pop() if len(got) == 1 else None


def _tell_apart(signs: SuitSigns, pair: tuple[str, str], lenient: bool = False) -> bool:
    """Do the signs tell `pair`'s suits apart: examples of both, and each example card
    whose suit shows another card told right by the others (SELF_MARGIN)?

    `lenient` (signs kept over a game: many cards, many frames): the cards that are
    not told right left out, the others must be, with examples of both suits still.
    Why not all: one wrong sure card kept (a club read surely as a spade) would
    distrust every later frame until it aged out. The odd cards stay examples for
    `tell_suit` all the same, where they can only block."""
    if not all(signs.of(s) for s in pair):
        return False
    odd = _odd_ones(signs, pair, first=not lenient)
    if not odd:
        return True
    if not lenient:
        return False
    rest = SuitSigns(tuple(x for x in signs.signs if x[0] not in odd))
    return _tell_apart(rest, pair)


def _odd_ones(signs: SuitSigns, pair: tuple[str, str], first: bool = False) -> set[str]:
    """The example cards whose suit shows other cards that do not tell them right
    (SELF_MARGIN): all of them, or the first found when `first`."""
    odd: set[str] = set()
    for s in pair:
        cards = {c for c, _ in signs.of(s)}
        if len(cards) < 2:
            continue
        for c in sorted(cards):
            descs = [d for c2, d in signs.of(s) if c2 == c]
            if tell_suit(signs, descs, pair, but=c, margin=SELF_MARGIN, min_like=-1.0) != s:
                odd.add(c)
                if first:
                    return odd
    return odd
