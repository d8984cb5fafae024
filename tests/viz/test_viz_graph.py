"""The graph model (viz.graph): nodes, edges, saved slots, the forward view.

Expected structures are written out by hand for the seed examples, checked
against a direct walk of PyTorch's own ``next_functions``, and, for minigrad,
compared with the model built from torch for the same code.
"""

from __future__ import annotations

import pytest

from viz.graph import (
    GraphTooLargeError,
    build_graph,
    forward_view,
)
from viz.graph import (
    op_label as forward_op_name,
)

# ---------------------------------------------------------------- helpers


def fn_labels(g) -> dict[str, str]:
    """Readable function labels: "MulBackward0:c", "AccumulateGrad:a"."""
    labels = {}
    out_names = {t.producer[0]: t.name for t in g.tensors.values() if t.producer}
    for f in g.functions.values():
        owner = g.tensors[f.variable].name if f.variable else out_names.get(f.id)
        labels[f.id] = f"{f.name}:{owner}"
    return labels


def edges(g) -> set[tuple]:
    lab = fn_labels(g)
    return {(lab[e.src], e.input_nr, lab.get(e.dst), e.output_nr) for e in g.edges}


def saved(g) -> set[tuple]:
    lab = fn_labels(g)
    out = set()
    for s in g.saved.values():
        t = g.tensors[s.tensor] if s.tensor else None
        out.add((lab[s.node], s.slot, t.name if t else None, s.state))
    return out


def torch_edges(output, params) -> set[tuple]:
    """The same edge set, read straight from PyTorch's next_functions."""

    def label(node):
        if node is None:
            return None
        if type(node).__name__ == "AccumulateGrad":
            name = next(k for k, v in params.items() if v is node.variable)
            return f"AccumulateGrad:{name}"
        name = next((k for k, v in params.items() if v.grad_fn is node), None)
        return f"{node.name()}:{name}"

    found, todo, seen = set(), [output.grad_fn], set()
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for i, (nxt, nr) in enumerate(node.next_functions):
            found.add((label(node), i, label(nxt), nr))
            if nxt is not None:
                todo.append(nxt)
    return found


SEED1_EDGES = {
    ("MulBackward0:e", 0, "MulBackward0:c", 0),
    ("MulBackward0:e", 1, "AccumulateGrad:d", 0),
    ("MulBackward0:c", 0, "AccumulateGrad:a", 0),
    ("MulBackward0:c", 1, "AccumulateGrad:b", 0),
}
SEED1_SAVED = {
    ("MulBackward0:e", "self", "c", "ok"),
    ("MulBackward0:e", "other", "d", "ok"),
    ("MulBackward0:c", "self", "a", "ok"),
    ("MulBackward0:c", "other", "b", "ok"),
}
SEED2_EDGES = {
    ("MeanBackward0:loss", 0, "MulBackward0:l4", 0),
    ("MulBackward0:l4", 0, "AddBackward0:l2", 0),
    ("MulBackward0:l4", 1, "MulBackward0:l3", 0),
    ("AddBackward0:l2", 0, "MulBackward0:l1", 0),
    ("AddBackward0:l2", 1, "AccumulateGrad:w2", 0),
    ("MulBackward0:l3", 0, "MulBackward0:l1", 0),
    ("MulBackward0:l3", 1, "AccumulateGrad:w3", 0),
    ("MulBackward0:l1", 0, None, 0),  # `input` does not require grad
    ("MulBackward0:l1", 1, "AccumulateGrad:w1", 0),
}
SEED2_SAVED = {
    ("MulBackward0:l4", "self", "l2", "ok"),
    ("MulBackward0:l4", "other", "l3", "ok"),
    ("MulBackward0:l3", "self", "l1", "ok"),
    ("MulBackward0:l3", "other", "w3", "ok"),
    ("MulBackward0:l1", "self", "input", "ok"),
}


# ------------------------------------------------------------------ seeds


def test_seed1_model(framework, seeds):
    e, params = seeds["seed1"](framework)
    g = build_graph(e, params=params)
    assert sorted(f.name for f in g.functions.values()) == [
        "AccumulateGrad",
        "AccumulateGrad",
        "AccumulateGrad",
        "MulBackward0",
        "MulBackward0",
    ]
    assert edges(g) == SEED1_EDGES
    assert saved(g) == SEED1_SAVED
    assert g.functions["f0"].name == "MulBackward0"  # the root comes first
    out = g.tensors[g.outputs[0]]
    assert (out.name, out.kind, out.is_output, out.value) == (
        "e",
        "nonleaf",
        True,
        "24.",
    )
    leaves = {g.tensors[t].name: g.tensors[t].kind for t in g.shown_tensors}
    assert leaves == {
        "e": "nonleaf",
        "a": "leaf",
        "b": "leaf",
        "d": "leaf",
        "c": "nonleaf",
    }


def test_seed2_model(framework, seeds):
    loss, params = seeds["seed2"](framework)
    g = build_graph(loss, params={**params, "loss": loss})
    assert edges(g) == SEED2_EDGES
    assert saved(g) == SEED2_SAVED
    f = {lab: g.functions[fid] for fid, lab in fn_labels(g).items()}
    assert f["MulBackward0:l1"].attrs["other"] == "None"  # not saved: no grad
    assert f["AddBackward0:l2"].attrs == {"alpha": "1"}
    assert f["MeanBackward0:loss"].attrs["self_sym_numel"] == "4"
    inp = next(t for t in g.tensors.values() if t.name == "input")
    assert inp.kind == "constant" and inp.shape == (2, 2)


@pytest.mark.parametrize("seed", ["seed1", "seed2"])
def test_model_matches_pytorchs_own_graph(torch, seeds, seed):
    output, params = seeds[seed](torch)
    g = build_graph(output, params=params)
    assert edges(g) == torch_edges(output, params)
    assert len(g.functions) == len(
        {lab for e in edges(g) for lab in (e[0], e[2])} - {None}
    )


@pytest.mark.parametrize("seed", ["seed1", "seed2"])
def test_minigrad_model_equals_torch_model(torch, minigrad, seeds, seed):
    g_t = build_graph(*_args(seeds[seed](torch)))
    g_m = build_graph(*_args(seeds[seed](minigrad)))
    assert edges(g_m) == edges(g_t)
    assert saved(g_m) == saved(g_t)
    assert list(g_m.functions) == list(g_t.functions)  # same stable ids
    assert [f.attrs for f in g_m.functions.values()] == [
        f.attrs for f in g_t.functions.values()
    ]


def _args(pair):
    output, params = pair
    return output, params


def test_ids_are_stable_across_runs(framework, seeds):
    a = build_graph(*_args(seeds["seed2"](framework)))
    b = build_graph(*_args(seeds["seed2"](framework)))
    assert list(a.functions) == list(b.functions)
    assert list(a.saved) == list(b.saved)
    assert [e.id for e in a.edges] == [e.id for e in b.edges]


# ------------------------------------------------------------- forward view


def test_forward_view_seed2(framework, seeds):
    loss, params = seeds["seed2"](framework)
    fv = forward_view(build_graph(loss, params={**params, "loss": loss}))
    names = {t.id: t.name for t in fv.tensors}
    ops = {op.id: op.op for op in fv.ops}
    assert sorted(ops.values()) == ["Add", "Mean", "Mul", "Mul", "Mul"]
    inputs = {(names[e.src], ops[e.dst]) for e in fv.edges if e.dst in ops}
    assert ("input", "Mul") in inputs  # the constant, seen through _saved_self
    assert ("w1", "Mul") in inputs and ("l1", "Add") in inputs
    outputs = {(ops[e.src], names[e.dst]) for e in fv.edges if e.src in ops}
    assert ("Mean", "loss") in outputs and ("Add", "l2") in outputs
    kinds = {t.name: t.kind for t in fv.tensors}
    assert kinds["input"] == "constant" and kinds["w1"] == "leaf"
    assert kinds["l1"] == "nonleaf"


def test_forward_view_unsaved_constant_gets_placeholder(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = a + 2  # AddBackward0 saves no tensor: the 2 is invisible
    fv = forward_view(build_graph(y))
    placeholders = [t for t in fv.tensors if t.shape is None]
    assert len(placeholders) == 1 and placeholders[0].kind == "constant"


def test_forward_op_name():
    assert forward_op_name("MulBackward0") == "Mul"
    assert forward_op_name("PowBackward12") == "Pow"
    assert forward_op_name("MyExpBackward") == "MyExp"
    assert forward_op_name("CopySlices") == "CopySlices"
    assert forward_op_name("AccumulateGrad") == "AccumulateGrad"


# --------------------------------------------------------- other surfaces


def test_leaf_without_grad_fn_is_a_single_node(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    g = build_graph(a)
    assert g.functions == {} and g.edges == []
    (t,) = g.tensors.values()
    assert t.kind == "leaf" and t.is_output and t.shape == (2,)
    c = build_graph(framework.ones(3))
    assert next(iter(c.tensors.values())).kind == "constant"


@pytest.mark.parametrize("bad", [3.0, "loss", None, [1.0, 2.0], object()])
def test_non_tensors_are_refused(bad):
    with pytest.raises(TypeError, match="viz expects tensors"):
        build_graph(bad)


def test_empty_outputs_are_refused():
    with pytest.raises(ValueError, match="at least one"):
        build_graph([])


def test_bad_params_are_refused(framework):
    a = framework.tensor(1.0, requires_grad=True)
    with pytest.raises(TypeError, match="params\\['w'\\] is not a tensor"):
        build_graph(a * 2, params={"w": 3.0})


def test_several_outputs_tuple_list_dict(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y, z = a * 2, a.exp()
    for outs in [(y, z), [y, z], {"y": y, "z": z}]:
        g = build_graph(outs)
        assert len(g.outputs) == 2
        assert {f.name for f in g.functions.values()} == {
            "MulBackward0",
            "ExpBackward0",
            "AccumulateGrad",
        }
        # both outputs share one AccumulateGrad node
        assert sum(f.is_accumulate_grad for f in g.functions.values()) == 1
    g = build_graph({"y": y, "z": z})
    assert [g.tensors[t].name for t in g.outputs] == ["y", "z"]


def test_saved_output_links_to_the_output_tensor(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = a.exp()  # saves its result, which is `y` itself
    g = build_graph(y)
    (slot,) = g.saved.values()
    assert slot.slot == "result" and slot.tensor == g.outputs[0]


def test_non_tensor_saved_attributes(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    g = build_graph(a**2)
    (pow_fn,) = [f for f in g.functions.values() if f.name == "PowBackward0"]
    assert pow_fn.attrs == {"exponent": "2"}
    assert [g.saved[s].slot for s in pow_fn.saved] == ["self"]


def test_multi_output_node_has_output_nr(framework, needs):
    needs(framework, "Tensor.split")
    a = framework.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    p, q = a.split(2)
    g = build_graph(p * q)
    (mul,) = [f for f in g.functions.values() if f.name == "MulBackward0"]
    nrs = [(e.input_nr, e.output_nr) for e in g.next_of(mul.id)]
    assert nrs == [(0, 0), (1, 1)]
    (split,) = [f for f in g.functions.values() if f.name == "SplitBackward0"]
    assert split.id in g.multi_output()


def test_saved_slots_are_freed_after_backward(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = (a * a).sum()
    y.backward()
    g = build_graph(y)
    states = {g.saved[s].state for s in g.saved}
    assert states == {"freed"}
    leaf = next(t for t in g.tensors.values() if t.is_leaf)
    assert leaf.grad == "[2., 4.]"


def test_saved_slot_changed_in_place_is_stale(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    x = a * 1
    z = x * x
    x.add_(1)
    g = build_graph(z)
    mul = g.functions["f0"]
    slots = [g.saved[s] for s in mul.saved]
    assert {s.state for s in slots} == {"stale"}
    assert {s.saved_version for s in slots} == {0}


def test_retains_grad_and_hooks_are_recorded(framework, needs):
    needs(framework, "Tensor.retain_grad", "Tensor.register_hook")
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    b.retain_grad()
    b.register_hook(lambda grad: grad)
    a.register_hook(lambda grad: grad)
    if not hasattr(b, "_backward_hooks"):
        pytest.skip(f"{framework.__name__} tensors have no _backward_hooks dict")
    g = build_graph(b.sum(), params={"a": a, "b": b})
    by_name = {t.name: t for t in g.tensors.values()}
    assert by_name["b"].retains_grad and by_name["b"].hooks == 1
    assert by_name["a"].hooks == 1 and not by_name["a"].retains_grad
    assert "b" in {g.tensors[t].name for t in g.shown_tensors}


def test_version_is_recorded(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    b.mul_(2)
    g = build_graph(b)
    assert g.tensors[g.outputs[0]].version == 1


def test_too_many_nodes_is_refused(framework):
    x = framework.tensor(1.0, requires_grad=True)
    for _ in range(400):
        x = x * 1.0001
    # (how quickly: benchmarks/bench_viz.py, "refusal" rows)
    with pytest.raises(GraphTooLargeError, match="max_nodes"):
        build_graph(x, max_nodes=100)
    assert len(build_graph(x, max_nodes=1000).functions) == 401


def test_default_limit_refuses_a_huge_graph(framework):
    import viz

    x = framework.tensor(1.0, requires_grad=True)
    for _ in range(3000):
        x = (x * 1.0001).tanh()  # 6,000 autograd nodes and as many saved tensors
    with pytest.raises(GraphTooLargeError, match="more than 2500 nodes"):
        viz.backward_graph(x)
    with pytest.raises(GraphTooLargeError):
        viz.forward_graph(x)


def test_custom_function_saved_tensors(framework, needs):
    needs(framework, "autograd.Function")

    class MyExp(framework.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = MyExp.apply(a)
    g = build_graph(y)
    fn = g.functions["f0"]
    assert fn.name == "MyExpBackward" and fn.op == "MyExp"
    (slot,) = (g.saved[s] for s in fn.saved)
    assert slot.attr == "saved_tensors[0]" and slot.tensor == g.outputs[0]
