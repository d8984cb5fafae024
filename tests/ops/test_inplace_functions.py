"""Every top-level in-place function of PyTorch 2.13 (``torch.sin_``, ...) whose
Tensor method minigrad has is a minigrad function too, and ``minigrad.<name>_``
is the method's in-place op (the values and nodes are compared with PyTorch in
tests/differential/programs/scenario_inplace_functions*.py)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

# torch.<name>_ functions whose op minigrad lacks altogether (no out-of-place
# form either), each for a reason:
LACKING = {
    "as_strided_": "minigrad has no as_strided (views are shape ops only)",
    "conj_physical_": "no complex dtypes",
    "resize_as_": "no resize: a tensor's storage is its numpy array",
    "resize_as_sparse_": "no sparse tensors",
    "erfc_": "no erfc op",
    "sinc_": "no sinc op",
    "i0_": "no Bessel functions",
    "gcd_": "no integer number theory (gcd, lcm)",
    "lcm_": "no integer number theory (gcd, lcm)",
    "ldexp_": "no ldexp op",
    # functions of torch's namespace that are no Tensor methods there either
    "alpha_dropout_": "no alpha dropout",
    "feature_alpha_dropout_": "no alpha dropout",
    "feature_dropout_": "no feature dropout",
    "rrelu_": "no rrelu",
    "threshold_": "no threshold",
    "embedding_renorm_": "no embedding max_norm",
}


def _torch_inplace_functions() -> list[str]:
    return sorted(
        n
        for n in dir(torch)
        if n.endswith("_")
        and not n.startswith("_")
        and not n.endswith("__")
        and callable(getattr(torch, n))
    )


def test_every_inplace_function_of_torch_is_bound() -> None:
    names = _torch_inplace_functions()
    assert len(names) > 60  # torch 2.13 has 74
    missing = [n for n in names if not hasattr(minigrad, n) and n not in LACKING]
    assert not missing, f"bind these in minigrad/__init__.py: {missing}"


def test_the_exclusions_are_ops_minigrad_lacks() -> None:
    names = set(_torch_inplace_functions())
    for name in LACKING:
        assert name in names, f"{name} is no torch function: drop it"
        assert not hasattr(minigrad, name), f"{name} exists now: drop the exclusion"
        assert not hasattr(minigrad.Tensor, name), name


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in _torch_inplace_functions()
        # (detach_ writes no value: scenario_inplace_functions.py checks it)
        if hasattr(minigrad.Tensor, n) and n != "detach_"
    ],
)
def test_a_method_and_its_function_write_the_same(name: str) -> None:
    """``minigrad.<name>_(t)`` is ``t.<name>_()``: same tensor back, one version."""
    args = {
        "addmv_": (minigrad.ones(3, 2), minigrad.ones(2)),
        "clamp_": (0.0, 0.5),
        "clip_": (0.0, 0.5),
        "clamp_min_": (0.1,),
        "clamp_max_": (0.4,),
        "fill_": (2.0,),
        "xlogy_": (2.0,),
        "index_put_": ((minigrad.tensor([0]),), minigrad.tensor(1.0)),
    }
    assert name in args or name in ONE_TENSOR_OK, f"give {name}'s arguments here"
    x = minigrad.tensor([0.25, 0.5, 0.75])
    y = x.clone()
    out = getattr(minigrad, name)(x, *args.get(name, ()))
    getattr(y, name)(*args.get(name, ()))
    assert out is x
    assert x._version == 1
    np.testing.assert_array_equal(x.numpy(), y.numpy())  # (nan equals nan)


ONE_TENSOR_OK = set(
    "abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ "
    "asinh_ atan_ atanh_ ceil_ cos_ cosh_ deg2rad_ erf_ exp2_ exp_ expm1_ "
    "fix_ floor_ frac_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ "
    "rad2deg_ reciprocal_ relu_ round_ rsqrt_ sigmoid_ sin_ sinh_ sqrt_ square_ "
    "tan_ tanh_ trunc_ zero_".split()
)
