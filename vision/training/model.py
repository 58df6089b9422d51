"""The index classifier network (torch; used only for training and export).

A small VGG-style CNN on a 3x64x32 corner-index patch with three outputs:

* ``rank``: 13 ranks (A 2..10 J Q K) plus one "not an index" class,
* ``suit``: 4 suits (C D H S) plus one "not an index" class,
* ``embedding``: the L2-normalised 64-d penultimate features, which deck enrolment
  compares against stored templates (nearest neighbour), so enrolled decks need no
  retraining.

Why this size: 16 patches (8 cards, two corners) must be classified well inside the
30 ms frame budget on one core through cv2.dnn, and the ONNX file must stay < 5 MB.
The "not an index" classes are trained on patches cut from card bodies, backs, table
cloth and heavily covered corners, so that garbage gives a rejection rather than a
confident rank.
"""

from __future__ import annotations

import torch
from torch import nn

N_RANKS = 13
N_SUITS = 4
EMBED_DIM = 64


def _block(cin: int, cout: int, stride: int = 1) -> list[nn.Module]:
    return [
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(),
    ]


class IndexNet(nn.Module):
    """Patch (N, 3, 64, 32) float in 0..1, BGR -> (rank logits, suit logits, embedding)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            *_block(3, 24, stride=2), nn.MaxPool2d(2),  # 16x8 (strided: cheap at 64x32)
            *_block(24, 48),
            *_block(48, 64), nn.MaxPool2d(2),  # 8x4
            *_block(64, 96),
        )
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(96 * 8 * 4, 128),
                                nn.ReLU())
        self.embed = nn.Linear(128, EMBED_DIM)
        self.rank = nn.Linear(128, N_RANKS + 1)
        self.suit = nn.Linear(128, N_SUITS + 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        x = (x - 0.5) / 0.25
        h = self.fc(self.features(x))
        e = self.embed(h)
        e = e / torch.sqrt((e * e).sum(dim=1, keepdim=True) + 1e-12)
        return self.rank(h), self.suit(h), e
