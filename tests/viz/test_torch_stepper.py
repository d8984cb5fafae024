"""Stepping PyTorch's own engine (viz/torch_engine.py), checked against PyTorch
run without stepping and against the same program stepped on minigrad.

Documented differences from minigrad's frames (see viz/torch_engine.py): the
order of ``released`` names, and node hooks, which PyTorch does not list."""

from __future__ import annotations

import _thread
import gc
import subprocess
import sys
import threading
import time
import warnings
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_stepper import seed_graph as seed  # the seed graph (a*b, *d)

import minigrad
from viz.stepper import BackwardStepper

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(0)
X = RNG.standard_normal((4, 3))
W1, B1 = RNG.standard_normal((5, 3)), RNG.standard_normal(5)
W2, B2 = RNG.standard_normal((2, 5)), RNG.standard_normal(2)
Y = RNG.standard_normal((4, 2))
XS, WX, WH = (RNG.standard_normal(shape) for shape in ((3, 2), (2, 3), (3, 3)))


def leaf(lib: Any, value: Any) -> Any:
    return lib.tensor(np.asarray(value).tolist(), dtype=lib.float64, requires_grad=True)


def const(lib: Any, value: Any) -> Any:
    return lib.tensor(np.asarray(value).tolist(), dtype=lib.float64)


def seed_example(lib: Any) -> tuple[Any, dict]:
    """The seed lesson's example 3: c = a * b, e = c * d."""
    a, b, d = (lib.tensor(v, requires_grad=True) for v in (2.0, 3.0, 4.0))
    return (a * b) * d, {"a": a, "b": b, "d": d}


def mlp(lib: Any) -> tuple[Any, dict]:
    F = lib.nn.functional
    p = {k: leaf(lib, v) for k, v in (("W1", W1), ("b1", B1), ("W2", W2), ("b2", B2))}
    x, y = const(lib, X), const(lib, Y)
    h = F.relu(F.linear(x, p["W1"], p["b1"]))
    return F.mse_loss(F.linear(h, p["W2"], p["b2"]), y), p


def recurrent(lib: Any) -> tuple[Any, dict]:
    p = {"Wx": leaf(lib, WX), "Wh": leaf(lib, WH)}
    xs = const(lib, XS)
    h = lib.zeros(1, 3, dtype=lib.float64)
    for t in range(3):
        h = lib.tanh(xs[t : t + 1] @ p["Wx"] + h @ p["Wh"])
    return h.sum(), p


def hooked(lib: Any, log: list | None = None) -> tuple[Any, dict]:
    log = [] if log is None else log
    a, b = leaf(lib, [1.0, 2.0]), leaf(lib, [3.0, -1.0])
    c = a * b
    c.retain_grad()
    c.register_hook(lambda g: log.append(("c first", g.tolist())))
    c.register_hook(lambda g: g * 2)  # replaces the gradient, as in PyTorch
    d = c.exp()
    d.retain_grad()
    a.register_hook(lambda g: log.append(("a", g.tolist())))
    return (d * a).sum(), {"a": a, "b": b, "c": c, "d": d}


PROGRAMS = {
    "seed": seed_example,
    "lesson": seed,
    "mlp": mlp,
    "recurrent": recurrent,
    "hooks": hooked,
}


def unstepped(build: Callable, **backward: Any) -> tuple[list[str], list[dict]]:
    """PyTorch's order (node pre-hooks) and each param's .grad after each node
    (node post-hooks), from a plain backward() with no stepper."""
    loss, params = build(torch)
    if "inputs" in backward:  # names of params
        backward["inputs"] = [params[n] for n in backward["inputs"]]
    order: list[str] = []
    grads: list[dict] = []
    stack, seen = [loss.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        node.register_prehook(lambda g, n=node: order.append(_name(n)))
        node.register_hook(lambda gi, go: grads.append(_grads(params)))
        stack.extend(fn for fn, _ in node.next_functions)
    if backward.pop("autograd_grad", False):
        torch.autograd.grad(loss, **backward)
    else:
        loss.backward(**backward)
    return order, grads


def accumulate_grads(nodes: tuple) -> int:
    return sum(_name(n) == "AccumulateGrad" for n in nodes)


def _name(node: Any) -> str:
    return node.name().rsplit("::", 1)[-1]


def _grads(params: dict) -> dict:
    return {k: None if t.grad is None else t.grad.tolist() for k, t in params.items()}


def stepped(build: Callable, **options: Any) -> tuple[BackwardStepper, list, dict]:
    loss, params = build(torch)
    if "inputs" in options:  # names of params
        options["inputs"] = [params[n] for n in options["inputs"]]
    stepper = BackwardStepper(loss, params=params, **options)
    grads = []
    while stepper.next() is not None and len(grads) < len(stepper.frames):
        grads.append(_grads(params))
    return stepper, grads, params


def values(grads: tuple) -> list:
    return [None if g is None else np.asarray(g.tolist()) for g in grads]


def same_values(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        (x is None and y is None)
        or (x is not None and y is not None and np.allclose(x, y))
        for x, y in zip(a, b)
    )


@pytest.fixture(autouse=True)
def _no_worker_outlives_a_test() -> Any:
    yield
    assert no_worker_left()


def no_worker_left() -> bool:
    return not any(t.name == "viz-torch-backward" for t in threading.enumerate())


# --------------------------------------------------------------------- proof


@pytest.mark.parametrize("program", PROGRAMS)
def test_order_and_grads_are_pytorchs_at_every_step(program: str) -> None:
    order, grads_then = unstepped(PROGRAMS[program])
    stepper, grads_seen, _ = stepped(PROGRAMS[program])
    assert [f.name for f in stepper.frames] == order
    assert grads_seen == grads_then  # .grad after step k = what PyTorch wrote
    assert stepper.done and stepper.error is None and no_worker_left()


def two_outputs(lib: Any) -> tuple[Any, dict]:
    a = leaf(lib, [1.0, 2.0])
    return ((a * 2).sum(), (a * a).sum()), {"a": a}


@pytest.mark.parametrize("create_graph", [False, True])
@pytest.mark.parametrize("program", {**PROGRAMS, "two outputs": two_outputs})
def test_frames_equal_minigrads(program: str, create_graph: bool) -> None:
    options = {"create_graph": True} if create_graph else {}
    with warnings.catch_warnings():  # both warn about create_graph's cycle
        warnings.simplefilter("ignore")
        ours, _, _ = stepped(PROGRAMS.get(program, two_outputs), **options)
        loss, params = PROGRAMS.get(program, two_outputs)(minigrad)
        theirs = BackwardStepper(loss, params=params, **options)
        theirs.run_all()
    assert len(ours.frames) == len(theirs.frames)
    ties_after = 0
    for f, g in zip(ours.frames, theirs.frames):
        assert (f.name, f.node_id, f.ready_ids) == (g.name, g.node_id, g.ready_ids)
        assert same_values(values(f.grads_in), values(g.grads_in)), f.name
        assert same_values(values(f.grads_out), values(g.grads_out)), f.name
        assert [n for n, _ in f.accumulated] == [n for n, _ in g.accumulated]
        assert same_values(
            [v for _, v in f.accumulated + f.retained],
            [v for _, v in g.accumulated + g.retained],
        )
        assert [h.split(" hook ")[0] for h in f.hooks] == [
            h.split(" hook ")[0] for h in g.hooks
        ]
        assert sorted(f.released) == sorted(g.released)
        # PyTorch's order is open only between ready nodes of equal priority
        ties = max(ties_after, accumulate_grads(f.ready)) > 1
        assert (f.note is not None) == ties, f.note
        ties_after = accumulate_grads(f.ready)


def test_tensor_hooks_and_retain_grad_run_in_their_own_step() -> None:
    log_plain: list = []
    loss, params = hooked(torch, log_plain)
    loss.backward()
    log: list = []
    loss, params = hooked(torch, log)
    stepper = BackwardStepper(loss, params=params)
    for frame in iter(stepper.next, None):
        if frame.name == "MulBackward0" and frame.retained:  # c = a * b runs
            assert [n for n, _ in frame.retained] == ["c"]
            assert params["c"].grad is not None
            assert log[-1][0] == "c first"
            assert frame.hooks == ["tensor hook hooked.<locals>.<lambda>"] * 2
        if params["c"].grad is None:
            assert not any(entry[0] == "c first" for entry in log)
    assert log == log_plain  # the user's hooks ran as without the stepper
    assert params["c"].grad.tolist() == [2 * v for v in log[0][1]]
    assert params["a"]._backward_hooks and len(params["a"]._backward_hooks) == 1


def test_a_stale_no_grad_view_elsewhere_in_the_program_is_passed_over() -> None:
    """The stepper looks through every live tensor for hooks; reading
    ``grad_fn`` of a view made under no_grad whose base then changed in place
    raises in PyTorch, and such a leftover (from another cell) must not stop
    stepping an unrelated graph (it did, depending on what ran before)."""
    base = torch.ones(3, requires_grad=True).clone()
    with torch.no_grad():
        stale = base[:2]
    base.mul_(2)
    with pytest.raises(RuntimeError, match="view was created in no_grad mode"):
        _ = stale.grad_fn
    log: list = []
    loss, params = hooked(torch, log)
    frames = BackwardStepper(loss, params=params).run_all()
    assert any(f.retained for f in frames) and params["c"].grad is not None


def test_the_widget_panel_and_exports_read_torch_frames(tmp_path: Any) -> None:
    loss, params = seed(torch)
    stepper = BackwardStepper(loss, params=params)
    stepper.goto(2)
    rows = dict(stepper.describe()["rows"])
    assert rows["next_functions"] == "(AddBackward0, 0), (MulBackward0, 0)"
    assert rows["freed"] == "_saved_other, _saved_self"
    path = stepper.save(tmp_path / "steps.html")
    assert stepper.position == 2 and stepper.done and no_worker_left()
    assert "MeanBackward0" in path.read_text()


def test_errors_show_on_their_frame_in_pytorchs_words() -> None:
    def inplace(lib: Any) -> tuple[Any, dict]:
        x = leaf(lib, [1.0, 2.0])
        y = x * 2
        z = (y * y).sum()
        y.mul_(2)
        return z, {"x": x}

    loss, _ = inplace(torch)
    with pytest.raises(RuntimeError) as plain:
        loss.backward()
    for lib in (torch, minigrad):
        loss, params = inplace(lib)
        stepper = BackwardStepper(loss, params=params)
        stepper.run_all()
        last = stepper.frames[-1]
        assert [f.name for f in stepper.frames] == ["SumBackward0", "MulBackward0"]
        assert "which is output 0 of Mul, is at version 1" in last.error
    assert last.error == stepper.error
    assert ours_error(inplace) == f"RuntimeError: {plain.value}"
    assert no_worker_left()


def ours_error(build: Callable) -> str | None:
    loss, params = build(torch)
    stepper = BackwardStepper(loss, params=params)
    stepper.run_all()
    return stepper.frames[-1].error


def test_a_freed_graph_fails_on_the_first_node_that_reads_it() -> None:
    loss, params = seed(torch)
    loss.backward()
    stepper = BackwardStepper(loss, params=params)
    stepper.run_all()
    assert len(stepper.frames) == 2 and stepper.frames[1].name == "MulBackward0"
    assert "Trying to backward through the graph a second time" in stepper.error
    assert stepper.frames[1].error == stepper.error and no_worker_left()


def test_backward_options_and_autograd_grad() -> None:
    for options in ({"retain_graph": True}, {"create_graph": True}):
        plain = dict(options)
        order, grads_then = unstepped(mlp, **plain)
        with warnings.catch_warnings():  # PyTorch's create_graph warning
            warnings.simplefilter("ignore")
            stepper, grads_seen, params = stepped(mlp, **options)
        assert [f.name for f in stepper.frames] == order
        assert grads_seen == grads_then
        if "create_graph" in options:
            assert params["W1"].grad.grad_fn is not None  # a graph of the grads
        else:  # the graph is still there: a second pass runs
            loss = stepper._outputs
            loss.backward()

    order, grads_then = unstepped(mlp, inputs=["W2"])
    stepper, grads_seen, params = stepped(mlp, inputs=["W2"])
    assert [f.name for f in stepper.frames] == order
    assert grads_seen == grads_then
    assert params["W2"].grad is not None and params["W1"].grad is None

    loss, params = mlp(torch)
    inputs = [params["W1"], params["b2"]]
    expected = torch.autograd.grad(loss, inputs, retain_graph=True)
    order, _ = unstepped(mlp, autograd_grad=True, inputs=["W1", "b2"])
    stepper = BackwardStepper(loss, params=params, inputs=inputs, autograd_grad=True)
    stepper.run_all()
    for ours, theirs in zip(stepper.result, expected):
        assert np.allclose(ours.numpy(), theirs.numpy())
    assert params["W1"].grad is None  # nothing accumulated
    names = [f.name for f in stepper.frames]
    # the inputs' AccumulateGrad nodes do not run: their gradients are captured
    assert [n for n in names if n != "AccumulateGrad"] == order
    captured = [f for f in stepper.frames if f.name == "AccumulateGrad"]
    assert len(captured) == 2 and all(not f.grads_out for f in captured)


# --------------------------------------------------------------- abort paths


def graph_is_freed(refs: list) -> bool:
    gc.collect()
    return all(r() is None for r in refs)


@pytest.mark.parametrize("how", ["reset", "close", "widget", "garbage"])
def test_stopping_mid_way_ends_the_worker_and_unhooks(how: str) -> None:
    loss, params = seed(torch)
    refs = [weakref.ref(loss)]
    stepper = BackwardStepper(loss, params=params, retain_graph=True)
    widget = None
    stepper.goto(3)
    assert not no_worker_left()
    if how == "reset":
        stepper.reset()  # display only: the pass waits, then goes on
        assert stepper.position == 0 and not stepper.done
        stepper.goto(4)
        assert stepper.step == 4
        stepper.close()
    elif how == "close":
        stepper.close()
    elif how == "widget":
        pytest.importorskip("anywidget")
        widget = stepper.widget()
        widget.next_button.click()  # the widget's Next runs PyTorch's next node
        assert stepper.step == 4 and not widget.errors.value
        widget.close()
    elif how == "garbage":
        del stepper
    assert no_worker_left()
    # no hook of ours is left: a plain backward runs through on this thread
    params["w1"].grad = None
    loss.backward()
    assert params["w1"].grad.item() == 28.0
    del loss
    stepper = widget = None  # noqa: F841
    assert graph_is_freed(refs)


def test_argument_errors_are_raised_at_once_in_pytorchs_words() -> None:
    for output in (torch.ones(2, requires_grad=True) * 2, torch.ones(2).sum()):
        with pytest.raises(RuntimeError) as plain:
            output.backward()
        with pytest.raises(RuntimeError) as ours:
            BackwardStepper(output)
        assert str(ours.value) == str(plain.value)
    assert no_worker_left()


def test_nothing_runs_before_the_first_next() -> None:
    log: list = []
    loss, params = seed(torch)
    loss.register_hook(lambda g: log.append("loss hook"))
    stepper = BackwardStepper(loss, params=params)
    assert log == [] and not no_worker_left()
    stepper.next()
    assert log == ["loss hook"]
    assert stepper.frames[0].hooks == [
        "tensor hook test_nothing_runs_before_the_first_next.<locals>.<lambda>"
    ]
    stepper.run_all()
    assert list(loss._backward_hooks.values())[0] is not None
    assert len(loss._backward_hooks) == 1


def test_a_plain_backward_mid_way_is_not_gated() -> None:
    loss, params = seed(torch)
    stepper = BackwardStepper(loss, params=params, retain_graph=True)
    stepper.goto(2)
    loss.backward(retain_graph=True)  # on this thread: the stepper's hooks stand by
    assert params["w1"].grad.item() == 28.0
    stepper.run_all()
    assert params["w1"].grad.item() == 56.0 and no_worker_left()


def test_an_exception_in_a_user_hook_ends_the_pass_on_its_frame() -> None:
    loss, params = hooked(torch)

    def broken(_g: Any) -> None:
        raise ValueError("a hook broke")

    params["d"].register_hook(broken)
    stepper = BackwardStepper(loss, params=params)
    stepper.run_all()
    assert stepper.error == "ValueError: a hook broke"
    assert stepper.frames[-1].name == "ExpBackward0"  # d's node, about to run
    assert no_worker_left() and len(params["d"]._backward_hooks) == 1


def test_an_interrupt_while_pytorch_runs_aborts_cleanly() -> None:
    loss, params = seed(torch)

    def interrupt(_g: Any) -> None:  # a kernel interrupt mid-node
        _thread.interrupt_main()
        time.sleep(0.2)

    params["w3"].register_hook(interrupt)
    stepper = BackwardStepper(loss, params=params, retain_graph=True)
    with pytest.raises(KeyboardInterrupt):
        stepper.run_all()
    assert stepper.done and no_worker_left()
    params["w3"]._backward_hooks.clear()
    loss.backward()  # nothing of the stepper is left on the graph


def test_hook_output_is_printed_by_the_caller(capsys: Any) -> None:
    loss, params = seed(torch)
    params["w1"].register_hook(lambda g: print("w1 gets", g.item()))
    stepper = BackwardStepper(loss, params=params)
    stepper.run_all()
    assert capsys.readouterr().out == "w1 gets 28.0\n"


def test_import_viz_does_not_import_torch() -> None:
    code = "import sys, viz; viz.BackwardStepper; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=_root())


def _root() -> str:
    from pathlib import Path

    return str(Path(__file__).resolve().parents[2])


def test_pdf_gif_png_and_forward_exports_of_torch_frames(tmp_path: Any) -> None:
    from test_viz_render import pdf_text

    loss, params = seed(torch)
    stepper = BackwardStepper(loss, params=params)
    n = stepper.total
    pdf = pdf_text(stepper.save(tmp_path / "steps.pdf").read_bytes())
    assert b"Step 1 of" in pdf and b"MeanBackward0" in pdf
    assert stepper.save(tmp_path / "steps.gif").read_bytes()[:6] == b"GIF89a"
    folder = stepper.save(tmp_path / "frames", fmt="png", view="forward")
    pngs = sorted(folder.glob("*.png"))
    assert len(pngs) == n + 1  # the frame before the first step, then one per node
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
    assert stepper.done and no_worker_left()


def test_a_custom_function_node_steps_and_frees_its_saved_tensors() -> None:
    """A custom Function's node (here reentrant checkpoint's, which runs a
    backward of its own inside) keeps its slots as ``_raw_saved_tensors``,
    read as ``saved_tensors``: stepping it gives PyTorch's grads."""
    from torch.utils.checkpoint import checkpoint

    def program() -> tuple[Any, Any, Any]:
        w, x = leaf(torch, WX), leaf(torch, XS)
        y = checkpoint(lambda x: torch.tanh(x @ w), x, use_reentrant=True)
        return y.sum(), w, x

    loss, w, x = program()
    loss.backward()
    loss2, w2, x2 = program()
    stepper = BackwardStepper(loss2, params={"w": w2, "x": x2})
    while not stepper.done:
        stepper.next()
    assert stepper.error is None
    names = [f.name for f in stepper.frames]
    assert names == ["SumBackward0", "CheckpointFunctionBackward", "AccumulateGrad"]
    assert stepper.frames[1].released == ["_saved_tensors"]
    assert torch.equal(w2.grad, w.grad) and torch.equal(x2.grad, x.grad)
