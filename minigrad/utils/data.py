"""``minigrad.utils.data``: datasets and a ``DataLoader`` for training loops.

The same API as ``torch.utils.data`` for the single-process case lessons use:
``Dataset``, ``TensorDataset``, ``Subset``, ``ConcatDataset``, ``random_split``,
the samplers, ``DataLoader`` and ``default_collate``. Shuffling draws from
the generator as PyTorch's does, so a seeded loader yields PyTorch's order;
``num_workers`` is accepted and ignored (everything runs in this process).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from .. import creation
from .._dtype import float64
from .._generator import Generator, default_generator
from .._tensor import Tensor
from ..ops.join import stack


class Dataset:
    """A map-style dataset: ``__getitem__(index)`` and (usually) ``__len__``."""

    def __getitem__(self, index: int) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A dataset that is iterated (``__iter__``) rather than indexed."""

    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class TensorDataset(Dataset):
    """Samples are ``tuple(t[i] for t in tensors)``: rows of tensors of equal
    length."""

    def __init__(self, *tensors: Tensor) -> None:
        assert all(tensors[0].size(0) == t.size(0) for t in tensors), (
            "Size mismatch between tensors"
        )
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class Subset(Dataset):
    def __init__(self, dataset: Any, indices: Sequence[int]) -> None:
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, list):
            return self.dataset[[self.indices[i] for i in index]]
        return self.dataset[self.indices[index]]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another."""

    def __init__(self, datasets: Sequence[Any]) -> None:
        self.datasets = list(datasets)
        assert len(self.datasets) > 0, "datasets should not be an empty iterable"
        self.cumulative_sizes, total = [], 0
        for d in self.datasets:
            total += len(d)
            self.cumulative_sizes.append(total)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            if -index > len(self):
                raise ValueError(
                    "absolute value of index should not exceed dataset length"
                )
            index += len(self)
        which = bisect.bisect_right(self.cumulative_sizes, index)
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][index - start]


def random_split(
    dataset: Any, lengths: Sequence[Any], generator: Generator = default_generator
) -> list[Subset]:
    """Disjoint random subsets of the given lengths (or fractions summing to 1)."""
    n = len(dataset)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        sizes = [int(math.floor(n * f)) for f in lengths]
        for i in range(n - sum(sizes)):  # the remainder, one each, round-robin
            sizes[i % len(sizes)] += 1
        lengths = sizes
    if sum(lengths) != n:
        raise ValueError(
            "Sum of input lengths does not equal the length of the input dataset!"
        )
    order = generator.permutation(n).tolist()
    out, start = [], 0
    for length in lengths:
        out.append(Subset(dataset, order[start : start + length]))
        start += length
    return out


# ------------------------------------------------------------------ samplers
class Sampler:
    def __iter__(self) -> Iterator[Any]:
        raise NotImplementedError


class SequentialSampler(Sampler):
    def __init__(self, data_source: Any) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """A random order of every index (or draws with ``replacement``)."""

    def __init__(
        self,
        data_source: Any,
        replacement: bool = False,
        num_samples: Any = None,
        generator: Generator | None = None,
    ) -> None:
        self.data_source, self.replacement = data_source, replacement
        self._num_samples = num_samples
        self.generator = generator

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:  # PyTorch seeds a fresh generator for each pass
            generator = Generator().manual_seed(default_generator.random_int64())
        if self.replacement:  # in blocks of 32, as PyTorch draws them
            for _ in range(self.num_samples // 32):
                yield from generator.integers(0, n, (32,)).tolist()
            yield from generator.integers(0, n, (self.num_samples % 32,)).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from generator.permutation(n).tolist()
        yield from generator.permutation(n).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups another sampler's indices into lists of ``batch_size``."""

    def __init__(self, sampler: Any, batch_size: int, drop_last: bool) -> None:
        if (
            not isinstance(batch_size, int)
            or isinstance(batch_size, bool)
            or (batch_size <= 0)
        ):
            raise ValueError(
                "batch_size should be a positive integer value, but got "
                f"batch_size={batch_size}"
            )
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch: list[int] = []
        for i in self.sampler:
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)


# ------------------------------------------------------------------- collate
def default_collate(batch: list) -> Any:
    """Samples into a batch: tensors, arrays and numbers stacked into tensors
    (Python floats as float64, ints as int64), tuples and lists element by
    element (as lists), dicts key by key; anything else left as a list."""
    first = batch[0]
    if isinstance(first, Tensor):
        return stack(batch, 0)
    if isinstance(first, np.ndarray):
        return stack([creation.as_tensor(b) for b in batch], 0)
    if isinstance(first, (bool, np.bool_)):
        return creation.tensor(batch)
    if isinstance(first, (int, np.integer)):
        return creation.tensor(batch)
    if isinstance(first, (float, np.floating)):
        return creation.tensor(batch, dtype=float64)
    if isinstance(first, dict):
        return {key: default_collate([b[key] for b in batch]) for key in first}
    if isinstance(first, (tuple, list)) and not isinstance(first, str):
        size = len(first)
        if any(len(b) != size for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(column)) for column in zip(*batch)]
    return batch


def default_convert(data: Any) -> Any:
    """One sample, unbatched (``batch_size=None``): numpy arrays become tensors,
    tuples and lists become lists, dicts are converted value by value."""
    if isinstance(data, np.ndarray):
        return creation.as_tensor(data)
    if isinstance(data, dict):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, (tuple, list)):
        return [default_convert(d) for d in data]
    return data


# ------------------------------------------------------------------ the loader
class DataLoader:
    """Batches of a dataset: ``for inputs, targets in loader: ...``."""

    def __init__(
        self,
        dataset: Any,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Any = None,
        batch_sampler: Any = None,
        num_workers: int = 0,
        collate_fn: Callable | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        generator: Generator | None = None,
        **kwargs: Any,
    ) -> None:
        self.dataset, self.batch_size, self.drop_last = dataset, batch_size, drop_last
        self.num_workers, self.generator = num_workers, generator
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None and (
            batch_size != 1 or shuffle or sampler is not None or drop_last
        ):
            raise ValueError(
                "batch_sampler option is mutually exclusive with batch_size, "
                "shuffle, sampler, and drop_last"
            )
        if isinstance(dataset, IterableDataset):
            self.sampler = None
        elif sampler is None:
            sampler = (
                RandomSampler(dataset, generator=generator)
                if shuffle
                else SequentialSampler(dataset)
            )
        self.sampler = sampler
        if batch_sampler is None and batch_size is not None and sampler is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_sampler = batch_sampler
        self.collate_fn = collate_fn or (
            default_collate
            if batch_size is not None or batch_sampler
            else default_convert
        )

    def __iter__(self) -> Iterator[Any]:
        # PyTorch's iterator draws a base seed for its workers as it starts,
        # which moves the generator on: drawn here too, so streams stay alike.
        (self.generator or default_generator).random_int64()
        if isinstance(self.dataset, IterableDataset):
            return self._iterable()
        return self._mapped()

    def _mapped(self) -> Iterator[Any]:
        if self.batch_sampler is None:  # batch_size=None: one sample at a time
            for i in self.sampler:
                yield self.collate_fn(self.dataset[i])
            return
        for indices in self.batch_sampler:
            yield self.collate_fn([self.dataset[i] for i in indices])

    def _iterable(self) -> Iterator[Any]:
        if self.batch_size is None:
            for item in self.dataset:
                yield self.collate_fn(item)
            return
        batch: list = []
        for item in self.dataset:
            batch.append(item)
            if len(batch) == self.batch_size:
                yield self.collate_fn(batch)
                batch = []
        if batch and not self.drop_last:
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)


__all__ = [
    "BatchSampler",
    "ConcatDataset",
    "DataLoader",
    "Dataset",
    "IterableDataset",
    "RandomSampler",
    "Sampler",
    "SequentialSampler",
    "Subset",
    "TensorDataset",
    "default_collate",
    "default_convert",
    "random_split",
]
