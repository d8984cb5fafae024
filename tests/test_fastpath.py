"""The fast paths (minigrad/_fastpath.py) give what the general path gives.

Each program runs twice in minigrad: with the fast paths (the default) and under
``_fastpath.disabled()``, where every op takes ``Function.apply``'s general loop
and every node ``GraphTask.run_next``. The two transcripts must be equal: values
(bit for bit), gradients, dtypes, node names and edges, saved attributes,
``needs_input_grad``, versions, the order hooks ran in, and errors (type and
text). A last test checks that the fast paths are the ones taken by default.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad as T
from minigrad import _fastpath
from minigrad.ops import arithmetic


class Transcript(list):
    """What a program shows, in a form two runs can compare."""

    def value(self, label: str, x: Any) -> None:
        if isinstance(x, tuple):
            for i, item in enumerate(x):
                self.value(f"{label}[{i}]", item)
            return
        if x is None or not isinstance(x, T.Tensor):
            self.append((label, x))
            return
        data = x.detach().numpy()
        self.append((label, str(x.dtype), data.shape, data.tobytes()))
        version = "inference" if x.is_inference() else x._version
        self.append((label + " meta", x.requires_grad, x.is_leaf, version))
        self.graph(label, x.grad_fn)

    def graph(self, label: str, root: Any) -> None:
        """Node names, edges, sequence order, saved tensors, needs_input_grad."""
        order: dict[int, int] = {}
        stack, nodes = [root], []
        while stack:
            n = stack.pop()
            if n is None or id(n) in order:
                continue
            order[id(n)] = len(order)
            nodes.append(n)
            stack.extend(m for m, _ in n.next_functions)
        seqs = sorted(n._sequence_nr() for n in nodes)
        for n in nodes:
            edges = [(order.get(id(m)), nr) for m, nr in n.next_functions]
            saved = []
            for name in sorted(a for a in dir(n) if a.startswith("_saved_")):
                try:
                    v = getattr(n, name)
                except RuntimeError as e:  # freed by backward
                    v = str(e)
                if isinstance(v, T.Tensor):
                    v = (v.detach().numpy().tobytes(), v._version)
                saved.append((name, repr(v) if not isinstance(v, tuple) else v))
            needs = getattr(n, "needs_input_grad", None)
            rank = seqs.index(n._sequence_nr())
            self.append((label, n.name(), edges, rank, saved, needs))

    def error(self, label: str, fn: Callable[[], Any]) -> None:
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the error is what is compared
            self.append((label, type(e).__name__, str(e)))
        else:
            self.append((label, "no error"))


def _inputs(seed: int = 0) -> tuple:
    rng = np.random.default_rng(seed)
    a = T.tensor(rng.normal(size=(2, 3)).astype(np.float32), requires_grad=True)
    b = T.tensor(rng.normal(size=3).astype(np.float32))
    w = T.tensor(rng.normal(size=(3,)), requires_grad=True)  # float64
    return a, b, w


def chain(t: Transcript) -> None:
    a, b, w = _inputs()
    x = a
    for i in range(4):
        x = (x * b + b).tanh() if i % 2 else (x * 0.9 + 1).sigmoid() - 0.5
    y = x * w  # float32 * float64 promotes; b broadcasts
    t.value("y", y)
    y.sum().backward()
    t.value("a.grad", a.grad)
    t.value("w.grad", w.grad)
    t.value("y after", y)  # its saved tensors are freed now


def create_graph(t: Transcript) -> None:
    a, _, w = _inputs(1)
    y = a.double()
    for i in range(6):
        y = (y * 0.9).sin() if i % 2 else y * y + 0.5
    (g,) = T.autograd.grad((y * w).sum(), a, create_graph=True)
    t.value("g", g)
    (gg,) = T.autograd.grad(g.sum(), a)
    t.value("gg", gg)


def hooks(t: Transcript) -> None:
    a, b, _ = _inputs(2)
    seen: list = []
    a.register_hook(lambda g: seen.append(("leaf hook", g.sum().item())))
    a.register_post_accumulate_grad_hook(lambda p: seen.append(("post acc",)))
    h = a * b
    h.retain_grad()
    h.register_hook(lambda g: g * 2)  # replaces the gradient
    y = h.exp()
    y.grad_fn.register_prehook(lambda go: seen.append(("pre", len(go))))
    y.grad_fn.register_hook(lambda gi, go: seen.append(("post", len(gi))))
    z = (y + 1).sum()
    z.backward(retain_graph=True)
    z.backward()  # twice, with retain_graph: .grad accumulates
    t.value("a.grad", a.grad)
    t.value("h.grad", h.grad)
    t.append(seen)


def views_and_inplace(t: Transcript) -> None:
    a, b, _ = _inputs(3)
    x = a * 1
    v = x.t()
    v[0] *= 2  # an in-place change of a view: CopySlices on the base
    x.mul_(b)
    t.value("x", x)
    t.value("v", v)
    s = x[1:, ::2].exp()
    s.sum().backward()
    t.value("a.grad", a.grad)
    t.append(("versions", x._version, v._version, a._version))


def modes_and_dtypes(t: Transcript) -> None:
    a, b, w = _inputs(4)
    with T.no_grad():
        t.value("no_grad", a * b + w)
    with T.inference_mode():
        t.value("inference", (a * 2).tanh())
    p = T.nn.Parameter(T.ones(3))
    t.value("param", p * b + p)
    t.value("int", T.arange(3) * 2 + T.tensor([1, 2, 3]))
    vals, idx = a.max(1)  # several outputs: the general wiring
    t.value("max", vals)
    t.value("argmax", idx)
    parts = a.split(2, dim=1)
    t.value("split", parts[1] * 3)


def errors(t: Transcript) -> None:
    a, b, _ = _inputs(5)
    y = (a * b).tanh()
    y.sum().backward()
    t.error("twice", lambda: y.sum().backward())
    c = a * 1
    d = c * c
    c.add_(1)
    t.error("stale", lambda: d.sum().backward())
    t.error("broadcast", lambda: a * T.ones(4))
    t.error("leaf in-place", lambda: a.mul_(2))
    t.error("bool sub", lambda: T.tensor([True]) - T.tensor([False]))
    with T.autograd.detect_anomaly():
        n = (a * 0).log() * 0  # 0 * -inf: nan in the gradient
        with pytest.warns(UserWarning):
            t.error("anomaly", lambda: n.sum().backward())


def selections_and_functions(t: Transcript) -> None:
    a, b, w = _inputs(6)

    class Cube(T.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            ctx.save_for_backward(x)
            return x**3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

    h = Cube.apply(a * b)
    y = (h * w).sum()
    t.value("h", h)
    t.value("grad", T.autograd.grad(y, [h, w], retain_graph=True))
    y.backward(inputs=[w])
    t.value("w.grad", w.grad)
    t.value("a.grad after inputs=", a.grad)
    packed = []
    with T.autograd.graph.saved_tensors_hooks(lambda x: packed.append(1) or x, None):
        pass
    with T.autograd.graph.saved_tensors_hooks(
        lambda x: packed.append(x.shape) or x, lambda x: x
    ):
        z = (a * b).exp().sum()
    z.backward()
    t.append(("packed", packed))
    t.value("a.grad", a.grad)


def saved_values(t: Transcript) -> None:
    """What ops save, each kind the fast apply keeps itself or hands on to
    _save_all: a result, inputs with a slot left None, the same input twice,
    inputs and the result (pow), an array made in forward (logsigmoid), and
    read after backward freed them (a slot that held None still reads None)."""
    a, b, w = _inputs(7)
    x = a * 1.5
    parts = [
        x.tanh(),  # its result
        x * b,  # self only (b needs no grad): other's slot holds None
        x * x,  # one tensor in both slots
        x.abs() ** (b * 0 + 2),  # both inputs and the result
        T.nn.functional.logsigmoid(x),  # an input and a buffer from forward
        x.double() * w,  # float64 nodes beside float32 ones of the same shape
    ]
    for i, p in enumerate(parts):
        t.value(f"part {i}", p)
    sum(p.sum() for p in parts).backward()
    for i, p in enumerate(parts):
        t.value(f"part {i} after", p)
    t.value("a.grad", a.grad)
    # a saved result is kept as its data, not as the tensor (which would make a
    # cycle tensor -> node -> tensor): dropped, the tensor is freed at once
    for make in (lambda: x.tanh(), lambda: x.abs() ** (b * 0 + 2)):
        ref = weakref.ref(make())
        t.append(("result freed at once", ref() is None))
    y = x.exp()
    y.add_(1)  # exp's saved result changed: its backward refuses
    t.error("stale result", lambda: y.sum().backward())


PROGRAMS = [
    chain,
    saved_values,
    create_graph,
    hooks,
    views_and_inplace,
    modes_and_dtypes,
    errors,
    selections_and_functions,
]


@pytest.mark.filterwarnings("ignore:Anomaly Detection has been enabled")
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_fast_and_general_paths_agree(program: Callable[[Transcript], None]) -> None:
    fast = Transcript()
    program(fast)
    with _fastpath.disabled():
        general = Transcript()
        program(general)
    assert len(fast) == len(general)
    for f, g in zip(fast, general):
        assert f == g


def test_the_fast_paths_are_taken_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(arithmetic.Mul.__dict__["apply"], _fastpath._FastApply)
    # an op with its own apply keeps it
    assert "apply" in arithmetic.NotDifferentiable.__dict__
    assert not isinstance(
        arithmetic.NotDifferentiable.__dict__["apply"], _fastpath._FastApply
    )
    runs = []
    real = _fastpath.run_all
    monkeypatch.setattr(
        _fastpath, "run_all", lambda *args: runs.append(1) or real(*args)
    )
    a, b, _ = _inputs()
    (a * b).sum().backward()
    assert runs == [1]
    with _fastpath.disabled():
        (a * b).sum().backward()
    assert runs == [1]


def test_a_first_gradient_is_taken_without_a_copy_only_when_unshared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """run_all hands a leaf its first gradient without a copy when nothing else
    refers to the array or its memory (PyTorch's use_count rule); whatever is
    shared is copied, so no .grad aliases another gradient or a user's tensor."""
    rng = np.random.default_rng(9)
    taken: list = []
    real = _fastpath.accumulate_into

    def spy(var: Any, g: Any, graph: bool, sole: bool = False) -> bool:
        taken.append(sole)
        return real(var, g, graph, sole)

    monkeypatch.setattr(_fastpath, "accumulate_into", spy)

    def leaf(*shape: int) -> T.Tensor:
        return T.tensor(rng.normal(size=shape).astype(np.float32), requires_grad=True)

    a, b, w = leaf(3, 4), leaf(3, 4), leaf(5, 4)
    x = T.tensor(rng.normal(size=(2, 4)).astype(np.float32))
    (x @ w.t()).sum().backward()  # the transposed-operand gradient: a whole view
    (a * 2).sum().backward()
    assert taken == [True, True]
    assert w.grad._data.flags.c_contiguous and w.grad._data.flags.writeable
    with _fastpath.disabled():
        w2 = T.tensor(w.detach().numpy(), requires_grad=True)
        (x @ w2.t()).sum().backward()
    assert w.grad.numpy().tobytes() == w2.grad.numpy().tobytes()

    taken.clear()
    a.grad = b.grad = None
    (a + b).sum().backward()  # one array for both leaves
    assert not np.shares_memory(a.grad._data, b.grad._data)
    root = T.ones(3, 4)
    a.grad = None
    a.backward(root)  # the user's own tensor, as the root gradient
    c = T.ones(6, 4)
    parts = leaf(3, 4), leaf(3, 4)
    T.cat(parts).backward(c)  # slices of one array (and of the user's)
    assert taken == [False, False, False, False, False]
    root.add_(1)
    c.add_(1)
    assert a.grad.numpy().tolist() == [[1.0] * 4] * 3
    assert all(p.grad.numpy().tolist() == [[1.0] * 4] * 3 for p in parts)
    assert not np.shares_memory(parts[0].grad._data, parts[1].grad._data)

    kept: list = []
    h = a * 2
    h.register_hook(lambda g: kept.append(g))  # a hook keeps h's gradient
    a.grad = None
    h.sum().backward()
    assert not np.shares_memory(a.grad._data, kept[0]._data)


def test_nodes_of_one_shape_and_dtype_share_their_output_meta() -> None:
    """The (shape, dtype) of a fast-path node's output is one shared tuple per
    shape and dtype (_fastpath.single_output_meta): fewer objects per node, the
    same check; the general path makes its own, equal."""
    a, b, w = _inputs(8)
    y, z, d = a * b, a.exp(), a.double()
    assert y.grad_fn._output_meta is z.grad_fn._output_meta
    assert y.grad_fn._output_meta == (((2, 3), np.dtype(np.float32)),)
    assert d.grad_fn._output_meta == (((2, 3), np.dtype(np.float64)),)
    assert (w * 2).grad_fn._output_meta == (((3,), np.dtype(np.float64)),)
    with _fastpath.disabled():
        assert (a * b).grad_fn._output_meta == y.grad_fn._output_meta
