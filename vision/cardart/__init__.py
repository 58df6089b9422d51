"""Card art from Debian's card-game packages, rendered to images on demand.

Training, the synthetic scene renderer and the tests all need pictures of real card
designs. Debian ships about 45 SVG decks (`gnome-cards-data` for AisleRiot,
`kdegames-card-data-kf5` for KPat). They are GPL/LGPL, so we never commit a rendered
image: `render_card` runs `rsvg-convert` (package `librsvg2-bin`) the first time a
card is asked for at a given height and keeps the PNG in a disk cache
(`$CARDTABLE_CACHE/cardart`, default `~/.cache/cardtable/cardart`).

Each deck is described by a `DeckArt`: where it comes from, its licence, and its
*pattern*, i.e. what its corner indices look like (`french`: A K Q J with
French suits; `russian`: Cyrillic Т К Д В; `foreign-index`: French suits but German,
French or Italian letters; `german-suited`/`swiss-suited`: other suit signs). The
recogniser's "out of the box" decks are the `french` ones; the others are there for
enrolment tests and for hard negatives.

>>> deck = find_deck("gnome/anglo")            # doctest: +SKIP
>>> render_card(deck, "QH", 300).shape         # doctest: +SKIP
(300, 200, 4)
"""

from vision.cardart.decks import (
                                  ALL_CARDS,
                                  EXCLUDED_DECKS,
                                  GNOME_DIR,
                                  KDE_DIR,
                                  CardArtError,
                                  CardArtUnavailable,
                                  DeckArt,
                                  Licence,
                                  Pattern,
                                  RenderFailed,
                                  UnknownCard,
                                  UnknownDeck,
                                  find_deck,
                                  list_decks,
                                  parse_card,
)
from vision.cardart.render import (
                                  ArtCache,
                                  _render_element,
                                  cache_dir,
                                  prerender,
                                  render_back,
                                  render_card,
)

__all__ = [
    "ALL_CARDS", "EXCLUDED_DECKS", "GNOME_DIR", "KDE_DIR", "ArtCache", "CardArtError",
    "CardArtUnavailable", "DeckArt", "Licence", "Pattern", "RenderFailed", "UnknownCard",
    "UnknownDeck", "_render_element", "cache_dir", "find_deck", "list_decks", "parse_card",
    "prerender", "render_back", "render_card",
]
