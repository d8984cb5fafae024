"""minigrad: a small autograd engine on numpy with PyTorch's semantics and names.

``import minigrad as torch`` runs PyTorch autograd lesson code and prints what
PyTorch prints (with ``minigrad`` where PyTorch says ``torch``).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as _np

from . import _tensor_base, autograd, utils
from . import _warn as _warn_state
from ._dtype import (
    bfloat16,
    bool,
    double,
    dtype,
    finfo,
    float,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int,
    int8,
    int16,
    int32,
    int64,
    long,
    set_default_dtype,
    short,
    uint8,
)
from ._generator import Generator, default_generator
from ._tensor import Tensor
from ._tensor_base import Size
from ._tensor_str import get_printoptions, set_printoptions
from ._views_inplace import bump_version
from ._warn import mute_numpy_warnings
from ._warn import warn as _warn
from .creation import (
    BFloat16Tensor,
    BoolTensor,
    ByteTensor,
    CharTensor,
    DoubleTensor,
    FloatTensor,
    HalfTensor,
    IntTensor,
    LongTensor,
    ShortTensor,
    arange,
    as_tensor,
    bernoulli,
    empty,
    empty_like,
    eye,
    from_numpy,
    full,
    full_like,
    get_rng_state,
    initial_seed,
    linspace,
    manual_seed,
    multinomial,
    normal,
    ones,
    ones_like,
    poisson,
    rand,
    rand_like,
    randint,
    randint_like,
    randn,
    randn_like,
    randperm,
    seed,
    set_rng_state,
    tensor,
    zeros,
    zeros_like,
)
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .ops import _common as _op_rules
from .ops import arithmetic as A
from .ops import binary as B
from .ops import einsum as _einsum
from .ops import join as J
from .ops import selection as C
from .ops.linalg import matmul as _matmul
from .ops.linalg import tensordot as _tensordot

__version__ = "0.1.0"
Tensor.__module__ = "minigrad"  # <class 'minigrad.Tensor'>, as torch.Tensor

mute_numpy_warnings()  # inf and nan arise silently, as in PyTorch


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)


def numel(t: Tensor) -> int:
    return t.numel()


def is_inference(t: Tensor) -> bool:
    return t.is_inference()


def _into(out: Tensor, result: Tensor, name: str) -> Tensor:
    """``out=``: the result written into ``out`` (no graph, as in PyTorch)."""
    if result.requires_grad:
        raise RuntimeError(
            f"{name}(): functions with out=... arguments don't support automatic "
            "differentiation, but one of the arguments requires grad."
        )
    if out.shape == result.shape:
        out._data[...] = result._data
    else:  # PyTorch resizes ``out`` to the result's shape
        out._data = result._data.astype(out._data.dtype)
    bump_version(out)
    return out


def _method(name: str) -> Any:
    def fn(t: Tensor, *args: Any, out: Tensor | None = None, **kwargs: Any) -> Any:
        result = getattr(t, name)(*args, **kwargs)
        return result if out is None else _into(out, result, name)

    fn.__name__ = name
    fn.__doc__ = f"``minigrad.{name}(t, ...)`` is ``t.{name}(...)``."
    return fn


# Functional spellings of Tensor methods: ``minigrad.exp(x)`` is ``x.exp()``.
for _name in (
    "add sub mul div neg exp log tanh sigmoid relu reciprocal sqrt abs sin cos sign "
    "sgn sum mean dot mm mv bmm pow square clone detach reshape t transpose permute "
    "squeeze unsqueeze flatten select "
    "rsqrt log1p log2 log10 exp2 expm1 erf clamp clip clamp_min clamp_max clamp_ "
    "clamp_min_ clamp_max_ maximum minimum masked_fill gather max min amax amin "
    "argmax argmin var std prod logsumexp norm cumsum outer ger narrow movedim "
    "moveaxis swapaxes swapdims split chunk unbind flip scatter scatter_add "
    "tan asin arcsin acos arccos atan arctan atan2 arctan2 sinh cosh asinh arcsinh "
    "acosh arccosh atanh arctanh floor ceil round trunc fix frac nan_to_num isnan "
    "isinf isfinite isposinf isneginf logical_not logical_and logical_or logical_xor "
    "sort argsort msort topk kthvalue median index_select index_add tril triu roll "
    "tile diagonal diag diag_embed trace index_fill addcmul addcdiv lerp all any "
    "masked_select masked_scatter cumprod unflatten broadcast_to repeat_interleave "
    "tensor_split nonzero count_nonzero logaddexp hypot logit deg2rad rad2deg "
    "isclose fmod divide scatter_reduce nansum nanmean put cummax cummin addmm addmv "
    "bitwise_and bitwise_or bitwise_xor bitwise_not bitwise_left_shift "
    "bitwise_right_shift "
    "addbmm baddbmm det inverse slogdet logdet index_put index_put_ aminmax rot90"
).split():
    globals()[_name] = _method(_name)
del _name


def _number_first(name: str) -> Any:
    """``minigrad.mul(2, x)``: PyTorch wraps a Python number given as ``input``
    into a 0-d tensor (``torch.pow(2, x)`` is its own overload, PowBackward2)."""
    method = globals()[name]

    def fn(input: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(input, Tensor):
            if not isinstance(input, _op_rules._NUMBER):
                raise TypeError(
                    f"{name}(): argument 'input' (position 1) must be Tensor, not "
                    f"{type(input).__name__}"
                )
            if name == "pow" and args and isinstance(args[0], Tensor) and not kwargs:
                return args[0].__rpow__(input)
            input = _op_rules._scalar(input)
        if args and name != "pow" and not isinstance(args[0], _OTHER):
            raise TypeError(  # the method counts from self, the function does not
                f"{name}(): argument 'other' (position 2) must be Tensor, not "
                f"{type(args[0]).__name__}"
            )
        return method(input, *args, **kwargs)

    fn.__name__ = name
    fn.__doc__ = method.__doc__
    return fn


_OTHER = (Tensor, *_op_rules._NUMBER)
for _name in ("add", "sub", "mul", "div", "divide", "pow"):
    globals()[_name] = _number_first(_name)
del _name


def _two_tensors(name: str) -> Any:
    """``minigrad.fmax(a, b)``: ``a.fmax(b)``, both Tensors (no Python number),
    ``other`` counted as PyTorch's function counts it (position 2)."""
    method = _method(name)

    def fn(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        if not isinstance(other, Tensor):
            raise TypeError(
                f"{name}(): argument 'other' (position 2) must be Tensor, not "
                f"{type(other).__name__}"
            )
        return method(input, other, out=out)

    fn.__name__ = name
    fn.__doc__ = f"``minigrad.{name}(a, b)`` is ``a.{name}(b)``."
    return fn


for _name in ("fmax", "fmin", "inner"):
    globals()[_name] = _two_tensors(_name)
del _name


def sort(input: Tensor, *args: Any, **kwargs: Any) -> Any:
    """``input.sort(...)``; with ``stable``, dim and descending are keywords."""
    dim, descending, stable = _tensor_base._sort_args(
        "sort", (input, *args), kwargs, function=True
    )
    return input.sort(dim=dim, descending=descending, stable=stable)


def argsort(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``input.argsort(...)``; with ``stable``, dim and descending are keywords."""
    dim, descending, stable = _tensor_base._sort_args(
        "argsort", (input, *args), kwargs, function=True
    )
    return input.argsort(dim=dim, descending=descending, stable=stable is True)


def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """Sums of products over ``dims`` (a count, or two lists of dims)."""
    return _tensordot(a, b, dims)


def take(input: Tensor, index: Tensor) -> Tensor:
    """The elements at ``index`` of ``input`` flattened, shaped like ``index``."""
    if not isinstance(index, Tensor):
        raise TypeError(
            "take(): argument 'index' (position 2) must be Tensor, not "
            f"{type(index).__name__}"
        )
    return input.take(index)


def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """``input @ other`` (dot, mv, mm or batched by the ranks)."""
    result = _matmul(input, other, function=True)
    return result if out is None else _into(out, result, "matmul")


def cat(tensors: Any, dim: int = 0) -> Tensor:
    """Join tensors along an existing dim (CatBackward0)."""
    return J.cat(tensors, dim)


def concat(tensors: Any, dim: int = 0) -> Tensor:
    """``cat`` under its NumPy-style name."""
    return J.cat(tensors, dim, "concat")


def concatenate(tensors: Any, axis: int = 0) -> Tensor:
    """``cat`` under its NumPy-style name."""
    return J.cat(tensors, axis, "concatenate")


def stack(tensors: Any, dim: int = 0) -> Tensor:
    """Join tensors along a new dim (StackBackward0)."""
    return J.stack(tensors, dim)


def atleast_1d(*tensors: Any) -> Any:
    """Each tensor with at least 1 dim (a 0-d one reshaped to (1,))."""
    return _each(tensors, lambda t: t.reshape(1) if t.dim() == 0 else t)


def atleast_2d(*tensors: Any) -> Any:
    def two(t: Tensor) -> Tensor:
        if t.dim() == 0:
            return t.reshape(1, 1)
        return t.unsqueeze(0) if t.dim() == 1 else t

    return _each(tensors, two)


def atleast_3d(*tensors: Any) -> Any:
    def three(t: Tensor) -> Tensor:
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        return t.unsqueeze(-1) if t.dim() == 2 else t

    return _each(tensors, three)


def _each(tensors: tuple, fn: Any) -> Any:
    if len(tensors) == 1 and not isinstance(tensors[0], Tensor):
        tensors = tuple(tensors[0])
        return tuple(fn(t) for t in tensors)
    out = tuple(fn(t) for t in tensors)
    return out[0] if len(out) == 1 else out


def hstack(tensors: Any) -> Tensor:
    """Join along dim 1 (dim 0 for vectors)."""
    ts = atleast_1d(J.tensor_list(tensors, "hstack"))
    return cat(ts, 0 if ts[0].dim() == 1 else 1)


def vstack(tensors: Any) -> Tensor:
    """Join rows: vectors become 1 x n first."""
    return cat(atleast_2d(J.tensor_list(tensors, "vstack")), 0)


row_stack = vstack


def dstack(tensors: Any) -> Tensor:
    """Join along dim 2 (depth)."""
    return cat(atleast_3d(J.tensor_list(tensors, "dstack")), 2)


def column_stack(tensors: Any) -> Tensor:
    """Vectors as columns, joined along dim 1."""
    tensors = J.tensor_list(tensors, "column_stack")
    cols = [t.reshape(-1, 1) if t.dim() <= 1 else t for t in tensors]
    return cat(cols, 1)


def broadcast_tensors(*tensors: Tensor) -> tuple:
    """The tensors expanded to their common shape (views)."""
    shape: tuple = ()
    for t in tensors:
        shape = _op_rules.broadcast_shape(shape, tuple(t.shape))
    return tuple(t if tuple(t.shape) == shape else t.expand(*shape) for t in tensors)


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids: each 1-d tensor viewed along its own dim and expanded
    to all of them (``ij``; ``xy`` makes the first two inputs' dims trade
    places)."""
    if len(tensors) == 1 and not isinstance(tensors[0], Tensor):
        tensors = tuple(tensors[0])
    if indexing is None:
        _warn(
            "minigrad.meshgrid: in an upcoming release, it will be required to pass "
            "the indexing argument."
        )
        indexing = "ij"
    if indexing not in ("ij", "xy"):
        raise RuntimeError(
            'minigrad.meshgrid: indexing must be one of "xy" or "ij", but '
            f"received: {indexing}"
        )
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    sizes = [t.numel() for t in ts]
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        grids.append(t.view(*view).expand(*sizes))
    if swap:  # the grids of the swapped inputs, handed back in input order
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def unique(
    input: Tensor,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
) -> Any:
    """The distinct values (sorted), optionally with where each element went
    and how often each value occurs (no gradient)."""
    data = input._data
    axis = None if dim is None else dim % data.ndim
    values, inverse, counts = _np.unique(
        data, return_inverse=True, return_counts=True, axis=axis
    )
    out = [Tensor._make(values, False)]
    if return_inverse:
        shape = data.shape if dim is None else (data.shape[axis],)
        out.append(Tensor._make(inverse.reshape(shape).astype(_np.int64), False))
    if return_counts:
        out.append(Tensor._make(counts.astype(_np.int64), False))
    return out[0] if len(out) == 1 else tuple(out)


def einsum(*args: Any) -> Tensor:
    """Sums of products over labelled dims (``"ij,jk->ik"``), recorded with the
    permutes, reshapes and ``bmm`` PyTorch records."""
    return _einsum.einsum(*args)


def where(condition: Tensor, input: Any = None, other: Any = None) -> Any:
    """``input`` where ``condition`` holds, else ``other`` (numbers allowed);
    ``where(condition)`` alone is ``condition.nonzero(as_tuple=True)``."""
    if input is None and other is None:
        return condition.nonzero(as_tuple=True)
    C.refuse_where_args(condition, input, other)
    return C.where(condition, input, other)


def xlogy(input: Any, other: Any) -> Tensor:
    """``input · log(other)``, 0 where ``input`` is 0; either may be a number."""
    if isinstance(input, Tensor):
        return input.xlogy(other)
    if not isinstance(other, Tensor):
        raise TypeError(
            "xlogy(): argument 'input' (position 1) must be Tensor, not "
            f"{type(input).__name__}"
        )
    return B.XlogyScalarSelf.apply(other, input)


def rsub(input: Tensor, other: Any, alpha: Any = 1) -> Tensor:
    """``other - alpha * input``."""
    if isinstance(other, Tensor):
        return A.RsubTensor.apply(input, other, alpha)
    return A.RsubScalar.apply(input, other, alpha)


def remainder(input: Any, other: Any) -> Tensor:
    """``input mod other`` (Python's sign); ``input`` may be a number."""
    return input.remainder(other) if isinstance(input, Tensor) else input % other


def floor_divide(input: Any, other: Any) -> Tensor:
    """``input // other``; ``input`` may be a number."""
    return input.floor_divide(other) if isinstance(input, Tensor) else input // other


def true_divide(input: Any, other: Any) -> Tensor:
    """``div`` under its old name."""
    return div(input, other)  # noqa: F821 - bound by _number_first above


def is_floating_point(t: Tensor) -> bool:
    return t.is_floating_point()


def allclose(a: Tensor, b: Tensor, rtol: float = 1e-5, atol: float = 1e-8) -> bool:
    return a.allclose(b, rtol=rtol, atol=atol)


def equal(a: Tensor, b: Tensor) -> bool:
    return a.equal(b)


def set_warn_always(value: bool) -> None:
    """Make warnings PyTorch gives once per process fire every time."""
    _warn_state.WARN_ALWAYS = True if value else False  # `bool` is the dtype here


def is_warn_always_enabled() -> bool:
    return _warn_state.WARN_ALWAYS


def is_anomaly_enabled() -> bool:
    return autograd.is_anomaly_enabled()


def is_anomaly_check_nan_enabled() -> bool:
    return autograd.is_anomaly_check_nan_enabled()


def set_num_threads(n: int) -> None:
    """Accepted for compatibility (numpy's BLAS threads are set by the environment)."""


def _inplace_function(name: str) -> Any:
    """``minigrad.sin_(t)`` is ``t.sin_()``: the input must be a Tensor."""

    def fn(input: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        if not isinstance(input, Tensor):
            raise TypeError(
                f"{name}(): argument 'input' (position 1) must be Tensor, not "
                f"{type(input).__name__}"
            )
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``minigrad.{name}(t, ...)`` is ``t.{name}(...)``."
    return fn


# PyTorch's top-level in-place functions that are Tensor methods here too
for _name in (
    "abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_ asin_ "
    "asinh_ atan_ atanh_ ceil_ clip_ cos_ cosh_ detach_ erf_ exp2_ exp_ expm1_ "
    "fill_ fix_ floor_ frac_ log10_ log1p_ log2_ log_ neg_ negative_ reciprocal_ "
    "relu_ round_ rsqrt_ sigmoid_ sin_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ zero_ "
    "addmv_ deg2rad_ logit_ nan_to_num_ rad2deg_"
).split():
    globals()[_name] = _inplace_function(_name)
del _name


def xlogy_(input: Tensor, other: Any) -> Tensor:
    """``minigrad.xlogy_(t, other)`` is ``t.xlogy_(other)``; PyTorch's two
    overloads both need a Tensor first."""
    if not isinstance(input, Tensor):
        got = type(input).__name__
        is_tensor = isinstance(other, Tensor)
        kind = "Tensor" if is_tensor else type(other).__name__
        # PyTorch marks other in the Number overload even when it is a number
        as_tensor, as_number = kind if is_tensor else f"!{kind}!", f"!{kind}!"
        raise TypeError(
            f"xlogy_() received an invalid combination of arguments - got ({got}, "
            f"{kind}), but expected one of:\n * (Tensor input, Tensor other)\n"
            "      didn't match because some of the arguments have invalid types: "
            f"(!{got}!, {as_tensor})\n * (Tensor input, Number other)\n"
            "      didn't match because some of the arguments have invalid types: "
            f"(!{got}!, {as_number})\n"
        )
    return input.xlogy_(other)


# ---- nn and optim (imported last: they build on everything above)
from . import distributions, func, linalg, nn, optim, profiler, special, testing  # noqa: E402
from ._composites import (  # noqa: E402
    asarray,
    bincount,
    bucketize,
    can_cast,
    diagflat,
    diff,
    hsplit,
    kron,
    promote_types,
    result_type,
    searchsorted,
    std_mean,
    take_along_dim,
    tril_indices,
    triu_indices,
    var_mean,
    vsplit,
)
from ._device import (  # noqa: E402
    accelerator,
    backends,
    cuda,
    device,
    get_default_device,
    set_default_device,
)
from .serialization import load, save  # noqa: E402

vmap = func.vmap  # PyTorch exports torch.vmap, the very torch.func.vmap
from .utils import checkpoint as _checkpoint  # noqa: E402, F401  (utils.checkpoint)
from .utils import data as _data  # noqa: E402, F401  (minigrad.utils.data)


def softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:  # noqa: F811
    """``minigrad.softmax(x, dim)`` is ``x.softmax(dim)``."""
    return input.softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim: int, dtype: Any = None) -> Tensor:  # noqa: F811
    """``minigrad.log_softmax(x, dim)`` is ``x.log_softmax(dim)``."""
    return input.log_softmax(dim, dtype=dtype)


# ---- explicit entry points that make ``import torch`` give minigrad
from . import as_torch  # noqa: E402  (minigrad.as_torch(); inert until called)

load_ipython_extension = as_torch.load_ipython_extension  # %load_ext minigrad


def selu_(input: Tensor) -> Tensor:
    """``selu`` in place (EluBackward1)."""
    return nn.functional.selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    """``celu`` in place (CeluBackward1)."""
    return nn.functional.celu(input, alpha, inplace=True)


def dropout(input: Tensor, p: float, train: bool) -> Tensor:
    """``nn.functional.dropout(input, p, train)``."""
    return nn.functional.dropout(input, p, train)


def dropout_(input: Tensor, p: float, train: bool) -> Tensor:
    """``dropout`` in place."""
    return nn.functional.dropout(input, p, train, inplace=True)
