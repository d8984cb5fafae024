"""DOT source (viz.dot via Drawing.source): colours, shapes, labels, escaping."""

from __future__ import annotations

import re

import pytest

import viz
from viz.dot import SHAPES, THEMES, esc


def node_attrs(source: str, node_id: str) -> dict[str, str]:
    """Attributes (without the HTML label) of the node ``node_id`` in DOT text."""
    for line in source.splitlines():
        head = line.strip().split(" [", 1)[0].strip('"')
        if head == node_id:
            rest = re.sub(r"label=<.*> (?=\w+=)", "", line.split(" [", 1)[1])
            pairs = re.findall(r'(\w+)=("[^"]*"|[^\s\]]+)', rest)
            return {k: v.strip('"') for k, v in pairs}
    raise AssertionError(f"no node {node_id!r}")


def has_attr(source: str, name: str, value: str) -> bool:
    """``name=value`` is in the DOT text, quoted or not."""
    return re.search(f'{name}="?{re.escape(value)}"?[ \\]]', source) is not None


def is_green(hex_colour: str) -> bool:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return g > r and g > b


def test_kinds_differ_by_shape_or_border_not_only_colour():
    assert len(set(SHAPES.values())) == len(SHAPES)
    for theme in THEMES.values():
        assert set(theme.colors) == set(SHAPES)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_leaves_are_green_in_both_views(framework, seeds, theme):
    e, params = seeds["seed1"](framework)
    back = viz.backward_graph(e, params=params, theme=theme).source
    fwd = viz.forward_graph(e, params=params, theme=theme).source
    leaf_fill = THEMES[theme].colors["leaf"][0]
    assert is_green(leaf_fill) and is_green(THEMES[theme].colors["leaf"][1])
    for source in (back, fwd):
        leaves = [ln for ln in source.splitlines() if 'class="leaf tensor"' in ln]
        assert len(leaves) == 3  # a, b, d
        assert all(f'fillcolor="{leaf_fill}"' in ln for ln in leaves)
    assert has_attr(back, "bgcolor", THEMES[theme].background)


def test_backward_labels(framework, seeds):
    loss, params = seeds["seed2"](framework)
    named = {"w1": params["w1"], "input": params["input"]}
    # everything PyTorch saved, as printed before beginner labels existed
    d = viz.backward_graph(loss, params=named, detail="expert")
    src = d.source
    for text in [
        "MeanBackward0",
        "MulBackward0",
        "AddBackward0",
        "AccumulateGrad",
        "_saved_self",
        "_saved_other",
        "alpha=1",
        "other=None",
        "<b>w1</b>",
        "is input",
        "saved at v0",
        "grad_fn",
        "variable",
    ]:
        assert text in src, text
    # an unnamed output falls back to its shape label
    assert "<b>()</b>" in src
    # the root's grad_fn node and its first edge have stable ids and classes
    assert node_attrs(src, "f0")["class"] == "fn function"
    assert has_attr(src, "id", "e-f0-0") and has_attr(src, "class", "next")
    assert node_attrs(src, "f4-self")["class"] == "saved saved"


def test_show_flags(framework, seeds):
    loss, params = seeds["seed2"](framework)
    src = viz.backward_graph(loss, show_saved=False, show_values=False).source
    assert "_saved_" not in src and "[[1., 1.]" not in src
    assert "<b>(2, 2)</b>" not in src  # the saved-tensor nodes are gone


def test_value_preview_and_version(framework):
    a = framework.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = a * 2
    b.mul_(3)
    src = viz.forward_graph(b, params={"a": a}).source
    assert "[1., 2., 3.]" in src and "[ 6., 12., 18.]" in src
    assert "_version=1" in src


def test_output_nr_label_on_multi_output_nodes(framework, needs):
    needs(framework, "Tensor.split")
    a = framework.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    p, q = a.split(2)
    y = p * q
    assert "output_nr=1" in viz.backward_graph(y).source
    fwd = viz.forward_graph(y).source
    assert has_attr(fwd, "label", "[0]") and has_attr(fwd, "label", "[1]")


def test_hooks_and_retains_grad_are_marked(framework, needs):
    needs(framework, "Tensor.retain_grad", "Tensor.register_hook")
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    b.retain_grad()
    b.register_hook(lambda grad: grad * 2)
    if not hasattr(b, "_backward_hooks"):
        pytest.skip(f"{framework.__name__} tensors have no _backward_hooks dict")
    b.sum().backward(retain_graph=True)
    src = viz.backward_graph(b.sum(), params={"a": a, "b": b}).source
    assert "retains_grad, hooks: 1" in src
    assert "grad:" in src and "[6., 6.]" in src  # b.grad (retained)


def test_freed_saved_tensors_are_marked(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    y = (a * a).sum()
    y.backward()
    src = viz.backward_graph(y).source
    assert "freed by backward()" in src
    assert has_attr(src, "class", "saved-freed saved")


NASTY = "<b>x</b> & \"q\" 'w' <script>"


def test_labels_are_escaped(framework):
    a = framework.tensor(1.0, requires_grad=True)
    y = a * 2
    for d in (
        viz.backward_graph(y, params={NASTY: a}),
        viz.forward_graph(y, params={NASTY: a}),
    ):
        src = d.source
        assert esc(NASTY) in src
        assert "<script>" not in src and "<b>x</b>" not in src
        assert "&lt;b&gt;x&lt;/b&gt; &amp; &quot;q&quot; &#x27;w&#x27;" in src


def test_output_dict_keys_name_tensors(framework):
    a = framework.tensor([1.0, 2.0], requires_grad=True)
    src = viz.forward_graph({"doubled": a * 2, "exp<>": a.exp()}).source
    assert "<b>doubled</b>" in src and "<b>exp&lt;&gt;</b>" in src


def test_legend_off_inline_on_for_export(framework, seeds, tmp_path):
    e, params = seeds["seed1"](framework)
    d = viz.backward_graph(e, params=params)
    assert "cluster_legend" not in d.source
    dot_file = d.save(tmp_path / "g.dot")
    text = dot_file.read_text()
    assert "cluster_legend" in text and "leaf tensor (requires_grad)" in text
    assert "saved tensor" in text
    assert "cluster_legend" not in d.save(tmp_path / "n.dot", legend=False).read_text()
    assert "cluster_legend" in viz.backward_graph(e, legend=True).source


def test_rankdir_size_theme_and_prefix(framework, seeds, tmp_path):
    e, _ = seeds["seed1"](framework)
    d = viz.forward_graph(e, rankdir="LR", id_prefix="fw-", theme="dark")
    assert has_attr(d.source, "rankdir", "LR") and has_attr(d.source, "id", "fw-f0")
    # (w, h) inches bound the drawing in DOT; a slide preset is fitted to its
    # page after the layout instead (tests/viz/test_viz_slides.py)
    text = d.save(tmp_path / "s.dot", size=(13.333, 7.5)).read_text()
    assert has_attr(text, "size", "13.333,7.5")
    text = d.save(tmp_path / "t.dot", size=(4, 3), theme="light").read_text()
    assert has_attr(text, "size", "4,3") and has_attr(text, "bgcolor", "white")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"theme": "neon"}, "theme must be one of"),
        ({"rankdir": "UP"}, "rankdir must be one of"),
        ({"size": "poster"}, "size must be one of"),
        ({"engine": "cairo"}, "engine must be one of"),
    ],
)
def test_bad_options_are_refused(framework, kwargs, match):
    a = framework.tensor(1.0, requires_grad=True)
    with pytest.raises(ValueError, match=match):
        viz.backward_graph(a * 2, **kwargs)


def test_big_graphs_go_compact(framework):
    x = framework.tensor([1.0, 2.0], requires_grad=True)
    w = framework.tensor([0.5, 0.5], requires_grad=True)
    small = viz.backward_graph((x * w).sum(), params={"w": w}).source
    assert "label=grad_fn" in small and "same-tensor" in small
    assert "nslimit" not in small
    y = x
    for _ in range(60):
        y = (y * w).tanh()  # 120 grad_fn nodes + 120 saved tensors
    big = viz.backward_graph(y, params={"w": w}).source
    assert "label=grad_fn" not in big and "same-tensor" not in big
    assert has_attr(big, "nslimit", "1")
    assert "label=grad_fn" in viz.backward_graph(y, compact=False).source
    assert has_attr(viz.forward_graph(y).source, "nslimit", "1")
