"""minigrad.utils.data beyond the scenario program: ConcatDataset, iterable
datasets, samplers and lengths, against torch.utils.data."""

from __future__ import annotations

from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")


def _both(fn: Any) -> None:
    def norm(v: Any) -> Any:
        if hasattr(v, "tolist"):
            return v.tolist()
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v

    assert norm(fn(minigrad)) == norm(fn(torch))


def test_concat_and_iterable_datasets() -> None:
    def concat(lib: Any) -> Any:
        data = lib.utils.data
        a = data.TensorDataset(lib.arange(3))
        b = data.TensorDataset(lib.arange(10, 12))
        both = a + b
        return [len(both), both[3], both[-1], list(data.DataLoader(both, batch_size=2))]

    _both(concat)

    def iterable(lib: Any) -> Any:
        data = lib.utils.data

        class Count(data.IterableDataset):
            def __iter__(self) -> Any:
                return iter(range(5))

        loader = data.DataLoader
        return [
            list(loader(Count(), batch_size=2)),
            list(loader(Count(), batch_size=2, drop_last=True)),
        ]

    _both(iterable)


def test_samplers_and_lengths() -> None:
    def lengths(lib: Any) -> Any:
        data = lib.utils.data
        seq = data.SequentialSampler(range(7))
        return [
            list(seq),
            len(data.BatchSampler(seq, 3, False)),
            len(data.BatchSampler(seq, 3, True)),
            list(data.BatchSampler(seq, 3, False)),
            len(data.RandomSampler(range(7))),
            sorted(data.RandomSampler(range(7))),
            len(data.DataLoader(range(7), batch_size=3, drop_last=True)),
        ]

    _both(lengths)
    with pytest.raises(ValueError, match="mutually exclusive with shuffle"):
        minigrad.utils.data.DataLoader(range(3), shuffle=True, sampler=[0, 1])
