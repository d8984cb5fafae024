"""Beginner labels by default, everything PyTorch saved with detail="expert"."""

from __future__ import annotations

import pytest

import viz
from viz.dot import esc


def linear_loss(t):
    t.manual_seed(0)
    lin = t.nn.Linear(4, 3)  # initialisation bumps the parameters' _version
    loss = t.nn.functional.cross_entropy(lin(t.randn(2, 4)), t.tensor([0, 2]))
    return loss, dict(lin.named_parameters())


def test_beginner_labels_hide_internals_and_name_enums(framework):
    loss, params = linear_loss(framework)
    src = viz.backward_graph(loss, params=params).source
    assert esc("reduction='mean'") in src and "ignore_index=-100" in src
    assert "alpha=1" in src and "dim=1" in src  # what explains the formula stays
    for noise in ("_sym_sizes", "_sym_strides", "=None", "more)", "1844674407"):
        assert noise not in src, noise
    assert "<b>scalar</b>" in src and "<b>()</b>" not in src  # the unnamed 0-d loss
    assert "_version=" not in src  # fresh parameters: nothing changed in place


def test_expert_labels_show_everything(framework):
    loss, params = linear_loss(framework)
    src = viz.backward_graph(loss, params=params, detail="expert").source
    for text in ("reduction=1", "ignore_index=18446744073709551516", "weight=None"):
        assert text in src, text
    assert "mat1_sym_sizes=(2, 4)" in src and "(+" in src  # Addmm's 7 attributes
    assert "<b>()</b>" in src and "_version=1" in src


def test_forward_view_says_scalar(framework):
    a = framework.tensor(2.0, requires_grad=True)
    src = viz.forward_graph(a * 3, params={"a": a}).source
    assert "scalar float32" in src and "() float32" not in src
    assert (
        "() float32"
        in viz.forward_graph(a * 3, params={"a": a}, detail="expert").source
    )


def test_version_shown_where_an_in_place_change_explains_it(framework):
    w = framework.tensor([1.0, 2.0], requires_grad=True)
    with framework.no_grad():
        w.mul_(2)  # an initialisation step: version 1, nothing saved before it
    x = framework.tensor([3.0, 4.0], requires_grad=True)
    y = x * 1
    z = (y * w).sum()  # saves y at version 0 ...
    y.add_(1)  # ... then changes it: y is now a non-leaf at version 1
    src = viz.backward_graph({"z": z, "y": y}, params={"w": w}).source
    y_line = next(ln for ln in src.splitlines() if "<b>y</b>" in ln)
    w_line = next(ln for ln in src.splitlines() if "<b>w</b>" in ln)
    assert "_version=1" in y_line and "_version=" not in w_line
    assert "now v1, saved at v0" in src  # the stale slot names both versions
    assert "is output 0 of " in src  # the changed tensor, as PyTorch names it


def test_bad_detail_is_refused(framework):
    a = framework.tensor(1.0, requires_grad=True)
    with pytest.raises(ValueError, match="detail must be one of"):
        viz.backward_graph(a * 2, detail="novice")


def test_stale_slot_names_a_namespaced_node_in_full(framework):
    # lesson 6: b[0] = ... gives b the node CopySlices, which PyTorch's version
    # error names torch::autograd::CopySlices; the label once stopped at "::"
    a = framework.tensor([1.0, 3.0], requires_grad=True)
    b = a + 2
    loss = (b * b).mean()
    b[0] = 1000.0
    src = viz.backward_graph(loss, params={"a": a, "b": b, "loss": loss}).source
    name = framework.__name__
    assert f"is output 0 of {name}::autograd::CopySlices<" in src


def test_the_stepper_panel_hides_internals_for_a_beginner() -> None:
    """The panel lists saved attributes as the drawing does: a beginner sees no
    ``*_sym_sizes`` and the reduction by name; expert sees all PyTorch saved."""
    import minigrad
    from viz.stepper import BackwardStepper

    panels: dict[str, list[dict]] = {}
    for detail in ("beginner", "expert"):
        x = minigrad.ones(2, 3, requires_grad=True)
        loss = minigrad.nn.functional.mse_loss(x.mean(0), minigrad.zeros(3))
        stepper = BackwardStepper(loss, detail=detail)
        panels[detail] = []
        while stepper.next() is not None:
            panels[detail].append(dict(stepper.describe()["rows"]))
    beginner, expert = panels["beginner"], panels["expert"]
    assert beginner[0]["_saved_reduction"] == "'mean'"
    assert expert[0]["_saved_reduction"] == "1"
    assert "_saved_self_sym_sizes" in expert[1]  # MeanBackward1
    assert not any("_sym_" in key for rows in beginner for key in rows)
    assert beginner[1]["_saved_dim"] == expert[1]["_saved_dim"]
