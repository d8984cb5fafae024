"""``minigrad.nn.functional`` (``F``): activations, softmax, losses, dropout and
``linear``, recording the same nodes as ``torch.nn.functional``."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .. import _profiling, grad_mode, linalg
from .._generator import default_generator
from .._tensor import Tensor
from .._views_inplace import bump_version
from ..ops import activation as AC
from ..ops import arithmetic as A
from ..ops import conv as CV
from ..ops import indexing as IX
from ..ops import linalg as L
from ..ops import loss as LS
from ..ops import norm as NORM
from ..ops import padding as PAD
from ..ops import piecewise_and_gated as PG
from ..ops import pool as PL
from ..ops import rearrange as RE
from ..ops import selection as C
from ..ops._common import _scalar, broadcast_shape
from ..ops.linalg import matmul


# ---------------------------------------------------------------- activations
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    return input.relu_() if inplace else input.relu()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def leaky_relu(
    input: Tensor, negative_slope: float = 0.01, inplace: bool = False
) -> Tensor:
    if inplace:
        return input._inplace(AC.LeakyRelu, negative_slope)
    return AC.LeakyRelu.apply(input, negative_slope)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    return AC.Gelu.apply(input, approximate)


def softplus(input: Tensor, beta: float = 1, threshold: float = 20) -> Tensor:
    # PyTorch's functional defaults are the integers 1 and 20 (they show in _saved_*)
    return AC.Softplus.apply(input, beta, threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(AC.EluResult, alpha, 1, 1)
    return AC.Elu.apply(input, alpha, 1, 1)


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    args = (AC.SELU_ALPHA, AC.SELU_SCALE, 1)
    if inplace:
        return input._inplace(AC.EluResult, *args)
    return AC.Elu.apply(input, *args)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(AC.CeluResult, alpha)
    return AC.Celu.apply(input, alpha)


def hardtanh(
    input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
) -> Tensor:
    if inplace:
        return input._inplace(AC.Hardtanh, min_val, max_val)
    return AC.Hardtanh.apply(input, min_val, max_val)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0, 6, inplace)  # (PyTorch saves the ints 0 and 6)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(AC.Silu)
    return AC.Silu.apply(input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(AC.Mish)
    return AC.Mish.apply(input)


def logsigmoid(input: Tensor) -> Tensor:
    return AC.LogSigmoid.apply(input)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(PG.Hardsigmoid)
    return PG.Hardsigmoid.apply(input)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    if inplace:
        return input._inplace(PG.Hardswish)
    return PG.Hardswish.apply(input)


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return PG.Hardshrink.apply(input, lambd)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    return PG.Softshrink.apply(input, lambd)


def threshold(
    input: Tensor, threshold: float, value: float, inplace: bool = False
) -> Tensor:
    if inplace:
        return input._inplace(PG.ThresholdResult, threshold, value)
    return PG.Threshold.apply(input, threshold, value)


def softsign(input: Tensor) -> Tensor:
    """``x / (1 + |x|)``: ordinary ops, as PyTorch computes it."""
    return input / (input.abs() + 1)


def tanhshrink(input: Tensor) -> Tensor:
    """``x - tanh(x)``: ordinary ops, as PyTorch computes it."""
    return input - input.tanh()


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """``a * sigmoid(b)`` for the two halves ``a, b`` of ``input`` along ``dim``."""
    return PG.Glu.apply(input, dim)


def softmin(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``softmax(-x)`` (NegBackward0 then SoftmaxBackward0, as PyTorch's)."""
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    if dtype is not None:
        return softmax(-input.to(dtype), dim)
    return softmax(-input, dim)


def normalize(
    input: Tensor,
    p: float = 2.0,
    dim: int = 1,
    eps: float = 1e-12,
    out: Tensor | None = None,
) -> Tensor:
    """``x / max(‖x‖_p, eps)`` along ``dim``, as PyTorch's ops: a norm, a
    clamp_min, an expand_as and a division."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is not None:
        raise NotImplementedError("minigrad's normalize takes no out=")
    return input / denom


def cosine_similarity(
    x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8
) -> Tensor:
    """``sum(x1/‖x1‖ * x2/‖x2‖, dim)`` with each norm at least ``eps``, as
    PyTorch 2.13's at::cosine_similarity: the norms are clamped in place without
    history, so their gradient flows as if unclamped."""
    if x1.shape != x2.shape:  # (PyTorch's expand_outplace: both, recorded)
        shape = broadcast_shape(tuple(x1.shape), tuple(x2.shape))
        x1, x2 = x1.expand(shape), x2.expand(shape)
    n1 = linalg.vector_norm(x1, 2, dim, keepdim=True).clone()
    n2 = linalg.vector_norm(x2, 2, dim, keepdim=True).clone()
    with grad_mode.no_grad():
        n1.clamp_min_(eps)
        n2.clamp_min_(eps)
    return ((x1 / n1) * (x2 / n2)).sum(dim)


def kl_div(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    log_target: bool = False,
) -> Tensor:
    """``target * (log(target) - input)`` for log-probabilities ``input``
    (``exp(target) * (target - input)`` with ``log_target``): ordinary ops."""
    if size_average is not None or reduce is not None:
        red = _reduction(size_average, reduce, reduction)
        reduction = {LS.NONE: "none", LS.MEAN: "mean", LS.SUM: "sum"}[red]
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the "
            "support size.'batchmean' divides only by the batch size, and aligns "
            "with the KL div math definition.'mean' will be changed to behave the "
            "same as 'batchmean' in the next major release.",
            UserWarning,
            stacklevel=2,
        )
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_target:
        loss = target.exp() * (target - input)
    else:
        loss = target.xlogy(target) - target * input
    if reduction == "mean":
        return loss.mean()
    if reduction == "none":
        return loss
    total = loss.sum()
    if reduction == "batchmean" and input.dim() != 0:
        return total / input.shape[0]
    return total


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """``x`` where positive, else ``weight * x`` with one weight per channel
    (dim 1), or one for all: the weight viewed to broadcast (ViewBackward0),
    then one node, PreluKernelBackward0."""
    n, ndim = weight.numel(), input.dim()
    if weight.dim() > 1:
        raise RuntimeError(
            f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
            f"ndim = {weight.dim()}"
        )
    if n != 1:
        if ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        channels = input.shape[1] if ndim >= 2 else 1
        if n != channels:
            raise RuntimeError(
                "Mismatch of parameter numbers and input channel size. Found "
                f"parameter numbers = {n} and channel size = {channels}."
            )
    if ndim >= 2:
        shape = [1] * ndim
        shape[1] = n
        weight = weight.view(shape)
    elif weight.dim() != ndim or ndim == 0:
        weight = weight.view([1] * ndim)
    return PG.PreluKernel.apply(input, weight)


def group_norm(
    input: Tensor,
    num_groups: int,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each group of ``C / num_groups`` channels (with the spatial
    dims) of each sample, then scale and shift per channel: one node,
    NativeGroupNormBackward0."""
    if input.dim() < 2:
        raise RuntimeError(
            "Expected at least 2 dimensions for input tensor but received "
            f"{input.dim()}"
        )
    c = input.shape[1]
    if c % num_groups:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, "
            f"but got input of shape {list(input.shape)} and num_groups="
            f"{num_groups}"
        )
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of "
                f"channels in input, but got {name} of shape {list(t.shape)} and "
                f"input of shape {list(input.shape)}"
            )
    return NORM.NativeGroupNorm.apply(input, weight, bias, num_groups, eps)


def instance_norm(
    input: Tensor,
    running_mean: Tensor | None = None,
    running_var: Tensor | None = None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    use_input_stats: bool = True,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Batch norm of each sample's channels on their own, as PyTorch's
    at::instance_norm: the input viewed as (1, N*C, ...), weight, bias and the
    running statistics repeated N times, and the statistics averaged back."""
    size = tuple(input.shape)
    b, c = size[0], size[1]
    if use_input_stats and math.prod(size[2:]) == 1:
        raise ValueError(
            f"Expected more than 1 spatial element when training, got input size "
            f"{input.shape}"
        )

    def repeat(t: Tensor | None) -> Tensor | None:
        return None if t is None else t.repeat(b)

    mean_, var_ = repeat(running_mean), repeat(running_var)
    x = input.contiguous().view(1, b * c, *size[2:])
    if mean_ is None or var_ is None:
        mean_ = var_ = None
    out = batch_norm(
        x, mean_, var_, repeat(weight), repeat(bias), use_input_stats, momentum, eps
    )
    with grad_mode.no_grad():
        if running_mean is not None and mean_ is not None:
            running_mean.copy_(mean_.view(b, c).mean(0))
        if running_var is not None and var_ is not None:
            running_var.copy_(var_.view(b, c).mean(0))
    return out.view(size)


def scaled_dot_product_attention(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    attn_mask: Tensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> Tensor:
    """``softmax(q kᵀ · scale + mask) v``, as PyTorch's math path records it: q
    and kᵀ each scaled by √scale, the mask added in place (a boolean mask as
    -inf where False), a safe softmax (a fully masked row gives 0s)."""
    if is_causal and attn_mask is not None:
        raise RuntimeError(
            "_scaled_dot_product_attention: Explicit attn_mask should not be set "
            "when is_causal=True"
        )
    if enable_gqa:
        raise NotImplementedError("minigrad's scaled_dot_product_attention has no GQA")
    dtype = query._data.dtype
    e = query.shape[-1]
    factor = abs(scale) if scale is not None else 1.0 / math.sqrt(e)
    root = math.sqrt(factor)
    # (C++ multiplies by a number: MulBackward1, not a wrapped tensor's 0)
    q = A.MulScalar.apply(query, -root if scale is not None and scale < 0 else root)
    if is_causal:
        size = (query.shape[-2], key.shape[-2])
        attn_mask = Tensor._make(np.tril(np.ones(size, bool)), False)
    if attn_mask is not None and attn_mask._data.dtype == np.bool_:
        bias = np.where(attn_mask._data, 0, -np.inf).astype(dtype)
        attn_mask = Tensor._make(bias, False)
    attn = matmul(q, A.MulScalar.apply(key.transpose(-2, -1), root))
    if attn_mask is not None:
        attn.add_(attn_mask)
    attn = PG.SafeSoftmax.apply(attn, -1)
    if dropout_p > 0.0:
        attn = dropout(attn, dropout_p, True)
    return matmul(attn, value)


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    """(*, C r², H, W) -> (*, C, H r, W r): channels moved into space."""
    return RE.PixelShuffle.apply(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    """(*, C, H r, W r) -> (*, C r², H, W): pixel_shuffle's inverse."""
    return RE.PixelUnshuffle.apply(input, downscale_factor)


def embedding(
    input: Tensor,
    weight: Tensor,
    padding_idx: int | None = None,
    max_norm: float | None = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> Tensor:
    """The rows of ``weight`` at the indices in ``input`` (a lookup table); the
    row at ``padding_idx`` gets no gradient."""
    n = weight.shape[0]
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx > 0:
        assert padding_idx < n, "Padding_idx must be within num_embeddings"
    elif padding_idx < 0:
        assert padding_idx >= -n, "Padding_idx must be within num_embeddings"
        padding_idx = n + padding_idx
    if sparse:
        raise NotImplementedError("minigrad has no sparse gradients")
    if max_norm is not None:  # rows used are renormalized in place first
        _embedding_renorm_(weight, input, max_norm, norm_type)
    return IX.Embedding.apply(weight, (input,), padding_idx, scale_grad_by_freq)


def _embedding_renorm_(
    weight: Tensor, input: Tensor, max_norm: float, norm_type: float
) -> None:
    """Scale the looked-up rows whose norm exceeds ``max_norm`` down to it (in
    place, without history, as PyTorch's embedding_renorm_)."""
    rows = np.unique(input._data.reshape(-1))
    w = weight._data
    norms = np.linalg.norm(w[rows], ord=norm_type, axis=1)
    big = norms > max_norm
    w[rows[big]] *= (max_norm / (norms[big] + 1e-7))[:, None]
    bump_version(weight)


def layer_norm(
    input: Tensor,
    normalized_shape: Any,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize over the last dims (mean 0, variance 1), then scale and shift
    elementwise: one node, NativeLayerNormBackward0."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return NORM.NativeLayerNorm.apply(input, weight, bias, tuple(normalized_shape), eps)


def _conv(
    k: int,
    input: Tensor,
    weight: Tensor,
    bias: Tensor | None,
    stride: Any,
    padding: Any,
    dilation: Any,
    groups: int,
) -> Tensor:
    """A ``k``-d convolution: one node, ConvolutionBackward0 (an unbatched input
    gets a batch dim of 1 for it, as in PyTorch)."""

    def tup(v: Any) -> tuple[int, ...]:
        return (v,) * k if isinstance(v, int) else tuple(v)

    stride, dilation = tup(stride), tup(dilation)
    kernel = weight.shape[2:]
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0,) * k
        elif padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError(
                    "padding='same' is not supported for strided convolutions"
                )
            total = [d * (n - 1) for d, n in zip(dilation, kernel)]
            if any(t % 2 for t in total):
                raise NotImplementedError(
                    "minigrad's padding='same' needs an odd (dilated) kernel size"
                )
            padding = tuple(t // 2 for t in total)
        else:
            raise ValueError(
                f"Invalid padding string '{padding}', should be one of "
                "{'valid', 'same'}"
            )
    unbatched = input.dim() == k + 1
    if unbatched:
        input = input.unsqueeze(0)
    geometry = (stride, tup(padding), dilation, groups)
    out = CV.Convolution.apply(input, weight, bias, geometry)
    return out.squeeze(0) if unbatched else out


def _conv_function(k: int) -> Any:
    def conv(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
    ) -> Tensor:
        # PyTorch's profile: aten::conv2d around the convolution it runs
        args = (input, weight, bias, stride, padding, dilation, groups)
        return _profiling.composite(f"aten::conv{k}d", args, _conv, k, *args)

    conv.__name__ = conv.__qualname__ = f"conv{k}d"
    conv.__doc__ = f"A {k}-d convolution (cross-correlation, as PyTorch's)."
    return conv


conv1d, conv2d, conv3d = _conv_function(1), _conv_function(2), _conv_function(3)


def _conv_transpose_function(k: int) -> Any:
    def conv_transpose(
        input: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        dilation: Any = 1,
    ) -> Tensor:
        def tup(v: Any) -> tuple[int, ...]:
            return (v,) * k if isinstance(v, int) else tuple(v)

        unbatched = input.dim() == k + 1
        if unbatched:
            input = input.unsqueeze(0)
        geometry = (tup(stride), tup(padding), tup(dilation), groups)
        out = CV.Convolution.apply(input, weight, bias, geometry, tup(output_padding))
        return out.squeeze(0) if unbatched else out

    name = f"conv_transpose{k}d"
    conv_transpose.__name__ = conv_transpose.__qualname__ = name
    conv_transpose.__doc__ = (
        f"A {k}-d transposed convolution: the gradient of conv{k}d with respect to "
        "its input, as an op (ConvolutionBackward0 with transposed=True)."
    )
    return conv_transpose


conv_transpose1d = _conv_transpose_function(1)
conv_transpose2d = _conv_transpose_function(2)
conv_transpose3d = _conv_transpose_function(3)


def _pool_args(
    kernel_size: Any, stride: Any, padding: Any, dilation: Any, ceil_mode: bool
) -> tuple:
    """(pool geometry, stride as PyTorch saves it: () when not given)."""

    def pair(v: Any) -> tuple[int, int]:
        return (v, v) if isinstance(v, int) else (v[0], v[-1])

    kernel = pair(kernel_size)
    given = () if stride is None or stride == [] else pair(stride)
    pool = (kernel, given or kernel, pair(padding), pair(dilation), ceil_mode)
    return pool, given


def max_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """The maximum of each window (and, with return_indices, where it was)."""
    pool, given = _pool_args(kernel_size, stride, padding, dilation, ceil_mode)
    values, indices = PL.MaxPool2d.apply(input, pool, given)
    return (values, indices) if return_indices else values


def avg_pool2d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each window."""
    pool, given = _pool_args(kernel_size, stride, padding, 1, ceil_mode)
    return PL.AvgPool2d.apply(input, pool, given, count_include_pad, divisor_override)


def batch_norm(
    input: Tensor,
    running_mean: Tensor | None,
    running_var: Tensor | None,
    weight: Tensor | None = None,
    bias: Tensor | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalize each channel over the batch (and spatial dims), then scale
    and shift; in training the running statistics are updated in place."""
    if training:
        size = input.shape
        count = size[0] * math.prod(size[2:])
        if count == 1:
            raise ValueError(
                "Expected more than 1 value per channel when training, got input "
                f"size {size}"
            )
    elif running_mean is None or running_var is None:
        raise RuntimeError("running_mean must be defined in evaluation mode")
    stats = (running_mean, running_var)
    return NORM.NativeBatchNorm.apply(
        input, weight, bias, stats, training, momentum, eps
    )


def max_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    dilation: Any = 1,
    ceil_mode: bool = False,
    return_indices: bool = False,
) -> Any:
    """max_pool2d over a height of 1 (as PyTorch computes it)."""
    k, s, p, d = (_one(v) for v in (kernel_size, stride, padding, dilation))
    pool = ((1, k), (1, s or k), (0, p), (1, d), ceil_mode)
    values, indices = PL.MaxPool2d.apply(input.unsqueeze(-2), pool, pool[1])
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values


def avg_pool1d(
    input: Tensor,
    kernel_size: Any,
    stride: Any = None,
    padding: Any = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> Tensor:
    """avg_pool2d over a height of 1 (as PyTorch computes it)."""
    k, s, p = (_one(v) for v in (kernel_size, stride, padding))
    pool = ((1, k), (1, s or k), (0, p), (1, 1), ceil_mode)
    out = PL.AvgPool2d.apply(
        input.unsqueeze(-2), pool, pool[1], count_include_pad, None
    )
    return out.squeeze(-2)


def _one(v: Any) -> Any:
    return v[0] if isinstance(v, (tuple, list)) else v


def _adaptive_size(input: Tensor, output_size: Any) -> tuple[int, int]:
    """``output_size`` as two ints (None: the input's size there)."""
    if isinstance(output_size, int):
        return (output_size, output_size)
    if input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")
    return tuple(  # type: ignore[return-value]
        input.shape[-2 + i] if n is None else n for i, n in enumerate(output_size)
    )


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:
    """Averages over windows that divide the input into ``output_size`` parts
    (a mean over the last two dims for 1 x 1)."""
    out = _adaptive_size(input, output_size)
    if out == (1, 1):
        return input.mean((-1, -2), keepdim=True)
    return PL.AdaptiveAvgPool2d.apply(input, out)


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:
    size = _one(output_size)
    out = PL.AdaptiveAvgPool2d.apply(input.unsqueeze(-2), (1, size))
    return out.squeeze(-2)


def adaptive_max_pool2d(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> Any:
    """The maximum of each window that divides the input into ``output_size``
    parts (and, with return_indices, where it was)."""
    values, indices = PL.AdaptiveMaxPool2d.apply(
        input, _adaptive_size(input, output_size)
    )
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(
    input: Tensor, output_size: Any, return_indices: bool = False
) -> Any:
    """adaptive_max_pool2d over a height of 1 (as PyTorch computes it)."""
    if isinstance(output_size, (tuple, list)) and len(output_size) != 1:
        raise RuntimeError(
            "adaptive_max_pool1d() argument 'output_size' should contain one int "
            f"(got {len(output_size)})"
        )
    size = _one(output_size)
    values, indices = PL.AdaptiveMaxPool2d.apply(input.unsqueeze(-2), (1, size))
    values, indices = values.squeeze(-2), indices.squeeze(-2)
    return (values, indices) if return_indices else values


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """Class indices -> rows of 0s with a 1 at the index (int64, no graph)."""
    idx = tensor._data
    if idx.dtype != np.int64:
        raise RuntimeError(
            "one_hot is only applicable to index tensor of type LongTensor."
        )
    if idx.size and idx.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if num_classes == -1:
        num_classes = int(idx.max()) + 1 if idx.size else 0
    elif idx.size and idx.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor._make(np.eye(num_classes, dtype=np.int64)[idx], False)


def _softmax_dim(name: str, ndim: int) -> int:
    """PyTorch's legacy choice when no ``dim`` is given (with its warning)."""
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call "
        "to include dim=X as an argument.",
        UserWarning,
        stacklevel=3,
    )
    return 0 if ndim in (0, 1, 3) else 1


def softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``dim`` (computed with the max subtracted)."""
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype)
    return AC.Softmax.apply(input, dim)


def log_softmax(
    input: Tensor, dim: int | None = None, _stacklevel: int = 3, dtype: Any = None
) -> Tensor:
    """``x - logsumexp(x)`` along ``dim``."""
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    if dtype is not None:
        input = input.to(dtype)
    return AC.LogSoftmax.apply(input, dim)


# -------------------------------------------------------------------- padding
_PAD_SIZES = (
    "Supported combinations for non-constant padding:\n"
    "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
    "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
    "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"
)


def pad(
    input: Tensor, pad: Any, mode: str = "constant", value: float | None = None
) -> Tensor:
    """Pad the last ``len(pad) // 2`` dims (the first pair pads the last dim): with
    ``value`` (constant), the mirror image (reflect), the edge (replicate) or the
    other end (circular). A negative pad crops."""
    pad = tuple(int(p) for p in pad)
    ndim = input.dim()
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > ndim:
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input "
            f"dimension but got padding length {len(pad)} and input of dimension "
            f"{ndim}"
        )
    if mode == "constant":
        return PAD.ConstantPadNd.apply(input, pad, 0.0 if value is None else value)
    if value is not None and value != 0:
        raise RuntimeError(f'Padding mode "{mode}" doesn\'t take in value argument')
    k = len(pad) // 2
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if k not in (1, 2, 3) or ndim not in (k + 1, k + 2):
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {ndim}D input tensor.\n"
            + _PAD_SIZES
        )
    if mode == "circular":
        return _pad_circular(input, pad)
    if mode == "reflect":
        for dim, lo, hi in PAD._pairs(pad, ndim):
            n = input.shape[dim]
            if lo >= n or hi >= n:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding "
                    f"input dimension, but got: padding ({lo}, {hi}) at dimension "
                    f"{dim} of input {list(input.shape)}"
                )
        return PAD.REFLECTION[k].apply(input, pad)
    return PAD.REPLICATION[k].apply(input, pad)


def _slice(x: Tensor, dim: int, start: int, end: int) -> Tensor:
    return x.narrow(dim, start, end - start)  # (SliceBackward0, as aten::slice)


def _pad_circular(input: Tensor, pad: tuple) -> Tensor:
    """PyTorch's _pad_circular op for op: the input copied into the middle of a
    new tensor, then each dim's wrapped ends copied from the other end (so the
    graph is CopySlices of SliceBackward0s, as PyTorch's)."""
    ndim = input.dim()
    pairs = PAD._pairs(pad, ndim)
    shape = list(input.shape)
    for dim, lo, hi in pairs:
        n = shape[dim]
        if lo > n or hi > n:
            raise RuntimeError("Padding value causes wrapping around more than once.")
        shape[dim] = n + lo + hi
        if shape[dim] < 0:
            raise RuntimeError(
                "Negative padding value is resulting in an empty dimension"
            )
    out = input.new_empty(shape)
    out_slice, in_slice = out, input
    for dim, lo, hi in pairs:
        out_slice = _slice(out_slice, dim, max(lo, 0), shape[dim] - max(hi, 0))
        n = input.shape[dim]
        in_slice = _slice(in_slice, dim, max(-lo, 0), n - max(-hi, 0))
    out_slice.copy_(in_slice)
    for dim, lo, hi in pairs:
        if lo > 0:
            end = shape[dim] - max(hi, 0)
            _slice(out, dim, 0, lo).copy_(_slice(out, dim, end - lo, end))
        if hi > 0:
            start = max(lo, 0)
            _slice(out, dim, shape[dim] - hi, shape[dim]).copy_(
                _slice(out, dim, start, start + hi)
            )
    return out


# --------------------------------------------------------------------- linear
def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias``, recorded as PyTorch's ``at::linear`` does:
    one ``addmm`` for a matrix (or a contiguous tensor viewed as one), else a
    ``matmul`` followed by an in-place ``add_``."""
    if bias is None:
        return matmul(input, weight.t())
    if input.dim() == 2:
        return L.Addmm.apply(bias, input, weight.t())
    if input.is_contiguous() and input.dim() > 0:
        rows = input.view(-1, input.shape[-1])
        out = L.Addmm.apply(bias, rows, weight.t())
        return out.view(*input.shape[:-1], out.shape[-1])
    out = matmul(input, weight.t())
    return out.add_(bias)


# --------------------------------------------------------------------- dropout
def dropout(
    input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False
) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by
    ``1 / (1 - p)``: a multiplication by a random mask (MulBackward0)."""
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input.numel() == 0:
        return input
    dtype = input._data.dtype
    if p == 1:
        noise = np.zeros((), dtype)
    else:
        keep = default_generator.uniform(input._data.shape, np.float64) < 1 - p
        noise = keep.astype(dtype) / dtype.type(1 - p)
    mask = Tensor._make(noise, False)
    return input.mul_(mask) if inplace else A.Mul.apply(input, mask)


# ---------------------------------------------------------------------- losses
def _reduction(size_average: Any, reduce: Any, reduction: str) -> int:
    """The reduction enum, from ``reduction`` or the deprecated flags."""
    if size_average is not None or reduce is not None:
        warnings.warn(
            "size_average and reduce args will be deprecated, please use "
            f"reduction='{_legacy_reduction(size_average, reduce)}' instead.",
            UserWarning,
            stacklevel=3,
        )
        reduction = _legacy_reduction(size_average, reduce)
    return LS.reduction_enum(reduction)


def _legacy_reduction(size_average: Any, reduce: Any) -> str:
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    if size_average and reduce:
        return "mean"
    return "sum" if reduce else "none"


def mse_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``mean((input - target)²)`` (or its sum, or no reduction)."""
    input, target = _same_size_check(input, target)
    red = _reduction(size_average, reduce, reduction)
    return LS.MseLoss.apply(input, target, red)


def _same_size_check(input: Tensor, target: Tensor) -> tuple:
    """PyTorch's warning for a target of another size, then both broadcast."""
    if target.shape != input.shape:
        warnings.warn(
            f"Using a target size ({target.shape}) that is different to the input "
            f"size ({input.shape}). This will likely lead to incorrect results due "
            "to broadcasting. Please ensure they have the same size.",
            UserWarning,
            stacklevel=3,
        )
    shape = broadcast_shape(tuple(input.shape), tuple(target.shape))
    if input.shape != shape:
        input = input.expand(shape)
    if target.shape != shape:
        target = target.expand(shape)
    return input, target


def l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``mean(|input - target|)``: ordinary ops, as PyTorch computes it."""
    red = _reduction(size_average, reduce, reduction)
    input, target = _same_size_check(input, target)
    loss = (input - target).abs()
    return loss.mean() if red == LS.MEAN else loss.sum() if red == LS.SUM else loss


def smooth_l1_loss(
    input: Tensor,
    target: Tensor,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    beta: float = 1.0,
) -> Tensor:
    """Quadratic below ``beta``, linear above (an L1 loss when beta is 0)."""
    if beta == 0.0:
        return l1_loss(input, target, size_average, reduce, reduction)
    red = _reduction(size_average, reduce, reduction)
    input, target = _same_size_check(input, target)
    return LS.SmoothL1Loss.apply(input, target, red, beta)


def huber_loss(
    input: Tensor,
    target: Tensor,
    reduction: str = "mean",
    delta: float = 1.0,
    weight: Tensor | None = None,
) -> Tensor:
    """Quadratic below ``delta``, linear (with slope delta) above."""
    if weight is not None:
        raise NotImplementedError("minigrad's huber_loss takes no weight")
    red = LS.reduction_enum(reduction)
    input, target = _same_size_check(input, target)
    return LS.HuberLoss.apply(input, target, red, delta)


def nll_loss(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``-input[i, target_i]`` weighted by ``weight[target_i]``, averaged over the
    total weight of the targets that are not ``ignore_index``."""
    red = _reduction(size_average, reduce, reduction)
    return LS.NllLoss.apply(input, (target, weight), red, ignore_index)


def cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    ignore_index: int = -100,
    reduce: Any = None,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """``nll_loss(log_softmax(input, class_dim), target)``: there is no cross
    entropy node. A float target of the input's shape holds class probabilities."""
    red = _reduction(size_average, reduce, reduction)
    class_dim = 0 if input.dim() == 1 else 1
    logp = log_softmax(input, class_dim)
    if target.is_floating_point() and target.shape == input.shape:
        if weight is not None or label_smoothing > 0:
            raise NotImplementedError(
                "minigrad's cross_entropy with class probabilities takes no weight "
                "or label_smoothing"
            )
        loss = logp * target
        if red == LS.NONE:
            return -loss.sum(class_dim)
        total = -loss.sum()
        if red == LS.SUM:
            return total
        return A.DivScalar.apply(total, input.numel() // input.shape[class_dim])
    nll = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing <= 0:
        return nll
    if weight is not None:
        raise NotImplementedError(
            "minigrad's cross_entropy takes no weight with label_smoothing"
        )
    # PyTorch's cross_entropy_loss_label_smoothing, op for op
    smooth = -logp.sum(class_dim)
    ignored = target == ignore_index
    smooth._inplace(C.MaskedFill, (ignored,), 0.0)
    if red == LS.MEAN:
        kept = Tensor._make(np.asarray((~ignored._data).sum()), False)
        smooth = smooth.sum() / kept
    elif red == LS.SUM:
        smooth = smooth.sum()
    n_classes = input.shape[class_dim]
    return A.MulScalar.apply(nll, 1 - label_smoothing) + A.MulScalar.apply(
        smooth, label_smoothing / n_classes
    )


def _reduce(loss: Tensor, red: int) -> Tensor:
    return loss.mean() if red == LS.MEAN else loss.sum() if red == LS.SUM else loss


def margin_ranking_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``max(0, -target * (input1 - input2) + margin)``, as PyTorch's ops."""
    red = _reduction(size_average, reduce, reduction)
    if not (input1.dim() == input2.dim() == target.dim()):
        raise RuntimeError(
            f"margin_ranking_loss : All input tensors should have same dimension but "
            f"got sizes: input1: {input1.shape}, input2: {input2.shape}, target: "
            f"{target.shape} "
        )
    loss = A.AddScalar.apply(-target * (input1 - input2), margin)
    return _reduce(loss.clamp_min_(0), red)


def hinge_embedding_loss(
    input: Tensor,
    target: Tensor,
    margin: float = 1.0,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``x`` where target is 1, ``max(0, margin - x)`` where it is -1, as
    PyTorch's ops (two wheres and their sum)."""
    red = _reduction(size_average, reduce, reduction)
    zeros = Tensor._make(np.zeros_like(input._data), False)
    # (C++'s margin - self: a SubBackward0 of a wrapped number)
    margin_clamp = A.Sub.apply(_scalar(margin), input).clamp_min_(0)
    output_margin = margin_clamp.where(target != 1, zeros)
    output_self = input.where(target != -1, zeros)
    return _reduce(output_margin + output_self, red)


def binary_cross_entropy(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
) -> Tensor:
    """``-(t log(x) + (1 - t) log(1 - x))`` for probabilities ``x`` in [0, 1]."""
    red = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Using a target size ({target.shape}) that is different to the input "
            f"size ({input.shape}) is deprecated. Please ensure they have the same "
            "size."
        )
    if weight is not None:
        weight = weight.expand(np.broadcast_shapes(target.shape, weight.shape))
    return LS.BinaryCrossEntropy.apply(input, target, (weight,), red)


def binary_cross_entropy_with_logits(
    input: Tensor,
    target: Tensor,
    weight: Tensor | None = None,
    size_average: Any = None,
    reduce: Any = None,
    reduction: str = "mean",
    pos_weight: Tensor | None = None,
) -> Tensor:
    """``binary_cross_entropy(sigmoid(input), target)``, computed stably from the
    logits (``pos_weight`` scales the positive term)."""
    red = _reduction(size_average, reduce, reduction)
    if target.shape != input.shape:
        raise ValueError(
            f"Target size ({target.shape}) must be the same as input size "
            f"({input.shape})"
        )
    return LS.BinaryCrossEntropyWithLogits.apply(
        input, target, (weight, pos_weight), red
    )


__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "dropout",
    "linear",
    "log_softmax",
    "mse_loss",
    "nll_loss",
    "relu",
    "sigmoid",
    "softmax",
    "tanh",
]
