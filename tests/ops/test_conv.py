"""Convolutions (ops/conv.py): 1-d to 3-d, stride, padding, dilation, groups,
transposed; drawn geometries against PyTorch.

Each op: float64 gradcheck, the same expression against PyTorch (values,
gradients, nodes, next_functions, ``_saved_*``), and second order where it
applies. (These came from test_ops_more.py, split by family.)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from op_harness import (
    check_gradcheck,
    differential,
    second_order,
    torch,
)

import minigrad

CONV = {  # (fn of (T, input, weight), input shape, weight shape)
    "conv2d": (
        lambda T, x, w: T.nn.functional.conv2d(x, w),
        (1, 2, 4, 4),
        (3, 2, 2, 2),
    ),
    "conv2d_stride_pad": (
        lambda T, x, w: T.nn.functional.conv2d(
            x, w, w[:, 0, 0, 0], stride=2, padding=1
        ),
        (2, 2, 5, 4),
        (3, 2, 3, 2),
    ),
    "conv2d_groups_dilation": (
        lambda T, x, w: T.nn.functional.conv2d(x, w, dilation=(2, 1), groups=2),
        (1, 4, 5, 3),
        (2, 2, 2, 2),
    ),
    "conv2d_same_unbatched": (
        lambda T, x, w: T.nn.functional.conv2d(x, w, padding="same"),
        (2, 3, 3),
        (2, 2, 3, 3),
    ),
    "conv1d": (
        lambda T, x, w: T.nn.functional.conv1d(x, w, stride=2, padding=2),
        (2, 2, 5),
        (3, 2, 3),
    ),
    "conv3d": (
        lambda T, x, w: T.nn.functional.conv3d(x, w),
        (1, 1, 3, 3, 3),
        (2, 1, 2, 2, 2),
    ),
    "conv_transpose2d": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(x, w),
        (1, 2, 3, 3),
        (2, 3, 2, 2),
    ),
    "conv_transpose2d_stride_pad_output_padding": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(
            x, w, w[0, :, 0, 0], stride=2, padding=1, output_padding=1
        ),
        (2, 2, 3, 2),
        (2, 3, 3, 2),
    ),
    "conv_transpose2d_groups_dilation": (
        lambda T, x, w: T.nn.functional.conv_transpose2d(
            x, w, stride=(1, 2), groups=2, dilation=(2, 1), output_padding=(1, 0)
        ),
        (1, 4, 3, 3),
        (4, 1, 2, 2),
    ),
    "conv_transpose1d_unbatched": (
        lambda T, x, w: T.nn.functional.conv_transpose1d(x, w, stride=3, padding=1),
        (2, 4),
        (2, 3, 3),
    ),
    "conv_transpose3d": (
        lambda T, x, w: T.nn.functional.conv_transpose3d(x, w, stride=2),
        (1, 1, 2, 2, 2),
        (1, 2, 2, 1, 2),
    ),
}


@pytest.mark.parametrize("name", sorted(CONV))
def test_convolutions(name: str) -> None:
    """gradcheck, PyTorch's values, graph, saved attributes and gradients, and
    second order (through ConvolutionBackwardBackward0) for both arguments."""
    fn, sx, sw = CONV[name]
    rng = np.random.default_rng(19)
    x, w = rng.normal(size=sx), rng.normal(size=sw)
    check_gradcheck(fn, x, w)
    differential(fn, [x, w])
    differential(fn, [x, w], requires_grad=(False, True))
    second_order(lambda T, a, b: fn(T, a, b) ** 2, [x, w])


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(1, 2),
    groups=st.integers(1, 2),
    stride=st.integers(1, 3),
    padding=st.integers(0, 2),
    dilation=st.integers(1, 2),
    kernel=st.integers(1, 3),
    size=st.integers(1, 4),
    extra=st.integers(0, 2),
)
def test_conv_transpose_random_geometry(
    k: int,
    groups: int,
    stride: int,
    padding: int,
    dilation: int,
    kernel: int,
    size: int,
    extra: int,
) -> None:
    """Transposed convolutions of random geometry: values, graph and gradients
    as PyTorch's, or PyTorch's error."""
    output_padding = extra if extra < max(stride, dilation) else 0
    rng = np.random.default_rng(size * 31 + kernel)
    x = rng.standard_normal((1, 2 * groups) + (size,) * k)
    w = rng.standard_normal((2 * groups, 2) + (kernel,) * k)
    conv = "conv_transpose1d" if k == 1 else "conv_transpose2d"

    def fn(T: Any, a: Any, b: Any) -> Any:
        return getattr(T.nn.functional, conv)(
            a, b, None, stride, padding, output_padding, groups, dilation
        )

    try:
        fn(torch, torch.tensor(x), torch.tensor(w))
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad, minigrad.tensor(x), minigrad.tensor(w))
        assert str(mine.value) == str(e)
        return
    differential(fn, [x, w])


@settings(max_examples=30, deadline=None)
@given(
    k=st.integers(1, 2),
    groups=st.integers(1, 2),
    stride=st.integers(1, 3),
    padding=st.integers(0, 2),
    dilation=st.integers(1, 2),
    kernel=st.integers(1, 3),
    size=st.integers(1, 5),
)
def test_conv_random_geometry(
    k: int,
    groups: int,
    stride: int,
    padding: int,
    dilation: int,
    kernel: int,
    size: int,
) -> None:
    """Convolutions of random geometry: as PyTorch's, or PyTorch's error."""
    rng = np.random.default_rng(size * 17 + kernel)
    x = rng.standard_normal((2, 2 * groups) + (size,) * k)
    w = rng.standard_normal((2 * groups, 2) + (kernel,) * k)
    conv = "conv1d" if k == 1 else "conv2d"

    def fn(T: Any, a: Any, b: Any) -> Any:
        return getattr(T.nn.functional, conv)(
            a, b, None, stride, padding, dilation, groups
        )

    try:
        fn(torch, torch.tensor(x), torch.tensor(w))
    except RuntimeError as e:
        with pytest.raises(RuntimeError) as mine:
            fn(minigrad, minigrad.tensor(x), minigrad.tensor(w))
        assert str(mine.value) == str(e)
        return
    differential(fn, [x, w])


@pytest.mark.parametrize(
    "kw",
    [
        {"padding": 1},
        {"stride": 2, "padding": 2, "dilation": 2},
        {"stride": (2, 1), "groups": 3, "padding": (0, 1)},
        {"groups": 6, "dilation": (1, 3)},
    ],
)
def test_conv2d_float32_at_lesson_size(kw: dict) -> None:
    """A float32 batch the size a lesson's CNN uses (im2col's matmul and col2im's
    adds at real shapes): values and all three gradients within float32 noise of
    PyTorch's, the result's dtype float32."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((8, 6, 15, 13)).astype(np.float32)
    w = rng.standard_normal((12, 6 // kw.get("groups", 1), 3, 3)).astype(np.float32)
    b = rng.standard_normal(12).astype(np.float32)
    results = []
    for lib in (minigrad, torch):
        args = [lib.tensor(a, requires_grad=True) for a in (x, w, b)]
        out = lib.nn.functional.conv2d(*args, **kw)
        g = np.random.default_rng(8).standard_normal(tuple(out.shape))
        out.backward(lib.tensor(g.astype(np.float32)))
        assert str(out.dtype).endswith("float32")
        results.append([out.detach().numpy()] + [a.grad.numpy() for a in args])
    for mine, theirs in zip(*results):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-4)


@settings(max_examples=40, deadline=None)
@given(
    k=st.integers(1, 3),
    groups=st.integers(1, 2),
    padding=st.integers(0, 2),
    dilation=st.integers(1, 2),
    size=st.integers(3, 6),
    lead=st.integers(1, 3),
    last=st.integers(1, 3),
)
def test_flat_col2im_agrees_with_strided_col2im(
    k: int, groups: int, padding: int, dilation: int, size: int, lead: int, last: int
) -> None:
    """At stride 1 the input's gradient sums the kernel's last axis in its GEMM
    and adds the other offsets' columns back in flat runs
    (conv._input_grad_flat); the strided adds (conv._input_grad_windows, taken
    at any other stride) give the same gradient, float32 and float64, for
    kernels of 1 to 3 along the leading axes and along the last."""
    from minigrad.ops import conv

    rng = np.random.default_rng(size * 31 + k)
    kernel = (lead,) * (k - 1) + (last,)
    for dtype in (np.float32, np.float64):
        x = rng.standard_normal((3, 2 * groups) + (size,) * k).astype(dtype)
        w = rng.standard_normal((4 * groups, 2) + kernel).astype(dtype)
        geometry = ((1,) * k, (padding,) * k, (dilation,) * k, groups)
        if size + 2 * padding < dilation * (max(kernel) - 1) + 1:
            continue
        g = rng.standard_normal(conv.conv_forward(x, w, geometry).shape).astype(dtype)
        flat = conv._input_grad_flat(g, w, x.shape, geometry)
        strided = conv._input_grad_windows(g, w, x.shape, geometry)
        assert flat.dtype == strided.dtype == dtype and flat.flags.c_contiguous
        np.testing.assert_allclose(flat, strided, rtol=1e-5, atol=1e-5)


def test_kept_columns_give_the_same_weight_gradient() -> None:
    """The forward keeps x's im2col columns for the weight's gradient when the
    weight needs one; the gradient equals the one computed from fresh columns
    (under saved-tensor hooks, which keep nothing extra) bit for bit; the
    columns go with the saved tensors (kept by retain_graph, freed after)."""
    rng = np.random.default_rng(3)
    x = minigrad.tensor(rng.standard_normal((4, 3, 9, 9)).astype(np.float32))
    w = minigrad.tensor(
        rng.standard_normal((5, 3, 3, 3)).astype(np.float32), requires_grad=True
    )
    grads = []
    for hooked in (False, True):
        w.grad = None
        if hooked:
            with minigrad.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                out = minigrad.nn.functional.conv2d(x, w, stride=2, padding=1)
            assert out.grad_fn._columns is None
        else:
            out = minigrad.nn.functional.conv2d(x, w, stride=2, padding=1)
            assert out.grad_fn._columns is not None
        out.sum().backward(retain_graph=True)
        assert (out.grad_fn._columns is not None) is not hooked
        out.sum().backward()
        assert out.grad_fn._columns is None
        grads.append(w.grad.numpy().tobytes())
    assert grads[0] == grads[1]
    with minigrad.no_grad():
        out = minigrad.nn.functional.conv2d(x, w)
    assert out.grad_fn is None
    out = minigrad.nn.functional.conv2d(x, w.detach())  # no weight gradient wanted
    assert out.grad_fn is None
    y = minigrad.nn.functional.conv2d(x.requires_grad_(), w.detach())
    assert y.grad_fn._columns is None
