"""minigrad's generator draws PyTorch's numbers for a seed: rand, uniform_ (the
layers' initial weights), randint, randperm, randn, and the order of a shuffled
DataLoader and of random_split, compared with PyTorch 2.13."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

SEEDS = [0, 7, 2**40 + 3, -5]


def _same(ours: minigrad.Tensor, theirs: torch.Tensor) -> bool:
    return ours.dtype.__repr__().replace("minigrad", "torch") == repr(
        theirs.dtype
    ) and np.array_equal(ours.numpy(), theirs.numpy())


@pytest.mark.parametrize("seed", SEEDS)
def test_uniform_integer_and_permutation_draws_are_pytorchs(seed: int) -> None:
    minigrad.manual_seed(seed)
    torch.manual_seed(seed)
    for dtype in ("float32", "float64"):
        assert _same(
            minigrad.rand(3, 5, dtype=getattr(minigrad, dtype)),
            torch.rand(3, 5, dtype=getattr(torch, dtype)),
        )
    assert _same(minigrad.randint(-3, 1000, (17,)), torch.randint(-3, 1000, (17,)))
    assert _same(minigrad.randint(2**40, (4,)), torch.randint(2**40, (4,)))
    assert _same(minigrad.randint(5, (2, 2)), torch.randint(5, (2, 2)))
    for n in (0, 1, 2, 10, 100):
        assert _same(minigrad.randperm(n), torch.randperm(n))
    assert minigrad.initial_seed() == torch.initial_seed()


@pytest.mark.parametrize("seed", SEEDS)
def test_layers_start_with_pytorchs_weights(seed: int) -> None:
    minigrad.manual_seed(seed)
    torch.manual_seed(seed)
    ours = minigrad.nn.Sequential(minigrad.nn.Linear(7, 4), minigrad.nn.Conv1d(4, 2, 3))
    theirs = torch.nn.Sequential(torch.nn.Linear(7, 4), torch.nn.Conv1d(4, 2, 3))
    for (name, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert _same(p.detach(), q.detach()), name
    w = minigrad.empty(3, 4, dtype=minigrad.float64)
    v = torch.empty(3, 4, dtype=torch.float64)
    minigrad.nn.init.uniform_(w, -0.3, 0.7)
    torch.nn.init.uniform_(v, -0.3, 0.7)
    assert _same(w, v)


@pytest.mark.parametrize("seed", SEEDS)
def test_normal_draws_are_pytorchs(seed: int) -> None:
    minigrad.manual_seed(seed)
    torch.manual_seed(seed)
    # Fewer than 16 values: one Box-Muller value at a time, bit for bit (the
    # second value of each pair is kept for the next draw, across calls).
    for shape in [(), (1,), (3, 4), (15,)]:
        assert _same(minigrad.randn(shape), torch.randn(shape))
    # 16 or more: blocks of 16; PyTorch's vectorised log/sin/cos may round the
    # last bit differently from numpy's.
    for shape, dtype in [((16,), "float32"), ((5, 7), "float32"), ((40,), "float64")]:
        ours = minigrad.randn(*shape, dtype=getattr(minigrad, dtype)).numpy()
        theirs = torch.randn(*shape, dtype=getattr(torch, dtype)).numpy()
        np.testing.assert_allclose(ours, theirs, rtol=4 * np.finfo(dtype).eps, atol=0)
    # ... and the stream stays in step afterwards.
    assert _same(minigrad.rand(6), torch.rand(6))
    w = minigrad.empty(2, 3)
    minigrad.nn.init.normal_(w, 1.5, 2.0)
    assert _same(w, torch.nn.init.normal_(torch.empty(2, 3), 1.5, 2.0))


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffled_loader_and_random_split_follow_pytorch(seed: int) -> None:
    data = list(range(11))
    minigrad.manual_seed(seed)
    torch.manual_seed(seed)
    for _ in range(2):  # each pass reshuffles, and each iterator draws a seed
        ours = minigrad.utils.data.DataLoader(data, batch_size=4, shuffle=True)
        theirs = torch.utils.data.DataLoader(data, batch_size=4, shuffle=True)
        assert [b.tolist() for b in ours] == [b.tolist() for b in theirs]
    ours_split = minigrad.utils.data.random_split(data, [3, 8])
    theirs_split = torch.utils.data.random_split(data, [3, 8])
    assert [list(s) for s in ours_split] == [list(s) for s in theirs_split]
    sampler = minigrad.utils.data.RandomSampler(data, replacement=True, num_samples=40)
    theirs_sampler = torch.utils.data.RandomSampler(
        data, replacement=True, num_samples=40
    )
    assert list(sampler) == list(theirs_sampler)
    assert _same(minigrad.rand(2), torch.rand(2))


def test_a_generator_object_is_its_own_stream() -> None:
    ours = minigrad.Generator().manual_seed(11)
    theirs = torch.Generator().manual_seed(11)
    minigrad.manual_seed(0)
    torch.manual_seed(0)
    assert _same(minigrad.rand(4, generator=ours), torch.rand(4, generator=theirs))
    assert _same(minigrad.randn(3, generator=ours), torch.randn(3, generator=theirs))
    assert _same(
        minigrad.randint(9, (5,), generator=ours),
        torch.randint(9, (5,), generator=theirs),
    )
    assert _same(
        minigrad.randperm(6, generator=ours), torch.randperm(6, generator=theirs)
    )
    assert _same(minigrad.rand(3), torch.rand(3))  # the default one did not move
    split = minigrad.utils.data.random_split(
        range(9), [4, 5], generator=minigrad.Generator().manual_seed(2)
    )
    theirs_split = torch.utils.data.random_split(
        range(9), [4, 5], generator=torch.Generator().manual_seed(2)
    )
    assert [list(s) for s in split] == [list(s) for s in theirs_split]
    loader = minigrad.utils.data.DataLoader(
        range(7),
        batch_size=3,
        shuffle=True,
        generator=minigrad.Generator().manual_seed(5),
    )
    theirs_loader = torch.utils.data.DataLoader(
        range(7), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(5)
    )
    assert [b.tolist() for b in loader] == [b.tolist() for b in theirs_loader]
    assert ours.device == minigrad.device("cpu")
    assert minigrad.Generator().initial_seed() == torch.Generator().initial_seed()


def test_state_round_trip_repeats_the_stream() -> None:
    minigrad.manual_seed(4)
    minigrad.randn(())  # leaves a Box-Muller value pending
    state = minigrad.get_rng_state()
    first = minigrad.randn(5), minigrad.rand(3)
    minigrad.set_rng_state(state)
    again = minigrad.randn(5), minigrad.rand(3)
    assert all(a.equal(b) for a, b in zip(first, again))
    g = minigrad.Generator()
    g.set_state(state)
    assert minigrad.randn(5, generator=g).equal(first[0])


def test_seed_is_fresh_and_reported() -> None:
    s = minigrad.seed()
    assert minigrad.initial_seed() == s
    assert 0 <= s < 2**64
    for bad in (2**64, -(2**63) - 1):
        with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
            minigrad.manual_seed(bad)
    assert minigrad.manual_seed(-5).initial_seed() == 2**64 - 5
