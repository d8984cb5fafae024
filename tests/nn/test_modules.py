"""nn.Module and friends against PyTorch: reprs, parameter names and order,
parameter counts, state_dict keys, Parameter, train/eval, zero_grad, init."""

from __future__ import annotations

import copy
import math
from collections import OrderedDict
from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")


class TwoLayer:
    """The same user-defined model in either library."""

    @staticmethod
    def build(lib: Any) -> Any:
        nn = lib.nn

        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.encoder = nn.Sequential(nn.Linear(4, 8), nn.Tanh())
                self.head = nn.Linear(8, 3, bias=False)
                self.drop = nn.Dropout(0.1)
                self.scale = nn.Parameter(lib.ones(1))
                self.register_buffer("running", lib.zeros(3))

            def forward(self, x: Any) -> Any:
                return self.head(self.drop(self.encoder(x))) * self.scale

        return Net()


def architectures(lib: Any) -> dict[str, Any]:
    nn = lib.nn
    return {
        "mlp": nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1)),
        "classifier": nn.Sequential(
            nn.Flatten(),
            nn.Linear(784, 256),
            nn.ReLU(inplace=True),
            nn.Dropout(p=0.2),
            nn.Linear(256, 10),
            nn.LogSoftmax(dim=1),
        ),
        "nested": nn.Sequential(
            OrderedDict(
                [
                    ("features", nn.Sequential(nn.Linear(3, 5), nn.Sigmoid())),
                    ("id", nn.Identity()),
                    ("out", nn.Linear(5, 2, bias=False)),
                    ("softmax", nn.Softmax(dim=-1)),
                ]
            )
        ),
        "custom": TwoLayer.build(lib),
        "modulelist": nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.Tanh()]),
        "losses": nn.Sequential(
            nn.MSELoss(),
            nn.CrossEntropyLoss(),
            nn.NLLLoss(),
            nn.BCELoss(),
            nn.BCEWithLogitsLoss(),
        ),
        "empty": nn.Sequential(),
    }


NAMES = list(architectures(minigrad))


@pytest.mark.parametrize("name", NAMES)
def test_repr_matches_pytorch(name: str) -> None:
    mine, theirs = architectures(minigrad)[name], architectures(torch)[name]
    assert repr(mine) == repr(theirs)


@pytest.mark.parametrize("name", NAMES)
def test_parameters_names_shapes_and_counts(name: str) -> None:
    mine, theirs = architectures(minigrad)[name], architectures(torch)[name]
    assert [(n, tuple(p.shape)) for n, p in mine.named_parameters()] == [
        (n, tuple(p.shape)) for n, p in theirs.named_parameters()
    ]
    assert sum(p.numel() for p in mine.parameters()) == sum(
        p.numel() for p in theirs.parameters()
    )
    assert list(mine.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in mine.named_modules()] == [
        n for n, _ in theirs.named_modules()
    ]
    assert [n for n, _ in mine.named_children()] == [
        n for n, _ in theirs.named_children()
    ]
    assert [n for n, _ in mine.named_buffers()] == [
        n for n, _ in theirs.named_buffers()
    ]
    for p in mine.parameters():
        assert isinstance(p, minigrad.nn.Parameter)
        assert p.is_leaf and p.requires_grad


def test_parameter() -> None:
    data = minigrad.tensor([1.0, 2.0])
    p = minigrad.nn.Parameter(data)
    assert repr(p) == repr(torch.nn.Parameter(torch.tensor([1.0, 2.0]))).replace(
        "torch", "minigrad"
    )
    assert p.is_leaf and p.requires_grad and p.grad_fn is None
    assert isinstance(p, minigrad.Tensor)
    assert np.shares_memory(p._data, data._data)
    q = minigrad.nn.Parameter(minigrad.zeros(2), requires_grad=False)
    assert not q.requires_grad
    assert "requires_grad" not in repr(q)
    assert type(p * 2) is minigrad.Tensor  # ops on parameters give plain tensors
    assert isinstance(copy.deepcopy(p), minigrad.nn.Parameter)
    with pytest.raises(RuntimeError, match="floating point"):
        minigrad.nn.Parameter(minigrad.tensor([1, 2]))


def test_linear_init_bounds_and_seed() -> None:
    minigrad.manual_seed(0)
    a = minigrad.nn.Linear(100, 30)
    bound = 1 / math.sqrt(100)
    for p in (a.weight, a.bias):
        assert p._data.dtype == np.float32
        assert np.abs(p._data).max() <= bound
        assert np.abs(p._data).max() > 0.9 * bound  # spread over the whole range
    assert a.weight._version == torch.nn.Linear(100, 30).weight._version
    minigrad.manual_seed(0)
    b = minigrad.nn.Linear(100, 30)
    assert a.weight.equal(b.weight) and a.bias.equal(b.bias)
    c = minigrad.nn.Linear(3, 2, dtype=minigrad.float64)
    assert c.weight.dtype is minigrad.float64


def test_forward_matches_pytorch_with_copied_weights() -> None:
    torch.manual_seed(0)  # PyTorch's own init draws the weights we copy
    mine, theirs = TwoLayer.build(minigrad), TwoLayer.build(torch)
    mine.load_state_dict(
        {k: minigrad.tensor(v.numpy()) for k, v in theirs.state_dict().items()}
    )
    mine.eval(), theirs.eval()
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    y_mg, y_th = mine(minigrad.tensor(x)), theirs(torch.tensor(x))
    # float32: relative error only means something away from zero
    np.testing.assert_allclose(
        y_mg.detach().numpy(), y_th.detach().numpy(), rtol=1e-5, atol=1e-6
    )
    assert type(y_mg.grad_fn).__name__ == type(y_th.grad_fn).__name__


def test_train_eval_and_dropout() -> None:
    model = architectures(minigrad)["classifier"]
    assert model.training and all(m.training for m in model.modules())
    assert model.eval() is model
    assert not any(m.training for m in model.modules())
    x = minigrad.randn(4, 784)
    assert model(x).equal(model(x))  # no dropout in eval mode
    model.train()
    assert all(m.training for m in model.modules())


def test_zero_grad_sets_none_or_zeros() -> None:
    model = architectures(minigrad)["mlp"]
    model(minigrad.randn(3, 2)).sum().backward()
    assert all(p.grad is not None for p in model.parameters())
    model.zero_grad(set_to_none=False)
    assert all(not p.grad._data.any() for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_state_dict_round_trip_and_errors() -> None:
    a, b = architectures(minigrad)["mlp"], architectures(minigrad)["mlp"]
    sd = a.state_dict()
    assert all(not t.requires_grad for t in sd.values())
    assert repr(b.load_state_dict(sd)) == "<All keys matched successfully>"
    for (_, p), (_, q) in zip(a.named_parameters(), b.named_parameters()):
        assert p.equal(q) and p is not q
    sd_th = architectures(torch)["mlp"].state_dict()
    bad = {k: minigrad.tensor(v.numpy()) for k, v in sd_th.items()}
    del bad["2.bias"]
    bad["extra"] = minigrad.zeros(1)
    bad["0.weight"] = minigrad.zeros(3, 3)
    errors = []
    for model, state in ((b, bad), (architectures(torch)["mlp"], None)):
        if state is None:
            state = {k: torch.tensor(v.numpy()) for k, v in bad.items()}
        with pytest.raises(RuntimeError) as info:
            model.load_state_dict(state)
        errors.append(str(info.value))
    assert errors[0] == errors[1].replace("torch", "minigrad")


def test_setattr_registration_and_errors() -> None:
    m = minigrad.nn.Linear(2, 2)
    with pytest.raises(TypeError, match="cannot assign 'minigrad.FloatTensor' as"):
        m.weight = minigrad.zeros(2, 2)
    m.weight = None
    assert [n for n, _ in m.named_parameters()] == ["bias"]
    m.extra = minigrad.nn.Parameter(minigrad.zeros(1))
    assert [n for n, _ in m.named_parameters()] == ["bias", "extra"]
    del m.extra
    assert [n for n, _ in m.named_parameters()] == ["bias"]
    with pytest.raises(AttributeError, match="'Linear' object has no attribute 'nope'"):
        _ = m.nope

    class Early(minigrad.nn.Module):
        def __init__(self) -> None:
            self.w = minigrad.nn.Parameter(minigrad.zeros(1))

    with pytest.raises(AttributeError, match="before Module.__init__"):
        Early()


def test_sequential_indexing_and_double() -> None:
    model = architectures(minigrad)["classifier"]
    assert isinstance(model[1], minigrad.nn.Linear)
    assert isinstance(model[-1], minigrad.nn.LogSoftmax)
    assert repr(model[1:3]) == repr(architectures(torch)["classifier"][1:3])
    assert len(model) == 6
    model.double()
    assert all(p.dtype is minigrad.float64 for p in model.parameters())


def test_init_functions() -> None:
    w = minigrad.empty(50, 40)
    nn = minigrad.nn
    assert nn.init.zeros_(w) is w and not w._data.any()
    nn.init.ones_(w)
    assert (w._data == 1).all()
    nn.init.constant_(w, 0.5)
    assert (w._data == 0.5).all()
    nn.init.uniform_(w, -2, 3)
    assert w._data.min() >= -2 and w._data.max() <= 3
    nn.init.normal_(w, 1.0, 0.1)
    assert abs(w._data.mean() - 1.0) < 0.02 and abs(w._data.std() - 0.1) < 0.02
    nn.init.xavier_uniform_(w)
    assert np.abs(w._data).max() <= math.sqrt(6 / 90)
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert np.abs(w._data).max() <= math.sqrt(6 / 40)
    p = nn.Parameter(minigrad.zeros(3, 3))
    v = p._version
    nn.init.uniform_(p)  # in place on a leaf that requires grad: allowed
    assert p._version == v + 1 and p.is_leaf
    for gain in ("linear", "relu", "tanh", "sigmoid", "selu"):
        assert nn.init.calculate_gain(gain) == torch.nn.init.calculate_gain(gain)
    assert nn.init.calculate_gain("leaky_relu", math.sqrt(5)) == pytest.approx(
        torch.nn.init.calculate_gain("leaky_relu", math.sqrt(5))
    )
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        nn.init.xavier_uniform_(minigrad.zeros(3))


def test_import_styles() -> None:
    import minigrad.nn as nn
    import minigrad.nn.functional as F
    from minigrad import nn as nn2
    from minigrad import optim

    assert nn is nn2 and F is nn.functional and optim.SGD is minigrad.optim.SGD
