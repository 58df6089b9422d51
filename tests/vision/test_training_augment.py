"""vision.training.augment: each augmentation changes only the rows it picked, keeps the
batch's shape and range, and is reproducible from the generator's seed."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")  # the `train` extra

from vision.training import augment


def _batch(n: int = 64) -> torch.Tensor:
    g = torch.Generator().manual_seed(1)
    return torch.rand(n, 3, 64, 32, generator=g)


@pytest.mark.parametrize("fn", [augment.geometric, augment.low_resolution, augment.blur])
def test_only_the_picked_rows_change(fn) -> None:
    x = _batch()
    y = fn(x, torch.Generator().manual_seed(7), p=0.5)
    changed = (y != x).flatten(1).any(dim=1)
    assert 0 < int(changed.sum()) < len(x)  # some rows picked, not all
    assert torch.equal(x, _batch())  # the input batch is left alone
    assert y.shape == x.shape


@pytest.mark.parametrize("fn", [augment.geometric, augment.low_resolution, augment.blur])
def test_nothing_picked_returns_the_batch(fn) -> None:
    x = _batch()
    assert fn(x, torch.Generator().manual_seed(7), p=0.0) is x


def test_augment_is_seeded_and_stays_in_range() -> None:
    a = augment.augment(_batch(), torch.Generator().manual_seed(3))
    b = augment.augment(_batch(), torch.Generator().manual_seed(3))
    assert torch.equal(a, b)
    assert float(a.min()) >= 0.0 and float(a.max()) <= 1.0
