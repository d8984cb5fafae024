"""The profiler (``autograd.profiler`` and ``profiler``) against PyTorch 2.13:
the same programs profiled in both record the same ops and nodes, in the same
order and nesting, and the table is laid out as PyTorch's own table code lays
out minigrad's events. Times differ, so only names, counts, nesting and layout
are compared."""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import warnings
from typing import Any

import pytest

import minigrad
from minigrad import _fastpath, _profiling

torch = pytest.importorskip("torch")
profiler_util = pytest.importorskip("torch.autograd.profiler_util")

# What PyTorch records and minigrad does not: the ATen ops inside an op
# (dtype conversions, allocations, the views a formula makes) and factories.
INTERNAL = {
    "aten::to",
    "aten::_to_copy",
    "aten::empty_strided",
    "aten::empty_like",
    "aten::copy_",
    "aten::resolve_conj",
    "aten::as_strided",
    "aten::fill_",
    "aten::empty",
    "aten::lift_fresh",
    "aten::detach_",
    "aten::ones_like",  # the seed gradient of backward()
}
# composite ops PyTorch records around the ops minigrad records alone
COMPOSITE = {"aten::reshape"}


def _name(e: Any) -> str:
    return e.name.replace("torch::autograd", "minigrad::autograd")


def _is_node(name: str) -> bool:
    return re.search(r"Backward\d*$", name) is not None or name.endswith("Grad")


def _is_user_range(name: str) -> bool:
    """A record_function block or a user's Function (not an op, not a node)."""
    return not (name.startswith(("aten::", "autograd::")) or _is_node(name))


def _called_by_the_program(e: Any) -> bool:
    """Not inside another op (but a composite), nor in backward."""
    parent = e.cpu_parent
    while parent is not None:
        if not (_is_user_range(parent.name) or parent.name in COMPOSITE):
            return False
        parent = parent.cpu_parent
    return True


def _tree(events: Any, inside_nodes: bool = False) -> list:
    """(name, children) for each top-level event, as both record it: what runs
    inside an op is its own business, an ``evaluate_function`` holds its node,
    a node holds the ops of its formula only where they are recorded by both
    (``inside_nodes``: under create_graph)."""

    def kept(e: Any) -> list:
        name = _name(e)
        if name in INTERNAL:
            return []
        children = e.cpu_children
        if name in COMPOSITE:
            return [k for c in children for k in kept(c)]
        if name.startswith("aten::") or (_is_node(name) and not inside_nodes):
            children = []
        elif name.startswith("autograd::engine::"):
            children = [c for c in children if _is_node(_name(c))]
        return [(name, [k for c in children for k in kept(c)])]

    return [k for e in events if e.cpu_parent is None for k in kept(e)]


def _mlp_step(lib: Any) -> None:
    x = lib.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    w = lib.tensor([[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]], requires_grad=True)
    with lib.autograd.profiler.record_function("model_inference"):
        h = x.mm(w).tanh()
        loss = (h * h).sum()
    loss.backward()


def _custom_function(lib: Any) -> None:
    class Triple(lib.autograd.Function):
        @staticmethod
        def forward(ctx: Any, x: Any) -> Any:
            return x * 3

        @staticmethod
        def backward(ctx: Any, g: Any) -> Any:
            return g * 3

    x = lib.tensor([1.0, 2.0], requires_grad=True)

    @lib.autograd.profiler.record_function("my_block")
    def block(t: Any) -> Any:
        return Triple.apply(t).exp().sum()

    block(x).backward()


def _create_graph(lib: Any) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (g,) = lib.autograd.grad((x * x).sum(), x, create_graph=True)
    g.sum().backward()


def _grad_of_grad(lib: Any) -> None:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    lib.autograd.grad((x * x.exp()).sum(), x, create_graph=True)


def _no_grad_and_views(lib: Any) -> None:
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with lib.no_grad():
        x.mul(2)
    y = x.t().reshape(4)[1:].sin()
    y.sum().backward()


PROGRAMS = [_mlp_step, _custom_function, _create_graph, _no_grad_and_views]


def _profiled(lib: Any, program: Any, **kw: Any) -> Any:
    with lib.profiler.profile(
        activities=[lib.profiler.ProfilerActivity.CPU], **kw
    ) as p:
        program(lib)
    return p


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_the_same_ops_and_nodes_in_the_same_nesting(program: Any) -> None:
    ours = _tree(_profiled(minigrad, program).events())
    theirs = _tree(_profiled(torch, program).events())
    assert ours == theirs


def test_a_formula_under_create_graph_records_its_ops() -> None:
    ours = _tree(_profiled(minigrad, _grad_of_grad).events(), inside_nodes=True)
    theirs = _tree(_profiled(torch, _grad_of_grad).events(), inside_nodes=True)
    assert ours == theirs
    formulas = [kids for _, nodes in ours for name, kids in nodes if name.endswith("0")]
    assert ("aten::mul", []) in formulas[1] + formulas[2]  # Mul's or Exp's


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.__name__ for p in PROGRAMS])
def test_input_shapes_of_the_ops(program: Any) -> None:
    ours = _profiled(minigrad, program, record_shapes=True).events()
    theirs = _profiled(torch, program, record_shapes=True).events()

    def shapes(events: Any) -> list:
        """Each op's tensor inputs' shapes (PyTorch also lists its other
        arguments, as ``[]``; minigrad's ops take fewer of them)."""
        return [
            (e.name, [s for s in e.input_shapes if s])
            for e in events
            if e.name.startswith("aten::")
            and e.name not in INTERNAL | COMPOSITE
            and _called_by_the_program(e)
        ]

    assert shapes(ours) == shapes(theirs)


@pytest.mark.parametrize(
    ("sort_by", "row_limit", "shapes"),
    [
        (None, 100, False),
        ("cpu_time_total", 10, False),
        ("self_cpu_time_total", 3, True),
        ("count", 5, True),
    ],
)
def test_the_table_is_pytorchs_layout(
    sort_by: Any, row_limit: int, shapes: bool
) -> None:
    """PyTorch's own table code, given minigrad's events, prints minigrad's table."""
    prof = _profiled(minigrad, _mlp_step, record_shapes=shapes)
    for events in (prof.key_averages(group_by_input_shape=shapes), prof.events()):
        ours = events.table(sort_by=sort_by, row_limit=row_limit)
        theirs = profiler_util._build_table(
            events, sort_by=sort_by, row_limit=row_limit
        )
        assert ours == theirs
    # the column names as PyTorch prints them
    header = ours.splitlines()[1].split()
    assert header[:3] == ["Name", "Self", "CPU"]
    table = prof.key_averages().table(
        sort_by="cpu_time_total", row_limit=2, header="H", top_level_events_only=True
    )
    expected = profiler_util._build_table(
        prof.key_averages(),
        sort_by="cpu_time_total",
        row_limit=2,
        header="H",
        top_level_events_only=True,
    )
    assert table == expected


def _inplace_ops(lib: Any) -> None:
    """In-place methods, functions, views and writes, recorded under their
    in-place names (``aten::mul_``); the tensors are made before profiling
    (factories record internals minigrad does not)."""
    F = lib.nn.functional
    x = lib.tensor([0.5, -1.0, 2.0], requires_grad=True)
    mask, index, src = lib.tensor([True, False, True]), lib.tensor([0]), x.detach()
    w, z = lib.zeros(3, 2), lib.zeros(3)
    with lib.profiler.profile() as prof:
        y = x * 2
        y.mul_(3).add_(1).add_(x, alpha=2).sub_(x).div_(2).clamp_(0, 5)
        y.clamp_(min=0.1).sigmoid_().exp_().tanh_().pow_(2).pow_(x).neg_().abs_()
        y.sin_().cos_().sqrt_().log_().reciprocal_().log1p_().expm1_()
        y.addcmul_(x, x).addcdiv_(x, x).lerp_(x, 0.5).masked_fill_(mask, 1.0)
        F.relu(y, inplace=True)
        F.leaky_relu(y, 0.1, inplace=True)
        F.elu(y, inplace=True)
        F.hardtanh(y, inplace=True)
        y[1:].mul_(2)
        y.copy_(x).zero_().fill_(2.0)
        w.t_().unsqueeze_(0).squeeze_(0).transpose_(0, 1)
        z += 1
        z *= 2
        lib.sin_(z)
        z[0] = 1.0
        z[1:] = src[:2]
        z[index] = 3.0
        z.index_add_(0, index, src[:1]).clamp_max_(1.0).floor_().remainder_(2)
        with lib.no_grad():  # an optimizer's update
            x -= 0.1 * src
            x.add_(src, alpha=-0.1).mul_(0.9)
    return prof


def _top_level(prof: Any) -> list[str]:
    """The names of the ops the program called (PyTorch's ``z[0] = 1.0`` also
    records the factory of its number, ``aten::lift_fresh``)."""
    return [
        e.name
        for e in prof.events()
        if e.cpu_parent is None and e.name != "aten::lift_fresh"
    ]


def test_inplace_ops_have_pytorchs_names() -> None:
    ours, theirs = _inplace_ops(minigrad), _inplace_ops(torch)
    assert _top_level(ours) == _top_level(theirs)
    # key_averages has them under those names, counted as called (PyTorch's
    # ops also run some inside: t_ a transpose_, relu_ a clamp_min_...)
    called = collections.Counter(_top_level(theirs))
    mine = {e.key: e.count for e in ours.key_averages()}
    assert set(mine) == {e.key for e in theirs.key_averages()} & set(called)
    assert mine == dict(called)
    assert mine["aten::mul_"] == 4 and mine["aten::t_"] == 1


def _squares(lib: Any) -> list:
    """What square, torch.square and square_ record: PyTorch's composite
    ``aten::square`` (``aten::square_``) around the ``aten::pow`` (``pow_``)
    it calls, with the input shapes of each."""
    x, y = lib.tensor([0.5, -1.0], requires_grad=True), lib.ones(2, 3)
    with lib.profiler.profile(record_shapes=True) as prof:
        x.square()
        lib.square(y)
        y.square_()
    outer = {None, "aten::square", "aten::square_"}
    return [
        (e.name, e.cpu_parent and e.cpu_parent.name, [s for s in e.input_shapes if s])
        for e in prof.events()
        if (e.cpu_parent and e.cpu_parent.name) in outer
    ]


def test_square_is_recorded_as_pytorchs_composite() -> None:
    ours, theirs = _squares(minigrad), _squares(torch)
    assert ours == theirs
    assert ("aten::pow_", "aten::square_", [[2, 3]]) in ours


def _flops_program(lib: Any) -> Any:
    """The ops PyTorch counts FLOPs of (matrix products, conv2d, mul, add),
    broadcasting, a grouped, strided, dilated convolution, an unbatched one
    (PyTorch counts none), and ops it does not count."""
    F = lib.nn.functional
    a, b, c = lib.ones(8, 16), lib.ones(16, 4), lib.ones(4)
    A, B, C = lib.ones(3, 8, 16), lib.ones(3, 16, 4), lib.ones(3, 8, 4)
    x, w, bias = lib.ones(2, 4, 8, 8), lib.ones(6, 2, 3, 3), lib.ones(6)
    x0, col, row, s = lib.ones(4, 8, 8), lib.ones(8, 1), lib.ones(1, 16), lib.ones(())
    with lib.profiler.profile(with_flops=True, record_shapes=True) as prof:
        a.mm(b), lib.addmm(c, a, b), lib.bmm(A, B), lib.baddbmm(C, A, B)
        F.conv2d(x, w, bias, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
        F.conv2d(x0, w, groups=2)
        a * 2, col * row, row * col, s * row, a + 1, s + row, a - 1, a.sin()
    return prof


def test_flops_are_pytorchs() -> None:
    """with_flops=True: each op the program calls counts PyTorch's FLOPs, and
    the table gets PyTorch's FLOPs column (in the unit of the smallest count)."""
    ours, theirs = _flops_program(minigrad), _flops_program(torch)

    def counted(prof: Any) -> list:
        return [
            (e.name, e.flops)
            for e in prof.events()
            if _called_by_the_program(e) and e.name not in INTERNAL
        ]

    assert counted(ours) == counted(theirs)
    assert ("aten::conv2d", 13824) in counted(ours)
    for shapes in (False, True):
        for events in (ours.key_averages(group_by_input_shape=shapes), ours.events()):
            table = events.table(sort_by="count", row_limit=6)
            expected = profiler_util._build_table(
                events, sort_by="count", row_limit=6, with_flops=True
            )
            assert table == expected
    header = ours.key_averages().table().splitlines()[1]
    assert header.split()[-2:] == ["Total", "FLOPs"]
    assert (
        header.split()[-2:]
        == theirs.key_averages().table().splitlines()[1].split()[-2:]
    )
    without = _profiled(minigrad, _mlp_step).key_averages().table()
    assert "FLOPs" not in without


def test_counts_and_times_add_up() -> None:
    x = minigrad.ones(3, requires_grad=True)
    with minigrad.autograd.profiler.profile() as prof:
        for _ in range(4):
            (x * 2).sum().backward()
    avg = {e.key: e for e in prof.key_averages()}
    assert avg["aten::mul"].count == 4
    assert avg["aten::sum"].count == 4
    assert avg["MulBackward0"].count == 4
    assert avg["autograd::engine::evaluate_function: SumBackward0"].count == 4
    for e in prof.function_events:
        assert e.cpu_time_total >= 0
        assert 0 <= e.self_cpu_time_total <= e.cpu_time_total
        assert e.cpu_time_total >= sum(c.cpu_time_total for c in e.cpu_children)
    total = prof.self_cpu_time_total
    assert total == pytest.approx(
        sum(e.self_cpu_time_total for e in prof.function_events)
    )
    first = prof.function_events[0]
    assert first.id == 1 and first.name == "aten::mul" and first.count == 1


def test_nothing_is_recorded_when_not_profiling() -> None:
    x = minigrad.ones(3, requires_grad=True)
    with minigrad.autograd.profiler.record_function("outside"):
        (x * 2).sum().backward()
    assert _profiling.recorder is None
    assert _fastpath.enabled
    with minigrad.autograd.profiler.profile(enabled=False) as prof:
        (x * 2).sum().backward()
    assert _fastpath.enabled and len(prof.key_averages()) == 0


def test_the_fast_paths_come_back_after_an_error() -> None:
    with pytest.raises(ValueError):
        with minigrad.profiler.profile():
            assert not _fastpath.enabled  # every op through Function.apply
            raise ValueError
    assert _fastpath.enabled and _profiling.recorder is None
    with _fastpath.disabled():  # (the fast paths' tests switch them off too)
        with minigrad.profiler.profile():
            pass
        assert not _fastpath.enabled
    assert _fastpath.enabled


def test_an_op_that_raises_closes_its_range() -> None:
    with minigrad.profiler.profile() as prof:
        with pytest.raises(RuntimeError):
            minigrad.ones(2, 3).mm(minigrad.ones(2, 3))
        minigrad.ones(2).exp()
    events = prof.events()
    assert [e.name for e in events] == ["aten::mm", "aten::exp"]
    assert events[1].cpu_parent is None


def test_nested_profilers_record_alone() -> None:
    x = minigrad.ones(2)
    with minigrad.profiler.profile() as outer:
        x.exp()
        with minigrad.profiler.profile() as inner:
            x.sin()
        x.cos()
    assert [e.name for e in inner.events()] == ["aten::sin"]
    assert [e.name for e in outer.events()] == ["aten::exp", "aten::cos"]


def _warned(lib: Any, make: Any) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with make(lib):
            lib.ones(2) * 2
    return [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize(
    "make",
    [
        lambda lib: lib.autograd.profiler.profile(use_cuda=True),
        lambda lib: lib.autograd.profiler.profile(use_device="cuda"),
        lambda lib: lib.profiler.profile(
            activities=[
                lib.profiler.ProfilerActivity.CPU,
                lib.profiler.ProfilerActivity.CUDA,
            ]
        ),
        lambda lib: lib.profiler.profile(),
    ],
)
def test_cuda_is_accepted_with_pytorchs_warnings(make: Any) -> None:
    assert _warned(minigrad, make) == _warned(torch, make)


def test_profiler_activity_and_record_function_are_pytorchs() -> None:
    ours, theirs = minigrad.profiler.ProfilerActivity, torch.profiler.ProfilerActivity
    assert list(ours.__members__) == list(theirs.__members__)
    assert repr(ours.CPU) == repr(theirs.CPU) and str(ours.CPU) == str(theirs.CPU)
    assert (
        minigrad.profiler.record_function is minigrad.autograd.profiler.record_function
    )


def test_not_started() -> None:
    for lib in (minigrad, torch):
        assert len(lib.autograd.profiler.profile().key_averages()) == 0
        for call, text in [
            (
                "key_averages",
                "Profiler must be initialized before getting key averages",
            ),
            ("events", "Profiler must be initialized before accessing events"),
        ]:
            with pytest.raises(AssertionError, match=text):
                getattr(lib.profiler.profile(), call)()


def test_chrome_trace(tmp_path: Any) -> None:
    prof = _profiled(minigrad, _mlp_step)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())["traceEvents"]
    assert [e["name"] for e in trace] == [e.name for e in prof.events()]
    assert all(e["ph"] == "X" and e["dur"] >= 0 for e in trace)


def test_start_stop_step_and_on_trace_ready() -> None:
    seen = []
    prof = minigrad.profiler.profile(on_trace_ready=seen.append)
    prof.start()
    for _ in range(3):
        minigrad.ones(2).exp()
        prof.step()
    prof.stop()
    assert seen == [prof] and prof.step_num == 3
    assert prof.key_averages()[0].count == 3


def test_the_tutorial_pattern_under_import_torch(tmp_path: Any) -> None:
    """The profiler recipe's lines, through ``import torch`` (as_torch)."""

    source = (
        "import torch\n"
        "from torch.profiler import profile, record_function, ProfilerActivity\n"
        "x = torch.randn(4, 3, requires_grad=True)\n"
        "model = torch.nn.Linear(3, 2)\n"
        "with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:\n"
        "    with record_function('model_inference'):\n"
        "        model(x).sum().backward()\n"
        "print(prof.key_averages().table(sort_by='cpu_time_total', row_limit=10))\n"
    )
    lesson = tmp_path / "lesson.py"
    lesson.write_text(source)
    out = subprocess.run(
        [sys.executable, "-m", "minigrad", str(lesson)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    real = subprocess.run(
        [sys.executable, str(lesson)], capture_output=True, text=True, check=True
    )
    lines, torch_lines = out.stdout.splitlines(), real.stdout.splitlines()
    assert lines[:3] == torch_lines[:3]  # the separator and the column names
    assert "Self CPU %" in lines[1] and "# of Calls" in lines[1]
    assert len(lines) == len(torch_lines) == 3 + 10 + 3  # (the last one empty)
    assert any("model_inference" in line for line in lines)
    assert any("aten::addmm" in line for line in lines)
    assert lines[-2].startswith("Self CPU time total: ")
