"""``TensorBase``: the Tensor's methods that bind the ops, family by family.

Almost every method here is one line: it hands its arguments to an op class of
``ops/`` (``x.exp()`` is ``Exp.apply(x)``), so the banners follow the op files.
PyTorch keeps these in C++ (``torch._C.TensorBase``) apart from the Python
``torch/_tensor.py``; here too the autograd surface a student reads lives in
``_tensor.py``, and the view and in-place machinery in ``_views_inplace.py``.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from . import _device, _profiling, _views_inplace, function, grad_mode
from . import _dtype as dt
from ._errors import refuse_overlap
from ._tensor_str import tensor_repr
from ._views_inplace import (
    ViewsAndInplace,
    bump_version,
)
from ._warn import warn, warn_once
from .ops import _dims as _dims
from .ops import activation as AC
from .ops import arithmetic as A
from .ops import binary as B
from .ops import compose as CO
from .ops import copies as CP
from .ops import diagonal as D
from .ops import extrema as EX
from .ops import indexing as IX
from .ops import join as J
from .ops import linalg as L
from .ops import linalg_decomp as LD
from .ops import ordering as O
from .ops import rearrange as RA
from .ops import reduction as R
from .ops import selection as C
from .ops import unary as U
from .ops import views as V
from .ops._common import (
    _NUMBER,
    _as_tensor,
    _scalar,
    argument_desc,
    broadcast_shape,
    type_name,
)
from .ops._layout import binary_layout, like
from .ops.linalg import matmul
from .storage import TypedStorage

# The Tensor class, handed down by _tensor.py (the methods make Tensors).
Tensor: Any = None


def bind_tensor_class(cls: type, new_tensor: Callable[..., Any]) -> None:
    """Receive the Tensor class and hand it down (views, engine, function, node)."""
    global Tensor
    Tensor = cls
    _views_inplace.bind_tensor_class(cls, new_tensor)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``minigrad.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"

    def numel(self) -> int:
        return int(np.prod(self, dtype=np.int64))

    # slices, sums and repeats of a Size are Sizes, as in PyTorch
    def __getitem__(self, key: Any) -> Any:
        out = tuple.__getitem__(self, key)
        return Size(out) if isinstance(key, slice) else out

    def __add__(self, other: Any) -> Any:
        out = tuple.__add__(self, other)
        return out if out is NotImplemented else Size(out)

    def __radd__(self, other: Any) -> Any:
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(other + tuple(self))

    def __mul__(self, n: Any) -> Any:
        out = tuple.__mul__(self, n)
        return out if out is NotImplemented else Size(out)

    __rmul__ = __mul__


_NO_DIM: Any = object()  # var()/std() called without a dim


def _operand(value: Any) -> Tensor | None:
    """The right operand of ``tensor <op> value`` as a tensor, or None when the
    operator does not take it (numpy arrays count as tensors, as in PyTorch)."""
    if isinstance(value, _NUMBER):
        return _scalar(value)
    if isinstance(value, np.ndarray):
        return Tensor._make(value, False)
    return None


_UNSET: Any = object()  # an argument not given (unlike one given as None)


def _operand_tensor(value: Any) -> Tensor | None:
    """A Tensor or numpy array operand as a Tensor (None for anything else)."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, np.ndarray):
        return Tensor._make(value, False)
    return None


def _left_shift(a: Any, b: Any) -> np.ndarray:
    """``a << b`` as PyTorch's kernel: 0 for a shift below 0 or past the width."""
    kind = np.result_type(a, b)
    b = np.asarray(b)
    wide = (b < 0) | (b >= 8 * kind.itemsize)
    return np.where(wide, 0, np.left_shift(a, np.where(wide, 0, b))).astype(kind)


def _right_shift(a: Any, b: Any) -> np.ndarray:
    """``a >> b`` as PyTorch's kernel: a shift below 0 or past the width is one
    by the width less one (0, or -1 for a negative a)."""
    kind = np.result_type(a, b)
    b = np.asarray(b)
    last = 8 * kind.itemsize - 1
    out = np.right_shift(a, np.where((b < 0) | (b > last), last, b)).astype(kind)
    if kind.kind == "u":  # (no sign to fill with)
        out = np.where((b < 0) | (b > last), 0, out).astype(kind)
    return out


class TensorBase(ViewsAndInplace):
    """The methods of ``Tensor`` that bind ops (``Tensor`` adds autograd's)."""

    # ------------------------------------------------------------------- basics
    __slots__ = ()

    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_dims.normalize_dims(dim, self._data.ndim)[0]]

    def dim(self) -> int:
        return self._data.ndim

    ndim = property(dim)

    def numel(self) -> int:
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self) -> dt.dtype:
        return dt._BY_NP[self._data.dtype]

    @property
    def device(self) -> Any:
        return _device.CPU

    @property
    def is_cuda(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind == "f"

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    def _is_view(self) -> bool:
        return self._base is not None

    def item(self) -> Any:
        if self._data.size != 1:
            raise RuntimeError(
                f"a Tensor with {self._data.size} elements cannot be converted to "
                "Scalar"
            )
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def storage(self) -> TypedStorage:
        """The whole buffer this tensor views (PyTorch's deprecated TypedStorage)."""
        return TypedStorage(self._data, self.dtype)

    def numpy(self, *, force: bool = False) -> np.ndarray:
        # PyTorch refuses only while grad mode is on: a custom Function's
        # forward (and the mark_dirty docs) call numpy() on its inputs.
        if self.requires_grad and grad_mode.is_grad_enabled() and not force:
            raise RuntimeError(
                "Can't call numpy() on Tensor that requires grad. Use "
                "tensor.detach().numpy() instead."
            )
        return self._data

    def __repr__(self, *, tensor_contents: Any = None) -> str:
        try:
            fn = self.grad_fn
            name = None if fn is None else type(fn).__name__
        except RuntimeError:
            # PyTorch's repr too: a multi-output view changed in place under
            # no_grad refuses its grad_fn, and it prints as <Invalid>
            fn, name = None, "Invalid"
        tangent = self._fw_grad if function.forward_ad_level is not None else None
        return tensor_repr(
            self._data,
            self.dtype.name,
            requires_grad=name is None and self.requires_grad,
            grad_fn_name=name,
            prefix="tensor",
            tangent=None if tangent is None else repr(tangent),
        )

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        # PyTorch formats a 0-d tensor as its number (f"{t:.2f}", f"{t}")
        if self._data.ndim == 0 and type(self) is Tensor:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Iterator[Tensor]:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # as PyTorch: one UnbindBackward0 for all

    def __bool__(self) -> bool:
        if self._data.size != 1:
            amount = "no values" if self._data.size == 0 else "more than one value"
            raise RuntimeError(f"Boolean value of Tensor with {amount} is ambiguous")
        return bool(self._data.reshape(()))

    def _python_scalar(self) -> Any:
        """The one number ``float(t)``/``int(t)`` read (PyTorch's ValueError)."""
        if self._data.size != 1:
            raise ValueError(
                "only one element tensors can be converted to Python scalars"
            )
        return self.item()

    def __float__(self) -> float:
        warn_scalar_conversion(self)
        return float(self._python_scalar())

    def __int__(self) -> int:
        return int(self._python_scalar())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError(
                "only integer tensors of a single element can be converted to an index"
            )
        return int(self.item())

    __hash__ = object.__hash__

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._data if dtype is None else self._data.astype(dtype)

    def __deepcopy__(self, memo: dict) -> Tensor:
        if self.grad_fn is not None:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support "
                "the deepcopy protocol at the moment.  If you were attempting to "
                "deepcopy a module, this may be because of a torch.nn.utils."
                "weight_norm usage, see https://github.com/pytorch/pytorch/pull/103001"
            )
        out = type(self)._make(self._data.copy(), self._requires_grad)
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol: int) -> tuple:
        """Pickled (``minigrad.save``) as its values and requires_grad only: it
        loads as a leaf, as PyTorch's saved tensors do."""
        return (_rebuild_tensor, (type(self), self._data, self.requires_grad))

    # ------------------------------------------- arithmetic (ops/arithmetic.py)
    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha == 1:
            return A.Add.apply(self, _as_tensor(other, "add"))
        return A.Add.apply(self, _as_tensor(other, "add"), alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha == 1:
            return A.Sub.apply(self, _as_tensor(other, "sub"))
        return A.Sub.apply(self, _as_tensor(other, "sub"), alpha)

    def mul(self, other: Any) -> Tensor:
        return A.Mul.apply(self, _as_tensor(other, "mul"))

    def div(self, other: Any, *, rounding_mode: Any = _UNSET) -> Tensor:
        other = _as_tensor(other, "div")
        if rounding_mode is _UNSET:  # (rounding_mode=None is div's other overload)
            return A.Div.apply(self, other)
        return A.DivMode.apply(self, other, rounding_mode)

    divide = true_divide = div

    def remainder(self, other: Any) -> Tensor:
        """``self mod other`` with the divisor's sign, as Python's ``%``."""
        if isinstance(other, _NUMBER):
            return A.RemainderScalar.apply(self, other)
        return A.Remainder.apply(self, _as_tensor(other, "remainder"))

    def fmod(self, other: Any) -> Tensor:
        """``self mod other`` with the dividend's sign, as C's ``fmod``."""
        if isinstance(other, _NUMBER):
            return A.FmodScalar.apply(self, other)
        return A.Fmod.apply(self, _as_tensor(other, "fmod"))

    def floor_divide(self, other: Any) -> Tensor:
        """``self // other``; PyTorch has no derivative for it (NotImplemented)."""
        other = _as_tensor(other, "floor_divide")
        values = A.rounded_division(self, other, "floor")
        return A.NotDifferentiable.apply(self, other, values, "floor_divide")

    def __mod__(self, other: Any) -> Tensor:
        o = other if isinstance(other, _NUMBER) else _operand_tensor(other)
        return NotImplemented if o is None else self.remainder(o)

    def __rmod__(self, number: Any) -> Tensor:
        if not isinstance(number, _NUMBER):
            return NotImplemented
        values = A.modulo(np.remainder, _scalar(number), self)
        return A.NotDifferentiable.apply(None, self, values, "remainder")

    def __floordiv__(self, other: Any) -> Tensor:
        o = other if isinstance(other, _NUMBER) else _operand_tensor(other)
        return NotImplemented if o is None else self.floor_divide(o)

    def __rfloordiv__(self, number: Any) -> Tensor:
        if not isinstance(number, _NUMBER):
            return NotImplemented
        values = A.rounded_division(_scalar(number), self, "floor")
        return A.NotDifferentiable.apply(None, self, values, "floor_divide")

    # Operators return NotImplemented for what they don't accept, so Python
    # raises its own "unsupported operand type(s)" error, as with PyTorch.
    def __add__(self, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return A.Add.apply(self, other)
        o = _operand(other)
        return NotImplemented if o is None else A.Add.apply(self, o)

    def __radd__(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return A.Add.apply(self, _scalar(other))
        return NotImplemented

    def __sub__(self, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return A.Sub.apply(self, other)
        o = _operand(other)
        return NotImplemented if o is None else A.Sub.apply(self, o)

    def __rsub__(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return A.RsubScalar.apply(self, other)
        return NotImplemented

    def __mul__(self, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return A.Mul.apply(self, other)
        o = _operand(other)
        return NotImplemented if o is None else A.Mul.apply(self, o)

    def __rmul__(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return A.Mul.apply(self, _scalar(other))
        return NotImplemented

    def __truediv__(self, other: Any) -> Tensor:
        if isinstance(other, Tensor):
            return A.Div.apply(self, other)
        o = _operand(other)
        return NotImplemented if o is None else A.Div.apply(self, o)

    def __rtruediv__(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return self.reciprocal() * other  # what PyTorch records for ``2 / a``
        return NotImplemented

    def __neg__(self) -> Tensor:
        return A.Neg.apply(self)

    neg = __neg__

    def __pos__(self) -> Tensor:
        return self

    def __pow__(self, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor):
            return A.PowTensor.apply(self, exponent)
        if isinstance(exponent, _NUMBER):
            return A.PowScalar.apply(self, exponent)
        return NotImplemented

    def pow(self, exponent: Any) -> Tensor:
        out = self.__pow__(exponent)
        if out is NotImplemented:
            raise TypeError(
                "pow(): argument 'exponent' (position 1) must be Tensor, not "
                f"{type(exponent).__name__}"
            )
        return out

    def __rpow__(self, base: Any) -> Tensor:
        if isinstance(base, _NUMBER):
            return A.RpowScalar.apply(self, base)
        return NotImplemented

    def __matmul__(self, other: Tensor) -> Tensor:
        if isinstance(other, np.ndarray):
            other = Tensor._make(other, False)
        if not isinstance(other, Tensor):
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other: Tensor) -> Tensor:
        return NotImplemented  # only Tensor @ Tensor

    def square(self) -> Tensor:
        return _profiling.composite("aten::square", (self,), A.PowScalar.apply, self, 2)

    # comparisons give bool tensors and are never differentiable
    def _compare(self, other: Any, op: Callable) -> Tensor:
        if not isinstance(other, (Tensor, *_NUMBER)):
            return NotImplemented  # e.g. x < None: Python's TypeError
        o = other._data if isinstance(other, Tensor) else other
        try:
            out = np.asarray(op(self._data, o))
        except ValueError:  # PyTorch's broadcasting message instead of numpy's
            broadcast_shape(self._data.shape, np.shape(o))
            raise
        if out.ndim > 1:  # laid out as PyTorch lays out x < y, and x < 2 (a
            # binary op too: the number is a 0-d operand)
            if isinstance(o, np.ndarray):
                out = binary_layout(out, self._data, o)
            else:
                out = like(out, self._data, scalar=True)
        return Tensor._make(out, False)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        if other is None or isinstance(other, str):
            return False  # as PyTorch: x == None is plain False
        return self._compare(other, np.equal)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        if other is None or isinstance(other, str):
            return True
        return self._compare(other, np.not_equal)

    def __lt__(self, other: Any) -> Tensor:
        return self._compare(other, np.less)

    def __le__(self, other: Any) -> Tensor:
        return self._compare(other, np.less_equal)

    def __gt__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater)

    def __ge__(self, other: Any) -> Tensor:
        return self._compare(other, np.greater_equal)

    eq = __eq__
    ne = __ne__
    lt = __lt__
    le = __le__
    gt = __gt__
    ge = __ge__

    def __invert__(self) -> Tensor:
        if self._data.dtype.kind == "f":
            raise TypeError(
                "~ (operator.invert) is only implemented on integer and Boolean-type "
                "tensors"
            )
        return Tensor._make(np.invert(self._data), False)

    def __and__(self, other: Any) -> Tensor:
        return self._bitwise(other, np.bitwise_and, "bitwise_and")

    def __or__(self, other: Any) -> Tensor:
        return self._bitwise(other, np.bitwise_or, "bitwise_or")

    def __xor__(self, other: Any) -> Tensor:
        return self._bitwise(other, np.bitwise_xor, "bitwise_xor")

    def __lshift__(self, other: Any) -> Tensor:
        return self._bitwise(other, _left_shift, "lshift")

    def __rshift__(self, other: Any) -> Tensor:
        return self._bitwise(other, _right_shift, "rshift")

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __rlshift__(self, other: Any) -> Tensor:  # ``1 << t``
        return self._bitwise(other, lambda a, b: _left_shift(b, a), "lshift")

    def __rrshift__(self, other: Any) -> Tensor:
        return self._bitwise(other, lambda a, b: _right_shift(b, a), "rshift")

    def __iand__(self, other: Any) -> Tensor:
        return self._bitwise_(other, np.bitwise_and, "bitwise_and")

    def __ior__(self, other: Any) -> Tensor:
        return self._bitwise_(other, np.bitwise_or, "bitwise_or")

    def __ixor__(self, other: Any) -> Tensor:
        return self._bitwise_(other, np.bitwise_xor, "bitwise_xor")

    def __ilshift__(self, other: Any) -> Tensor:
        return self._bitwise_(other, _left_shift, "lshift")

    def __irshift__(self, other: Any) -> Tensor:
        return self._bitwise_(other, _right_shift, "rshift")

    bitwise_and, bitwise_or, bitwise_xor = __and__, __or__, __xor__
    bitwise_left_shift, bitwise_right_shift = __lshift__, __rshift__
    bitwise_and_, bitwise_or_, bitwise_xor_ = __iand__, __ior__, __ixor__
    bitwise_left_shift_, bitwise_right_shift_ = __ilshift__, __irshift__

    def bitwise_not(self) -> Tensor:
        return ~self

    def bitwise_not_(self) -> Tensor:
        return self._write_(~self)

    def _bitwise(self, other: Any, ufunc: Any, name: str) -> Tensor:
        """``&``, ``|``, ``^``, ``<<``, ``>>``: integer and bool tensors only,
        with PyTorch's kernel error for a floating result (numpy's words differ)."""
        result = dt.result_type(self, other)
        shift = name in ("lshift", "rshift")
        if result.is_floating_point or (shift and result is dt.bool):
            raise NotImplementedError(
                f"\"{name}_cpu\" not implemented for '{result._scalar_type}'"
            )
        if isinstance(other, int) and not isinstance(other, bool):
            # a Python int wraps into the tensor's type (uint8 & -1 is & 255)
            other = np.array(other).astype(result.np)[()]
        return self._compare(other, ufunc)

    def _bitwise_(self, other: Any, ufunc: Any, name: str) -> Tensor:
        if isinstance(other, (Tensor, *_NUMBER)):  # (the cast is checked first)
            _views_inplace._check_cast(dt.result_type(self, other), self.dtype, None)
        out = self._bitwise(other, ufunc, name)
        if out is NotImplemented:
            raise TypeError(
                f"unsupported operand type(s) for {name}: 'Tensor' and "
                f"'{type(other).__name__}'"
            )
        return self._write_(out)

    def _write_(self, out: Tensor) -> Tensor:
        """Write a non-differentiable op's result into this tensor, as an
        in-place op: PyTorch's cast and shape checks, one version more."""
        _views_inplace._check_cast(out.dtype, self.dtype, None)
        if out.shape != self.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast "
                f"shape {list(out.shape)}"
            )
        refuse_overlap(self._data)
        self._data[...] = out._data
        bump_version(self)
        return self

    def equal(self, other: Tensor) -> bool:
        return self.shape == other.shape and bool(np.all(self._data == other._data))

    def allclose(self, other: Tensor, rtol: float = 1e-5, atol: float = 1e-8) -> bool:
        return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol))

    def addcmul(self, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        """``self + value · tensor1 · tensor2``"""
        return A.Addcmul.apply(self, tensor1, tensor2, value)

    def addcdiv(self, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        """``self + value · tensor1 / tensor2``"""
        return A.Addcdiv.apply(self, tensor1, tensor2, value)

    def addcmul_(self, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        return self._inplace(A.Addcmul, tensor1, tensor2, value)

    def addcdiv_(self, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:
        return self._inplace(A.Addcdiv, tensor1, tensor2, value)

    def lerp(self, end: Tensor, weight: Any) -> Tensor:
        """``self + weight · (end - self)``"""
        if isinstance(weight, Tensor):
            return A.LerpTensor.apply(self, end, weight)
        return A.Lerp.apply(self, end, weight)

    def lerp_(self, end: Tensor, weight: Any) -> Tensor:
        cls = A.LerpTensor if isinstance(weight, Tensor) else A.Lerp
        return self._inplace(cls, end, weight)

    def unflatten(self, dim: int, sizes: Any) -> Tensor:
        """Dim ``dim`` split into ``sizes`` (a view)."""
        (d,) = _dims.normalize_dims(dim, self._data.ndim)
        shape = self._data.shape
        return self.view(*shape[:d], *sizes, *shape[d + 1 :])

    def broadcast_to(self, *shape: Any) -> Tensor:
        return self.expand(*shape)

    def repeat_interleave(self, repeats: Any, dim: int | None = None) -> Tensor:
        """Each element repeated ``repeats`` times along ``dim`` (the flattened
        tensor when None), recorded as PyTorch records it."""
        x = self.view(-1) if dim is None else self
        d = 0 if dim is None else _dims.normalize_dims(dim, x._data.ndim)[0]
        if isinstance(repeats, Tensor):  # a count per element: an index_select
            index = np.repeat(np.arange(x._data.shape[d]), repeats._data)
            return x.index_select(d, Tensor._make(index, False))
        shape = x._data.shape
        wide = shape[: d + 1] + (repeats,) + shape[d + 1 :]
        out = x.unsqueeze(d + 1).expand(*wide).clone()
        return out.view(*shape[:d], shape[d] * repeats, *shape[d + 1 :])

    def aminmax(self, *, dim: int | None = None, keepdim: bool = False) -> Any:
        """``(min, max)`` over ``dim`` (all elements when None), one node."""
        return EX.AminmaxResult(*EX.Aminmax.apply(self, dim, keepdim))

    # ------------------------- ops PyTorch composes from others (ops/compose.py)
    def diff(
        self, n: int = 1, dim: int = -1, prepend: Any = None, append: Any = None
    ) -> Tensor:
        return CO.diff(self, n, dim, prepend, append)

    def kron(self, other: Tensor) -> Tensor:
        return CO.kron(self, other)

    def take_along_dim(self, indices: Tensor, dim: int | None = None) -> Tensor:
        return CO.take_along_dim(self, indices, dim)

    def tensor_split(self, indices_or_sections: Any, dim: int = 0) -> tuple:
        """Pieces along ``dim``: ``n`` nearly equal ones, or cut at indices."""
        (d,) = _dims.normalize_dims(dim, self._data.ndim)
        n = self._data.shape[d]
        if isinstance(indices_or_sections, int):
            k = indices_or_sections
            sizes = [n // k + (1 if i < n % k else 0) for i in range(k)]
            cuts = list(itertools.accumulate(sizes))[:-1]
        else:
            cuts = list(indices_or_sections)
        bounds = [0, *cuts, n]
        pieces = []
        for start, end in zip(bounds, bounds[1:]):
            start, end = min(start, n), max(min(end, n), min(start, n))
            pieces.append(self.narrow(d, start, end - start))
        return tuple(pieces)

    def stride(self, dim: int | None = None) -> Any:
        """The steps between elements along each dim (in elements)."""
        steps = tuple(s // self._data.itemsize for s in self._data.strides)
        if self._data.size == 0:  # numpy may say 0; PyTorch's are row-major,
            # each step the product of the later sizes counted as at least 1
            sizes = [max(n, 1) for n in self._data.shape]
            steps = tuple(int(np.prod(sizes[i + 1 :])) for i in range(len(sizes)))
        if dim is None:
            return steps
        return steps[_dims.normalize_dims(dim, self._data.ndim)[0]]

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def itemsize(self) -> int:
        return self._data.itemsize

    @property
    def nbytes(self) -> int:
        return self._data.nbytes

    def nonzero(self, *, as_tuple: bool = False) -> Any:
        """The indices of the nonzero elements (int64, no gradient)."""
        found = np.nonzero(self._data) if self._data.ndim else np.nonzero([self._data])
        if as_tuple:
            return tuple(Tensor._make(np.asarray(i, np.int64), False) for i in found)
        rows = np.stack(found, 1) if found else np.zeros((0, 0), np.int64)
        # column-major, as PyTorch writes it (one index column after another)
        return Tensor._make(np.asarray(rows, np.int64, order="F"), False)

    def count_nonzero(self, dim: Any = None) -> Tensor:
        axis = None if dim is None else _dims.normalize_dims(dim, self._data.ndim)
        count = np.count_nonzero(self._data, axis=axis)
        return Tensor._make(np.asarray(count, np.int64), False)

    def scatter(
        self,
        dim: int,
        index: Tensor,
        src: Any = None,
        *,
        value: Any = None,
        reduce: str | None = None,
    ) -> Tensor:
        """A copy with ``src`` (a tensor) or ``value`` (a number) written at
        ``index`` along ``dim`` (or, with the old ``reduce``, added/multiplied)."""
        cls, x = _scatter_source(src, value)
        if reduce is not None:
            values, tensor_src = _scatter_old_reduce(self, dim, index, x, reduce)
            return A.NotDifferentiable.apply(self, tensor_src, values, "scatter")
        return cls.apply(self, dim, (index,), x)

    def scatter_(
        self,
        dim: int,
        index: Tensor,
        src: Any = None,
        *,
        value: Any = None,
        reduce: str | None = None,
    ) -> Tensor:
        cls, x = _scatter_source(src, value)
        if reduce is not None:
            values, tensor_src = _scatter_old_reduce(self, dim, index, x, reduce)
            return self._inplace(A.NotDifferentiable, tensor_src, values, "scatter_")
        return self._inplace(cls, dim, (index,), x)

    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha == 1:
            return self._inplace(A.Add, _as_tensor(other, "add_"))
        return self._inplace(A.Add, _as_tensor(other, "add_"), alpha)

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha == 1:
            return self._inplace(A.Sub, _as_tensor(other, "sub_"))
        return self._inplace(A.Sub, _as_tensor(other, "sub_"), alpha)

    def mul_(self, other: Any) -> Tensor:
        return self._inplace(A.Mul, _as_tensor(other, "mul_"))

    def div_(self, other: Any, *, rounding_mode: Any = _UNSET) -> Tensor:
        other = _as_tensor(other, "div_")
        if rounding_mode is _UNSET:
            return self._inplace(A.Div, other)
        return self._inplace(A.DivMode, other, rounding_mode)

    def remainder_(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return self._inplace(A.RemainderScalar, other)
        return self._inplace(A.Remainder, _as_tensor(other, "remainder_"))

    def fmod_(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return self._inplace(A.FmodScalar, other)
        return self._inplace(A.Fmod, _as_tensor(other, "fmod_"))

    def floor_divide_(self, other: Any) -> Tensor:
        other = _as_tensor(other, "floor_divide_")
        values = A.rounded_division(self, other, "floor")
        return self._inplace(A.NotDifferentiable, other, values, "floor_divide")

    def pow_(self, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor):
            return self._inplace(A.PowTensor, exponent)
        return self._inplace(A.PowScalar, exponent)

    def neg_(self) -> Tensor:
        return self._inplace(A.Neg)

    negative_ = neg_

    def square_(self) -> Tensor:
        return _profiling.composite("aten::square_", (self,), self.pow_, 2)

    # ----------------------------------- elementwise, one tensor (ops/unary.py)
    def exp(self) -> Tensor:
        return U.Exp.apply(self)

    def log(self) -> Tensor:
        return U.Log.apply(self)

    def reciprocal(self) -> Tensor:
        return U.Reciprocal.apply(self)

    def sqrt(self) -> Tensor:
        return U.Sqrt.apply(self)

    def abs(self) -> Tensor:
        return U.Abs.apply(self)

    __abs__ = abs

    def sin(self) -> Tensor:
        return U.Sin.apply(self)

    def cos(self) -> Tensor:
        return U.Cos.apply(self)

    def sign(self) -> Tensor:
        return U.Sign.apply(self)

    def sgn(self) -> Tensor:
        return U.Sgn.apply(self)

    def logit(self, eps: float | None = None) -> Tensor:
        return U.Logit.apply(self, eps)

    def deg2rad(self) -> Tensor:
        return U.Deg2Rad.apply(self)

    def rad2deg(self) -> Tensor:
        return U.Rad2Deg.apply(self)

    def logit_(self, eps: float | None = None) -> Tensor:
        return self._inplace(U.Logit, eps)

    def deg2rad_(self) -> Tensor:
        return self._inplace(U.Deg2Rad)

    def rad2deg_(self) -> Tensor:
        return self._inplace(U.Rad2Deg)

    def isclose(
        self,
        other: Tensor,
        rtol: float = 1e-5,
        atol: float = 1e-8,
        equal_nan: bool = False,
    ) -> Tensor:
        close = np.isclose(self._data, other._data, rtol, atol, equal_nan)
        return Tensor._make(np.asarray(close), False)

    def tan(self) -> Tensor:
        return U.Tan.apply(self)

    def asin(self) -> Tensor:
        return U.Asin.apply(self)

    def acos(self) -> Tensor:
        return U.Acos.apply(self)

    def atan(self) -> Tensor:
        return U.Atan.apply(self)

    def sinh(self) -> Tensor:
        return U.Sinh.apply(self)

    def cosh(self) -> Tensor:
        return U.Cosh.apply(self)

    def asinh(self) -> Tensor:
        return U.Asinh.apply(self)

    def acosh(self) -> Tensor:
        return U.Acosh.apply(self)

    def atanh(self) -> Tensor:
        return U.Atanh.apply(self)

    arcsin = asin
    arccos = acos
    arctan = atan
    arcsinh = asinh
    arccosh = acosh
    arctanh = atanh

    def floor(self) -> Tensor:
        return U.Floor.apply(self)

    def ceil(self) -> Tensor:
        return U.Ceil.apply(self)

    def trunc(self) -> Tensor:
        return U.Trunc.apply(self)

    fix = trunc

    def round(self, *, decimals: int = 0) -> Tensor:
        if decimals:
            return U.RoundDecimals.apply(self, decimals)
        return U.Round.apply(self)

    def frac(self) -> Tensor:
        return U.Frac.apply(self)

    def floor_(self) -> Tensor:
        return self._inplace(U.Floor)

    def ceil_(self) -> Tensor:
        return self._inplace(U.Ceil)

    def trunc_(self) -> Tensor:
        return self._inplace(U.Trunc)

    # (the other elementwise functions in place are made below the class)

    def round_(self) -> Tensor:
        return self._inplace(U.Round)

    def frac_(self) -> Tensor:
        return self._inplace(U.Frac)

    def nan_to_num(
        self, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
    ) -> Tensor:
        return U.NanToNum.apply(self, nan, posinf, neginf)

    def nan_to_num_(
        self, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None
    ) -> Tensor:
        return self._inplace(U.NanToNum, nan, posinf, neginf)

    # predicates: boolean results, no gradient
    def _predicate(self, fn: Callable) -> Tensor:
        return Tensor._make(np.asarray(fn(self._data)), False)

    def all(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """Whether every element (along ``dim``) is nonzero: a bool tensor."""
        return self._truth(np.all, dim, keepdim)

    def any(self, dim: Any = None, keepdim: bool = False) -> Tensor:
        """Whether some element (along ``dim``) is nonzero: a bool tensor."""
        return self._truth(np.any, dim, keepdim)

    def _truth(self, fn: Callable, dim: Any, keepdim: bool) -> Tensor:
        x = self._data
        axis = None if dim is None else _dims.normalize_dims(dim, x.ndim)
        if axis is not None and not x.ndim:
            axis = None
        out = fn(x, axis=axis, keepdims=keepdim if axis is not None else False)
        return Tensor._make(np.asarray(out, bool), False)

    def isnan(self) -> Tensor:
        return self._predicate(np.isnan)

    def isinf(self) -> Tensor:
        return self._predicate(np.isinf)

    def isfinite(self) -> Tensor:
        return self._predicate(np.isfinite)

    def isposinf(self) -> Tensor:
        return self._predicate(np.isposinf)

    def isneginf(self) -> Tensor:
        return self._predicate(np.isneginf)

    def logical_not(self) -> Tensor:
        return self._predicate(np.logical_not)

    def logical_and(self, other: Tensor) -> Tensor:
        return self._compare(other, np.logical_and)

    def logical_or(self, other: Tensor) -> Tensor:
        return self._compare(other, np.logical_or)

    def logical_xor(self, other: Tensor) -> Tensor:
        return self._compare(other, np.logical_xor)

    def logical_not_(self) -> Tensor:
        return self._write_(self.logical_not())

    def logical_and_(self, other: Tensor) -> Tensor:
        return self._write_(self.logical_and(other))

    def logical_or_(self, other: Tensor) -> Tensor:
        return self._write_(self.logical_or(other))

    def logical_xor_(self, other: Tensor) -> Tensor:
        return self._write_(self.logical_xor(other))

    def rsqrt(self) -> Tensor:
        return U.Rsqrt.apply(self)

    def log1p(self) -> Tensor:
        return U.Log1p.apply(self)

    def log2(self) -> Tensor:
        return U.Log2.apply(self)

    def log10(self) -> Tensor:
        return U.Log10.apply(self)

    def exp2(self) -> Tensor:
        return U.Exp2.apply(self)

    def expm1(self) -> Tensor:
        return U.Expm1.apply(self)

    def erf(self) -> Tensor:
        return U.Erf.apply(self)

    def exp_(self) -> Tensor:
        return self._inplace(U.Exp)

    # --------------------------------- elementwise, two tensors (ops/binary.py)
    def logaddexp(self, other: Tensor) -> Tensor:
        return B.Logaddexp.apply(self, other)

    def hypot(self, other: Tensor) -> Tensor:
        return B.Hypot.apply(self, other)

    def xlogy(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return B.XlogyScalarOther.apply(self, other)
        return B.Xlogy.apply(self, _as_tensor(other, "xlogy"))

    def xlogy_(self, other: Any) -> Tensor:
        if isinstance(other, _NUMBER):
            return self._inplace(B.XlogyScalarOther, other)
        return self._inplace(B.Xlogy, _as_tensor(other, "xlogy_"))

    def atan2(self, other: Tensor) -> Tensor:
        return B.Atan2.apply(self, other)

    arctan2 = atan2

    def fmax(self, other: Tensor) -> Tensor:
        """The larger of each pair, the other one where one is nan."""
        return B.Fmax.apply(self, _tensor_arg("fmax", other))

    def fmin(self, other: Tensor) -> Tensor:
        """The smaller of each pair, the other one where one is nan."""
        return B.Fmin.apply(self, _tensor_arg("fmin", other))

    # ------------------------------------------ activations (ops/activation.py)
    def tanh(self) -> Tensor:
        return AC.Tanh.apply(self)

    def sigmoid(self) -> Tensor:
        return AC.Sigmoid.apply(self)

    def relu(self) -> Tensor:
        return AC.Relu.apply(self)

    def tanh_(self) -> Tensor:
        return self._inplace(AC.Tanh)

    def sigmoid_(self) -> Tensor:
        return self._inplace(AC.Sigmoid)

    def relu_(self) -> Tensor:
        return self._inplace(AC.Relu)

    def softmax(self, dim: int, dtype: Any = None) -> Tensor:
        """``exp(x) / sum(exp(x))`` along ``dim`` (SoftmaxBackward0)."""
        src = self if dtype is None else self.to(dtype)
        return AC.Softmax.apply(src, dim)

    def log_softmax(self, dim: int, dtype: Any = None) -> Tensor:
        """``x - logsumexp(x)`` along ``dim`` (LogSoftmaxBackward0)."""
        src = self if dtype is None else self.to(dtype)
        return AC.LogSoftmax.apply(src, dim)

    # ------------------------------------------ matrix products (ops/linalg.py)
    def dot(self, other: Tensor) -> Tensor:
        return L.Dot.apply(self, other)

    def mm(self, other: Tensor) -> Tensor:
        return L.Mm.apply(self, other)

    def mv(self, other: Tensor) -> Tensor:
        return L.Mv.apply(self, other)

    def bmm(self, other: Tensor) -> Tensor:
        return L.Bmm.apply(self, other)

    def matmul(self, other: Tensor) -> Tensor:
        return matmul(self, other)

    def addmm(
        self, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1
    ) -> Tensor:
        """``beta * self + alpha * (mat1 @ mat2)``."""
        return L.Addmm.apply(self, mat1, mat2, beta, alpha)

    def addmv(
        self, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1
    ) -> Tensor:
        """``beta * self + alpha * (mat @ vec)``."""
        return L.Addmv.apply(self, mat, vec, beta, alpha)

    def addmv_(
        self, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1
    ) -> Tensor:
        """``addmv`` in place."""
        return self._inplace(L.Addmv, mat, vec, beta, alpha)

    def baddbmm(
        self, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1
    ) -> Tensor:
        """``beta * self + alpha * (batch1 @ batch2)``, batched."""
        return L.Baddbmm.apply(self, batch1, batch2, beta, alpha)

    def addbmm(
        self, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1
    ) -> Tensor:
        """``beta * self + alpha * Σ_b batch1[b] @ batch2[b]``."""
        return L.Addbmm.apply(self, batch1, batch2, beta, alpha)

    def inner(self, other: Tensor) -> Tensor:
        return L.inner(self, _tensor_arg("inner", other))

    # ------------------------ det, inverse (ops/linalg_decomp.py, minigrad.linalg)
    def det(self) -> Tensor:
        return LD.LinalgDet.apply(self)

    def inverse(self) -> Tensor:
        return LD.LinalgInvEx.apply(self)

    def slogdet(self) -> Any:
        return LD.SlogdetResult(*LD.LinalgSlogdet.apply(self))

    def logdet(self) -> Tensor:
        """log(det), nan for a negative det: slogdet's log|det| where its sign
        is not negative (WhereBackward0, as PyTorch records it)."""
        sign, logabsdet = LD.LinalgSlogdet.apply(self)
        return C.where(sign < 0, float("nan"), logabsdet)

    # -------------------------------------------- reductions (ops/reduction.py)
    def sum_to_size(self, *size: Any) -> Tensor:
        """The sum down to ``size``, which must expand to this tensor's shape:
        leading dims summed away, dims of size 1 in ``size`` summed keeping them
        (SumBackward1, then ViewBackward0 if dims went away); ``self`` when
        nothing is summed."""
        if not size:
            raise TypeError(
                'sum_to_size() missing 1 required positional arguments: "size"'
            )
        shape = _shape_arg(size, "sum_to_size")
        lead = self.dim() - len(shape)
        own = tuple(self.shape)
        if lead < 0 or any(s not in (1, n) for s, n in zip(shape, own[lead:])):
            raise RuntimeError(
                f"size {{{list(shape)}}} is not expandable to size {{{list(own)}}}."
            )
        dims = [*range(lead)] + [
            i for i in range(lead, len(own)) if shape[i - lead] == 1 and own[i] != 1
        ]
        out = self.sum(tuple(dims), keepdim=True) if dims else self
        return out.view(*shape) if lead else out

    def sum(
        self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        # a dtype casts inside the op (no ToCopy node), as in PyTorch
        if dtype is not None:
            if dim is None:
                return R.Sum.apply(self, dtype.np)
            return R.SumDim.apply(self, dim, keepdim, dtype.np)
        if dim is None:
            return R.Sum.apply(self)
        return R.SumDim.apply(self, dim, keepdim)

    def mean(
        self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        if dtype is not None:
            if dim is None:
                return R.Mean.apply(self, dtype.np)
            return R.MeanDim.apply(self, dim, keepdim, dtype.np)
        if dim is None:
            return R.Mean.apply(self)
        return R.MeanDim.apply(self, dim, keepdim)

    def nansum(
        self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        """``sum`` with nan counted as zero."""
        return R.Nansum.apply(self, dim, keepdim, None if dtype is None else dtype.np)

    def nanmean(
        self, dim: Any = None, keepdim: bool = False, *, dtype: Any = None
    ) -> Tensor:
        """``mean`` of the elements that are not nan: their nansum divided by
        their count (as PyTorch computes it, so the node is DivBackward0)."""
        if not self.is_floating_point():  # (even with a floating dtype given)
            raise RuntimeError(
                "nanmean(): expected input to have floating point or complex dtype "
                f"but got {self.dtype._scalar_type}"
            )
        count = self.isnan().logical_not().sum(dim, keepdim)
        return self.nansum(dim, keepdim, dtype=dtype) / count

    def _extreme(self, all_cls: type, dim_cls: type, dim: Any, keepdim: bool) -> Any:
        if isinstance(dim, Tensor):  # max(a, b) is maximum
            return (C.maximum if all_cls is O.MaxAll else C.minimum)(self, dim)
        if dim is None:
            return all_cls.apply(self)
        values, indices = dim_cls.apply(self, dim, keepdim)
        result = R.MaxResult if dim_cls is O.MaxDim else R.MinResult
        return result(values, indices)

    def var(
        self,
        dim: Any = _NO_DIM,
        unbiased: Any = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
    ) -> Tensor:
        dim, correction = self._var_args(dim, unbiased, correction)
        return R.Var.apply(self, dim, correction, keepdim)

    def std(
        self,
        dim: Any = _NO_DIM,
        unbiased: Any = None,
        keepdim: bool = False,
        *,
        correction: Any = None,
    ) -> Tensor:
        dim, correction = self._var_args(dim, unbiased, correction)
        return R.Std.apply(self, dim, correction, keepdim)

    def prod(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        if dim is None:
            return R.Prod.apply(self)
        return R.ProdDim.apply(self, dim, keepdim)

    def logsumexp(self, dim: Any, keepdim: bool = False) -> Tensor:
        return R.Logsumexp.apply(self, dim, keepdim)

    def norm(self, p: Any = "fro", dim: Any = None, keepdim: bool = False) -> Tensor:
        if p == "nuc":  # torch.norm: a matrix norm over dim (every dim if None)
            dims = tuple(range(self.dim())) if dim is None else tuple(dim)
            if len(dims) != 2:
                shown = " ".join(str(d) for d in dims)
                raise RuntimeError(
                    f"linalg.matrix_norm: dim must be a 2-tuple. Got {shown}"
                )
            d0, d1 = _dims.normalize_dims(dims, self._data.ndim)
            return LD.singular_value_norm(self, p, d0, d1, keepdim)
        if p == "fro" or p is None:
            p = 2
        if isinstance(dim, int):
            dim = (dim,)
        elif isinstance(dim, list):
            dim = tuple(dim)
        return R.VectorNorm.apply(self, p, dim, keepdim)

    def cumsum(self, dim: int) -> Tensor:
        return R.Cumsum.apply(self, dim)

    def cumprod(self, dim: int) -> Tensor:
        return R.Cumprod.apply(self, dim)

    def outer(self, vec2: Tensor) -> Tensor:
        for name, t in (("self", self), ("vec2", vec2)):
            if t._data.ndim != 1:
                raise RuntimeError(
                    f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D"
                )
        return self.reshape(self._data.shape[0], 1) * vec2  # what PyTorch records

    ger = outer

    # ----------------------------------------- max, min, sort (ops/ordering.py)
    def sort(self, *args: Any, **kwargs: Any) -> Any:
        """``sort(dim=-1, descending=False)``, or ``sort(*, stable, dim=-1,
        descending=False)``: PyTorch's two overloads (with ``stable``, dim and
        descending must be keywords)."""
        dim, descending, stable = _sort_args("sort", args, kwargs)
        cls = O.Sort if stable is None else O.SortStable
        return O.SortResult(*cls.apply(self, dim, descending))

    def argsort(self, *args: Any, **kwargs: Any) -> Tensor:
        dim, descending, stable = _sort_args("argsort", args, kwargs)
        return self.sort(dim=dim, descending=descending, stable=bool(stable)).indices

    def msort(self) -> Tensor:
        return self.sort(0).values

    def topk(
        self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
    ) -> Any:
        """The k largest (or smallest) values along dim, in order."""
        return O.TopkResult(*O.Topk.apply(self, k, dim, largest))

    def kthvalue(self, k: int, dim: int = -1, keepdim: bool = False) -> Any:
        return O.KthvalueResult(*O.Kthvalue.apply(self, k, dim, keepdim))

    def median(self, dim: int | None = None, keepdim: bool = False) -> Any:
        """The lower median (of all elements, or along dim with its indices)."""
        if dim is None:
            return O.MedianAll.apply(self)
        return O.MedianResult(*O.MedianDim.apply(self, dim, keepdim))

    def cummax(self, dim: int) -> Any:
        """The running max along ``dim`` and the index where each was reached."""
        return O.CummaxResult(*O.Cummax.apply(self, dim))

    def cummin(self, dim: int) -> Any:
        """The running min along ``dim`` and the index where each was reached."""
        return O.CumminResult(*O.Cummin.apply(self, dim))

    def max(self, dim: Any = None, keepdim: bool = False) -> Any:
        return self._extreme(O.MaxAll, O.MaxDim, dim, keepdim)

    def min(self, dim: Any = None, keepdim: bool = False) -> Any:
        return self._extreme(O.MinAll, O.MinDim, dim, keepdim)

    def amax(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        self._check_extreme_dims("amax", dim)
        return O.Amax.apply(self, dim, keepdim)

    def amin(self, dim: Any = (), keepdim: bool = False) -> Tensor:
        self._check_extreme_dims("amin", dim)
        return O.Amin.apply(self, dim, keepdim)

    def argmax(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        self._check_extreme_dims("argmax", dim)
        return O.argmax(self, dim, keepdim)

    def argmin(self, dim: int | None = None, keepdim: bool = False) -> Tensor:
        self._check_extreme_dims("argmin", dim)
        return O.argmax(self, dim, keepdim, np.argmin)

    def _check_extreme_dims(self, name: str, dim: Any) -> None:
        """An empty tensor has no max: PyTorch's errors (amax's a RuntimeError,
        argmax's an IndexError) instead of numpy's."""
        x = self._data
        if x.size:
            return
        if dim is None or dim == () or dim == []:
            tail = "" if name.startswith("arg") else _SPECIFY_DIM
            error = IndexError if name.startswith("arg") else RuntimeError
            raise error(
                f"{name}(): Expected reduction dim to be specified for "
                f"input.numel() == 0.{tail}"
            )
        for d in _dims.normalize_dims(dim, x.ndim):
            if x.ndim and x.shape[d] == 0:
                raise IndexError(
                    f"{name}(): Expected reduction dim {d} to have non-zero size."
                )

    def _var_args(self, dim: Any, unbiased: Any, correction: Any) -> tuple:
        if isinstance(dim, bool):  # var(True): the ``unbiased`` overload
            dim, unbiased = _NO_DIM, dim
        if dim is not _NO_DIM and unbiased is None and correction is None:
            unbiased = True  # PyTorch's var(dim, unbiased=True) overload
        dim = None if dim is _NO_DIM else dim
        if isinstance(dim, int):
            dim = (dim,)
        elif isinstance(dim, list):
            dim = tuple(dim)
        if unbiased is not None:
            correction = int(unbiased)
        return dim, correction

    # ----------------------------------- where, clamp, masks (ops/selection.py)
    def clamp(self, min: Any = None, max: Any = None) -> Tensor:
        cls, args = C.clamp_args(min, max)
        return cls.apply(self, *args)

    clip = clamp

    def clamp_(self, min: Any = None, max: Any = None) -> Tensor:
        cls, args = C.clamp_args(min, max)
        return self._inplace(cls, *args)

    clip_ = clamp_

    def clamp_min(self, min: Any) -> Tensor:
        cls, args = C.clamp_min_args(min)
        return cls.apply(self, *args)

    def clamp_max(self, max: Any) -> Tensor:
        cls, args = C.clamp_max_args(max)
        return cls.apply(self, *args)

    def clamp_min_(self, min: Any) -> Tensor:
        cls, args = C.clamp_min_args(min)
        return self._inplace(cls, *args)

    def clamp_max_(self, max: Any) -> Tensor:
        cls, args = C.clamp_max_args(max)
        return self._inplace(cls, *args)

    def maximum(self, other: Tensor) -> Tensor:
        return C.maximum(self, other)

    def minimum(self, other: Tensor) -> Tensor:
        return C.minimum(self, other)

    def where(self, condition: Tensor, other: Any) -> Tensor:
        return C.where(condition, self, other)

    def masked_fill(self, mask: Tensor, value: Any) -> Tensor:
        return C.masked_fill(self, mask, value)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        if isinstance(value, Tensor):
            return self._inplace(C.MaskedFillTensor, value, (mask,))
        return self._inplace(C.MaskedFill, (mask,), value)

    def masked_select(self, mask: Tensor) -> Tensor:
        """The elements where ``mask`` holds, as a 1-d tensor."""
        return C.MaskedSelect.apply(self, (mask,))

    def masked_scatter(self, mask: Tensor, source: Tensor) -> Tensor:
        """A copy with ``source``'s first elements written where ``mask`` holds."""
        return C.MaskedScatter.apply(self, (mask,), source)

    def masked_scatter_(self, mask: Tensor, source: Tensor) -> Tensor:
        return self._inplace(C.MaskedScatter, (mask,), source)

    # ----------------------------------------------------- views (ops/views.py)
    def view(self, *shape: Any) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], dt.dtype):
            raise NotImplementedError("view(dtype) is not supported by minigrad")
        if shape and isinstance(shape[0], (tuple, list)) and shape[0]:
            if len(shape) == 1 and not _is_size_int(shape[0][0], alone=True):
                got = argument_desc(shape[0])  # two overloads, both named
                raise TypeError(
                    f"view() received an invalid combination of arguments - got "
                    f"({type(shape[0]).__name__}), but expected one of:\n * "
                    f"(minigrad.dtype dtype)\n      didn't match because some "
                    f"of the arguments have invalid types: (!{got}!)\n * (tuple of "
                    "ints size)\n      didn't match because some of the arguments "
                    f"have invalid types: (!{got}!)\n"
                )
        elif len(shape) > 1 and not _is_size_int(shape[0], alone=True):
            got = ", ".join(type_name(n) for n in shape)
            raise TypeError(
                f"view() received an invalid combination of arguments - got ({got}), "
                f"but expected one of:\n * (minigrad.dtype dtype)\n * (tuple "
                "of ints size)\n"
            )
        if len(shape) == 1 and not isinstance(shape[0], (tuple, list)):
            if not _is_size_int(shape[0], alone=True):  # two overloads: both named
                got = type_name(shape[0])
                raise TypeError(
                    f"view() received an invalid combination of arguments - got "
                    f"({got}), but expected one of:\n * (minigrad.dtype dtype)\n"
                    f"      didn't match because some of the arguments have invalid "
                    f"types: (!{got}!)\n * (tuple of ints size)\n      didn't match "
                    f"because some of the arguments have invalid types: (!{got}!)\n"
                )
        shape = V.view_shape(_shape_arg(shape, "view"), self._data.size)
        return self._view(V.View, shape)

    def view_as(self, other: Tensor) -> Tensor:
        return self.view(other.shape)

    def reshape(self, *shape: Any) -> Tensor:
        shape = V.view_shape(_shape_arg(shape, "reshape", "shape"), self._data.size)
        if self._data.flags.c_contiguous:
            return self._view(V.View, shape)
        if np.shares_memory(self._data.reshape(shape), self._data):
            return self._view(V.ReshapeAlias, shape)
        # Not expressible as a view: PyTorch copies (row-major), then
        # reinterprets the copy.
        return V.UnsafeView.apply(CP.Clone.apply(self, "C"), shape)

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        if self._data.ndim == 0:
            return self.reshape(1)
        start, end = _dims.normalize_dims((start_dim, end_dim), self._data.ndim)
        if start > end:
            raise RuntimeError(
                "flatten() has invalid args: start_dim cannot come after end_dim"
            )
        if start == end:
            return self
        shape = self._data.shape
        return self.reshape(shape[:start] + (-1,) + shape[end + 1 :])

    def reshape_as(self, other: Tensor) -> Tensor:
        return self.reshape(other.shape)

    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        if self._data.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        (d,) = _dims.normalize_dims(dim, self._data.ndim)
        size = self._data.shape[d]
        start = start + size if start < 0 else start
        if start + length > size:
            raise RuntimeError(
                f"start ({start}) + length ({length}) exceeds dimension size ({size})."
            )
        return self._view(V.Narrow, dim, slice(start, start + length))

    def movedim(self, source: Any, destination: Any) -> Tensor:
        src = [source] if isinstance(source, int) else list(source)
        dst = [destination] if isinstance(destination, int) else list(destination)
        if len(src) != len(dst):
            raise RuntimeError(
                "movedim: Invalid source or destination dims: source "
                f"({src} dims) should contain the same number of dims as "
                f"destination ({dst} dims)"
            )
        n = self._data.ndim
        if n == 0:
            return self._view(V.Alias)
        src_n, dst_n = _dims.normalize_dims(src, n), _dims.normalize_dims(dst, n)
        for name, given, dims in (("source", src, src_n), ("destination", dst, dst_n)):
            if len(set(dims)) != len(dims):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
        order = [d for d in range(n) if d not in src_n]
        for d, s in sorted(zip(dst_n, src_n)):
            order.insert(d, s)
        return self.permute(order)

    moveaxis = movedim

    def swapaxes(self, axis0: int, axis1: int) -> Tensor:
        return self.transpose(axis0, axis1)

    swapdims = swapaxes

    def t(self) -> Tensor:
        return self._view(V.T)

    @property
    def T(self) -> Tensor:  # noqa: N802
        ndim = self._data.ndim
        if ndim == 0:
            warnings.warn(
                "Tensor.T is deprecated on 0-D tensors. This function is the "
                "identity in these cases.",
                UserWarning,
                stacklevel=2,
            )
        elif ndim != 2:
            warnings.warn(
                "The use of `x.T` on tensors of dimension other than 2 to reverse "
                "their shape is deprecated and it will throw an error in a future "
                "release. Consider `x.mT` to transpose batches of matrices or "
                "`x.permute(*minigrad.arange(x.ndim - 1, -1, -1))` to reverse the "
                "dimensions of a tensor.",
                UserWarning,
                stacklevel=2,
            )
        return self._view(V.Permute, tuple(reversed(range(ndim))))

    @property
    def mT(self) -> Tensor:  # noqa: N802
        return self.transpose(-2, -1)

    def transpose(self, dim0: int, dim1: int) -> Tensor:
        _dims.normalize_dims((dim0, dim1), self._data.ndim)  # range check
        return self._view(V.Transpose, dim0, dim1)

    def transpose_(self, dim0: int, dim1: int) -> Tensor:
        _dims.normalize_dims((dim0, dim1), self._data.ndim)  # range check
        return self._inplace_view(V.TransposeInplace, dim0, dim1)

    def t_(self) -> Tensor:
        return self._inplace_view(V.TInplace)

    def unsqueeze_(self, dim: int) -> Tensor:
        _dims.normalize_dims(dim, self._data.ndim + 1)  # range check
        return self._inplace_view(V.UnsqueezeInplace, dim)

    def squeeze_(self, dim: int | tuple | None = None) -> Tensor:
        if dim is None:
            return self._inplace_view(V.SqueezeInplace)
        if not isinstance(dim, int):  # several dims (SqueezeBackward5)
            _dims.reduce_dims(dim, self._data.ndim)  # range and repeat checks
            return self._inplace_view(V.SqueezeDimsInplace, tuple(dim))
        _dims.normalize_dims(dim, self._data.ndim)  # range check
        return self._inplace_view(V.SqueezeDimInplace, dim)

    def permute(self, *dims: Any) -> Tensor:
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        dims = _shape_arg(dims, "permute", "dims")
        if len(dims) != self._data.ndim:  # (PyTorch's words, checked first)
            raise RuntimeError(
                "permute(sparse_coo): number of dimensions in the tensor input does "
                "not match the length of the desired ordering of dimensions i.e. "
                f"input.dim() = {self._data.ndim} is not equal to len(dims) = "
                f"{len(dims)}"
            )
        if len(set(_dims.normalize_dims(dims, self._data.ndim))) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return self._view(V.Permute, dims)

    def expand(self, *shape: Any) -> Tensor:
        shape = list(_shape_arg(shape, "expand"))
        lead = len(shape) - self._data.ndim
        if lead < 0:
            raise RuntimeError(
                f"expand(minigrad.{self.dtype._legacy}{{{list(self.shape)}}}, "
                f"size={shape}): the number of sizes provided ({len(shape)}) must be "
                f"greater or equal to the number of dimensions in the tensor "
                f"({self._data.ndim})"
            )
        for i, n in enumerate(shape):
            if i < lead:
                continue
            have = self._data.shape[i - lead]
            if n == -1:
                shape[i] = have
            elif have != 1 and have != n:
                raise RuntimeError(
                    f"The expanded size of the tensor ({n}) must match the existing "
                    f"size ({have}) at non-singleton dimension {i}.  Target sizes: "
                    f"{shape}.  Tensor sizes: {list(self._data.shape)}"
                )
        return self._view(V.Expand, tuple(shape))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def unsqueeze(self, dim: int) -> Tensor:
        _dims.normalize_dims(dim, self._data.ndim + 1)  # range check
        return self._view(V.Unsqueeze, dim)

    def squeeze(self, dim: int | tuple | None = None) -> Tensor:
        if dim is None:
            return self._view(V.Squeeze)
        if not isinstance(dim, int):  # several dims (SqueezeBackward2)
            _dims.reduce_dims(dim, self._data.ndim)  # range and repeat checks
            return self._view(V.SqueezeDims, tuple(dim))
        _dims.normalize_dims(dim, self._data.ndim)  # range check
        return self._view(V.SqueezeDim, dim)

    def select(self, dim: int, index: int) -> Tensor:
        if self._data.ndim:
            d = _dims.normalize_dims(dim, self._data.ndim)[0]  # range check
            size = self._data.shape[d]
            if not -size <= index < size:  # worded unlike ``a[i]``'s error
                raise IndexError(
                    f"select(): index {index} out of range for tensor of size "
                    f"{list(self._data.shape)} at dimension {dim}"
                )
        return self._view(V.Select, dim, index)

    def __getitem__(self, key: Any) -> Tensor:
        """Basic indexing is a chain of views (select/slice/unsqueeze), as in
        PyTorch; any list, array or tensor index makes one IndexBackward0 copy,
        of what the basic part of the key viewed first."""
        key = _byte_masks_as_bool(_ranges_as_lists(key))
        _check_index_items(key)
        if isinstance(key, (Tensor, list, np.ndarray)) and not _is_int_scalar(key):
            return self._index(key)
        if not isinstance(key, tuple):
            if key is Ellipsis:
                return self._view(V.Alias)
            if isinstance(key, slice):
                return self._view(V.Slice, 0, key)
            key = (key,)
        if any(_is_advanced(k) for k in key):
            return self._mixed_index(key)
        out = self._basic_index(key)
        return self._view(V.Alias) if out is self else out

    def _basic_index(self, key: tuple) -> Tensor:
        """The views a key of ints, slices, None and Ellipsis makes (``self``
        when every item is a whole slice)."""
        out, dim = self, 0
        n_real = sum(_consumed(k) for k in key)
        for k in key:
            if k is None:
                out = out._view(V.Unsqueeze, dim)
                dim += 1
            elif k is Ellipsis:
                dim += self._data.ndim - n_real
            elif isinstance(k, slice):
                # PyTorch skips a slice only when it is written as the whole dim
                # (``x[1:]`` of an empty dim is still a SliceBackward0)
                whole = k.start in (None, 0) and k.step in (None, 1)
                if not (whole and (k.stop is None or k.stop >= out._data.shape[dim])):
                    out = out._view(V.Slice, dim, k)
                dim += 1
            else:
                if dim >= out._data.ndim and self._data.ndim:  # 0-d: Select says
                    raise IndexError(
                        f"too many indices for tensor of dimension {self._data.ndim}"
                    )
                out = out._view(V.Select, dim, int(k))
        return out

    def _mixed_index(self, key: tuple) -> Tensor:
        """PyTorch's order for a key with array items: the basic items first, as
        views (``b[1:, [0]]`` is IndexBackward0 <- SliceBackward0, an int next to
        an array is a select, not a broadcast index), then one index of what is
        left; a bool is an unsqueeze indexed by ``[True]`` or ``[False]``."""
        viewed, items = self._split_key(key)
        return viewed._index(items)

    def _split_key(self, key: tuple) -> tuple:
        """PyTorch's applySlicing: the views the basic items of ``key`` make, and
        the key of index tensors left for what they viewed."""
        basic: list = []
        advanced: list = []  # (dim of the viewed tensor, index)
        dim, n_real = 0, sum(_consumed(k) for k in key)
        for k in key:
            if k is None or isinstance(k, (bool, np.bool_)):
                basic.append(None)
                if k is not None:
                    advanced.append((dim, Tensor._make(np.array([bool(k)]), False)))
                dim += 1
            elif k is Ellipsis:
                basic.append(k)
                dim += self._data.ndim - n_real
            elif _is_advanced(k):
                n = _consumed(k)
                basic.extend([slice(None)] * n)
                advanced.append((dim, k))
                dim += n
            else:  # a slice keeps its dim, an int selects it away
                basic.append(k)
                dim += isinstance(k, slice)
        viewed = self._basic_index(tuple(basic))
        items: list = []
        for d, k in advanced:
            items.extend([slice(None)] * (d - len(items) - _taken(items)))
            items.append(k)
        return viewed, tuple(items)

    # ----------------------------------------- copies and fills (ops/copies.py)
    def to(self, *args: Any, **kwargs: Any) -> Tensor:
        """``to(dtype)``; the CPU as a device is accepted, another is refused as a
        CPU-only PyTorch refuses it."""
        unknown = set(kwargs) - {"device", "dtype", "non_blocking", "copy"}
        if unknown - {"memory_format"}:  # e.g. to(requires_grad=True)
            got = "".join(f"{k}={type(v).__name__}, " for k, v in kwargs.items())
            tail = "bool non_blocking = False, bool copy = False, *, "
            tail += "minigrad.memory_format memory_format = None)"
            raise TypeError(
                f"to() received an invalid combination of arguments - got ({got}), "
                "but expected one of:\n"
                " * (minigrad.device device = None, minigrad.dtype dtype = None, "
                f"{tail}\n"
                f" * (minigrad.dtype dtype, {tail}\n"
                f" * (Tensor tensor, {tail}\n"
            )
        dtype = kwargs.get("dtype")
        _device.check(kwargs.get("device"))
        for a in args:
            if isinstance(a, dt.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, (str, _device.device)):
                _device.check(a)
        dtype = self.dtype if dtype is None else dtype
        if dtype is self.dtype and not kwargs.get("copy", False):
            return self
        return CP.ToCopy.apply(self, dtype.np)  # (copy=True: a copy even so)

    def type(self, dtype: Any = None, non_blocking: bool = False) -> Any:
        """The legacy type's name (``'minigrad.FloatTensor'``), or a copy of
        another type: a dtype, a legacy type (``LongTensor``) or its name."""
        if dtype is None:
            return f"minigrad.{self.dtype._legacy}"
        if isinstance(dtype, str):
            name = dtype.removeprefix("torch.").removeprefix("minigrad.")
            found = [d for d in (*dt.ALL, dt.bfloat16) if d._legacy == name]
            if not found:
                raise ValueError(f"invalid type: '{dtype}'")
            dtype = found[0]
        elif isinstance(getattr(dtype, "dtype", None), dt.dtype):
            dtype = dtype.dtype  # FloatTensor... (the classes sit in creation.py)
        if not isinstance(dtype, dt.dtype):
            raise TypeError("dtype must be a type, str, or dtype object")
        return self.to(dtype)

    def double(self) -> Tensor:
        return self.to(dt.float64)

    def float(self) -> Tensor:
        return self.to(dt.float32)

    def half(self) -> Tensor:
        return self.to(dt.float16)

    def bfloat16(self) -> Tensor:
        """Refused with a clear error: numpy has no bfloat16."""
        return self.to(dt.bfloat16)

    def long(self) -> Tensor:
        return self.to(dt.int64)

    def int(self) -> Tensor:
        return self.to(dt.int32)

    def bool(self) -> Tensor:
        return self.to(dt.bool)

    def cpu(self) -> Tensor:
        return self

    def cuda(self, *args: Any, **kwargs: Any) -> Tensor:
        raise AssertionError("Torch not compiled with CUDA enabled")

    def clone(self) -> Tensor:
        return CP.Clone.apply(self)

    def contiguous(self) -> Tensor:
        if self._data.flags.c_contiguous:
            return self
        return CP.Clone.apply(self, "C")  # a clone in row-major order

    def zero_(self) -> Tensor:
        return self._inplace(CP.Zero)

    def fill_(self, value: Any) -> Tensor:
        if isinstance(value, Tensor):
            return self._inplace(CP.FillTensor, value)
        return self._inplace(CP.Fill, value)

    def copy_(self, src: Any) -> Tensor:
        return self._inplace(CP.Copy, _as_tensor(src, "copy_"))

    # ``x += y`` is ``x.add_(y)``; for an operand it refuses, Python's own
    # "unsupported operand type(s) for +=" error, as with PyTorch
    def __iadd__(self, other: Any) -> Tensor:
        return self.add_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __isub__(self, other: Any) -> Tensor:
        return self.sub_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __imul__(self, other: Any) -> Tensor:
        return self.mul_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __imod__(self, other: Any) -> Tensor:
        return (
            self.remainder_(other) if isinstance(other, _OPERANDS) else NotImplemented
        )

    def __ifloordiv__(self, other: Any) -> Tensor:
        if isinstance(other, _OPERANDS):
            return self.floor_divide_(other)
        return NotImplemented

    def __ipow__(self, exponent: Any) -> Tensor:
        return self.pow_(exponent)

    # ----------------------------------------------- indexing (ops/indexing.py)
    def index_select(self, dim: int, index: Tensor) -> Tensor:
        return IX.IndexSelect.apply(self, dim, (index,))

    def index_add(
        self, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1
    ) -> Tensor:
        """A copy with ``alpha * source`` added at ``index`` along ``dim``."""
        return IX.IndexAdd.apply(self, dim, (index,), source, alpha)

    def index_add_(
        self, dim: int, index: Tensor, source: Tensor, *, alpha: Any = 1
    ) -> Tensor:
        return self._inplace(IX.IndexAdd, dim, (index,), source, alpha)

    def index_fill(self, dim: int, index: Tensor, value: Any) -> Tensor:
        cls = IX.IndexFill if isinstance(value, Tensor) else IX.IndexFillScalar
        return cls.apply(self, dim, (index,), value)

    def index_fill_(self, dim: int, index: Tensor, value: Any) -> Tensor:
        cls = IX.IndexFill if isinstance(value, Tensor) else IX.IndexFillScalar
        return self._inplace(cls, dim, (index,), value)

    def take(self, index: Tensor) -> Tensor:
        """The elements at ``index`` of the flattened tensor, shaped like ``index``."""
        return IX.Take.apply(self, (_tensor_arg("take", index, 1, "index"),))

    def put(self, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        """A copy with ``source`` written (or added) at the flat ``index``."""
        return IX.Put.apply(self, (index,), source, accumulate)

    def put_(self, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
        return self._inplace(IX.Put, (index,), source, accumulate)

    def gather(self, dim: int, index: Tensor, *, sparse_grad: bool = False) -> Tensor:
        return IX.Gather.apply(self, dim, (index,))

    def scatter_add(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        return IX.ScatterAdd.apply(self, dim, (index,), src)

    def scatter_reduce(
        self,
        dim: int,
        index: Tensor,
        src: Tensor,
        reduce: str,
        *,
        include_self: bool = True,
    ) -> Tensor:
        """``src`` combined into a copy of self at ``index`` by ``reduce`` ("sum",
        "prod", "mean", "amax" or "amin")."""
        return IX.ScatterReduce.apply(self, dim, (index,), src, reduce, include_self)

    def scatter_reduce_(
        self,
        dim: int,
        index: Tensor,
        src: Tensor,
        reduce: str,
        *,
        include_self: bool = True,
    ) -> Tensor:
        return self._inplace(IX.ScatterReduce, dim, (index,), src, reduce, include_self)

    def scatter_add_(self, dim: int, index: Tensor, src: Tensor) -> Tensor:
        return self._inplace(IX.ScatterAdd, dim, (index,), src)

    def index_put(
        self, indices: Any, values: Tensor, accumulate: bool = False
    ) -> Tensor:
        """A copy with ``values`` written (or added) at ``self[indices]``."""
        key = _index_put_key("index_put", indices, values)
        return IX.IndexPut.apply(self, values, key, accumulate)

    def index_put_(
        self, indices: Any, values: Tensor, accumulate: bool = False
    ) -> Tensor:
        key = _index_put_key("index_put_", indices, values)
        return self._inplace(IX.IndexPut, values, key, accumulate)

    def _index(self, key: Any) -> Tensor:
        np_key = _numpy_key(key)
        _check_masks(self._data.shape, np_key)
        items = key if isinstance(key, tuple) else (key,)
        indices = tuple(
            k
            if isinstance(k, Tensor)
            else None
            if isinstance(k, slice)
            else Tensor._make(_list_index(k), False)
            for k in items
        )
        return IX.Index.apply(self, np_key, indices)

    def __setitem__(self, key: Any, value: Any) -> None:
        """PyTorch's set_item: the basic items of the key as views first, then one
        index_put_ of what they viewed for the index items (the view's in-place
        write: CopySlices around IndexPutBackward0), else a copy into the view,
        or into this tensor itself when the key views all of it (CopyBackwards,
        or FillBackward3 for a number or 0-d value)."""
        if not isinstance(value, (Tensor, *_NUMBER)):
            raise TypeError(
                f"can't assign a {type(value).__name__} to a "
                f"minigrad.{self.dtype._legacy}"
            )
        value = _as_tensor(value)
        key = _ranges_as_lists(key)
        if _has_byte_mask(key) and not value._data.ndim:
            # PyTorch fills with one value through masked_fill_, which takes
            # bool masks only; a tensor value goes to index_put_ as a mask
            raise RuntimeError(
                "masked_fill_ only supports boolean masks, but got mask with dtype "
                "unsigned char"
            )
        key = _byte_masks_as_bool(key)
        _check_index_items(key)
        if isinstance(key, (bool, np.bool_)) and not key:
            return  # PyTorch writes nothing (and bumps no version) for x[False]
        if key is None or isinstance(key, (bool, np.bool_)):
            _copy_to(self._view(V.Unsqueeze, 0), value)
            return
        items = key if isinstance(key, tuple) else (key,)
        if not any(_is_advanced(k) for k in items):
            _copy_to(self._basic_index(items), value)
            return
        viewed, index = self._split_key(items)
        # PyTorch views a value with leading 1s without them first
        sizes = value._data.shape
        while sizes and sizes[0] == 1:
            sizes = sizes[1:]
        if sizes != value._data.shape:
            value = value.view(sizes)
        np_index = _numpy_key(index)
        _check_masks(viewed._data.shape, np_index)
        viewed._inplace(IX.IndexPut, value, np_index, False)

    # --------------------------------------------- join and split (ops/join.py)
    def split(self, split_size_or_sections: Any, dim: int = 0) -> tuple:
        if isinstance(split_size_or_sections, int):
            return self._views(J.Split, split_size_or_sections, dim)
        return self._views(J.SplitWithSizes, tuple(split_size_or_sections), dim)

    def chunk(self, chunks: int, dim: int = 0) -> tuple:
        size = self._chunk_size(chunks, dim)
        if size == 0:  # an empty dim: PyTorch gives ``chunks`` empty pieces
            return self.split([0] * chunks, dim)
        return self.split(size, dim)

    def unsafe_split(self, split_size: int, dim: int = 0) -> tuple:
        """``split`` whose pieces are not views: writing one in place is allowed
        and is not tracked back to this tensor (UnsafeSplitBackward0)."""
        return J.UnsafeSplit.apply(self, split_size, dim)

    def unsafe_chunk(self, chunks: int, dim: int = 0) -> tuple:
        return self.unsafe_split(self._chunk_size(chunks, dim), dim)

    def _chunk_size(self, chunks: int, dim: int) -> int:
        if chunks <= 0:
            raise RuntimeError(
                f"chunk expects `chunks` to be greater than 0, got: {chunks}"
            )
        if self._data.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        (d,) = _dims.normalize_dims(dim, self._data.ndim)
        return -(-self._data.shape[d] // chunks)

    def unbind(self, dim: int = 0) -> tuple:
        return self._views(J.Unbind, dim)

    # ------------------------------------ flip, roll, repeat (ops/rearrange.py)
    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        """Elements shifted along ``dims`` (the flattened tensor when None),
        wrapping around."""
        shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        dims = () if dims is None else (dims,) if isinstance(dims, int) else dims
        return RA.Roll.apply(self, shifts, tuple(dims))

    def rot90(self, k: int = 1, dims: Any = (0, 1)) -> Tensor:
        """Rotated by 90 degrees ``k`` times from the first of ``dims`` towards
        the second."""
        return RA.Rot90.apply(self, k, tuple(dims))

    def tile(self, *dims: Any) -> Tensor:
        """``repeat`` with missing leading repeats counted as 1."""
        reps = _shape_arg(dims, "tile", "dims")
        return self.repeat(*((1,) * (self.dim() - len(reps)) + reps))

    def _new(self, data: np.ndarray, dtype: Any, requires_grad: bool) -> Tensor:
        np_dtype = self._data.dtype if dtype is None else dtype.np
        return Tensor._make(data.astype(np_dtype), False).requires_grad_(requires_grad)

    def new_zeros(
        self, *size: Any, dtype: Any = None, requires_grad: bool = False, **_: Any
    ) -> Tensor:
        """Zeros with this tensor's dtype (unless ``dtype`` says otherwise)."""
        return self._new(np.zeros(_shape_arg(size, "new_zeros")), dtype, requires_grad)

    def new_ones(
        self, *size: Any, dtype: Any = None, requires_grad: bool = False, **_: Any
    ) -> Tensor:
        return self._new(np.ones(_shape_arg(size, "new_ones")), dtype, requires_grad)

    def new_empty(
        self, *size: Any, dtype: Any = None, requires_grad: bool = False, **_: Any
    ) -> Tensor:
        return self._new(np.zeros(_shape_arg(size, "new_empty")), dtype, requires_grad)

    def new_full(
        self,
        size: Any,
        fill_value: Any,
        *,
        dtype: Any = None,
        requires_grad: bool = False,
        **_: Any,
    ) -> Tensor:
        data = np.full(_shape_arg((size,), "new_full"), fill_value)
        return self._new(data, dtype, requires_grad)

    def type_as(self, other: Tensor) -> Tensor:
        return self.to(other.dtype)

    def flip(self, *dims: Any) -> Tensor:
        """The elements in reverse order along ``dims`` (a copy, not a view)."""
        if len(dims) == 1 and not isinstance(dims[0], int):
            dims = tuple(dims[0])
        return RA.Flip.apply(self, dims)

    def repeat(self, *sizes: Any) -> Tensor:
        return RA.Repeat.apply(self, _shape_arg(sizes, "repeat", "repeats"))

    # -------------------------------- diagonals and triangles (ops/diagonal.py)
    def tril(self, diagonal: int = 0) -> Tensor:
        return D.Tril.apply(self, diagonal)

    def triu(self, diagonal: int = 0) -> Tensor:
        return D.Triu.apply(self, diagonal)

    def tril_(self, diagonal: int = 0) -> Tensor:
        return self._inplace(D.Tril, diagonal)

    def triu_(self, diagonal: int = 0) -> Tensor:
        return self._inplace(D.Triu, diagonal)

    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The diagonal of dims ``dim1`` and ``dim2`` (a view), as the last dim."""
        return self._view(D.Diagonal, offset, dim1, dim2)

    def diag(self, diagonal: int = 0) -> Tensor:
        """Of a matrix, its diagonal (a copy); of a vector, the matrix with it on
        the diagonal."""
        ndim = self._data.ndim
        if ndim == 2:
            return D.DiagonalCopy.apply(self, diagonal, 0, 1)
        if ndim == 1:
            return D.DiagEmbed.apply(self, diagonal, -2, -1)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")

    def diag_embed(self, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
        return D.DiagEmbed.apply(self, offset, dim1, dim2)

    def trace(self) -> Tensor:
        return D.Trace.apply(self)


_OPERANDS = (TensorBase, *_NUMBER)  # what in-place operators accept


def warn_scalar_conversion(t: Any) -> None:
    """PyTorch warns, once per process and only while grad mode is on, when a
    tensor that requires grad becomes a Python number (the graph is cut there)."""
    if t.requires_grad and grad_mode.is_grad_enabled():
        warn_once(
            "scalar conversion",
            "Converting a tensor with requires_grad=True to a scalar may lead "
            "to unexpected behavior.\nConsider using tensor.detach() first.",
        )


def _tensor_arg(fn: str, value: Any, position: int = 1, name: str = "other") -> Tensor:
    """A Tensor argument ``other`` that takes no Python number, refused as
    PyTorch's argument parser refuses it (a method counts from after self)."""
    if not isinstance(value, Tensor):
        raise TypeError(
            f"{fn}(): argument '{name}' (position {position}) must be Tensor, not "
            f"{type_name(value)}"
        )
    return value


def _index_put_key(fn: str, indices: Any, values: Any) -> tuple:
    """``index_put``'s tuple of index tensors as a numpy key (PyTorch's parser
    takes a tuple or list of Tensors, no None)."""
    if not isinstance(indices, (tuple, list)):
        raise TypeError(
            f"{fn}(): argument 'indices' (position 1) must be tuple of Tensors, not "
            f"{type(indices).__name__}"
        )
    for i, t in enumerate(indices):
        if not isinstance(t, Tensor):
            raise TypeError(
                f"expected Tensor as element {i} in argument 0, but got "
                f"{type(t).__name__}"
            )
        if t._data.dtype.kind not in "iub":
            raise IndexError(
                "tensors used as indices must be long, int, byte or bool tensors"
            )
    _tensor_arg(fn, values, 2, "values")
    return tuple(t._data for t in indices)


def _sort_args(name: str, args: tuple, kwargs: dict, function: bool = False) -> tuple:
    """(dim, descending, stable) of sort/argsort, refused as PyTorch 2.13's
    argument parser refuses ``stable`` beside a positional dim or descending
    (``function``: ``minigrad.sort(x, ...)``, whose args start with the input;
    the parser lists the keywords in reverse)."""
    own = args[1:] if function else args
    unknown = set(kwargs) - {"dim", "descending", "stable"}
    if unknown:
        raise TypeError(f"{name}() got an unexpected keyword argument {min(unknown)!r}")
    if "stable" in kwargs and own:
        got = [type(a).__name__ for a in args]
        got += [f"{k}={type(v).__name__}" for k, v in reversed(kwargs.items())]
        head = (
            f"{name}() received an invalid combination of arguments - got "
            f"({', '.join(got)}), but expected one of:\n"
        )
        if function and name == "sort":
            raise TypeError(
                f"{head} * (Tensor input, *, bool stable, int dim = -1, bool "
                "descending = False, tuple of Tensors out = None)\n * (Tensor input, "
                "int dim = -1, bool descending = False, *, tuple of Tensors out = "
                "None)\n"
            )
        if len(own) == 1 and list(kwargs) == ["stable"]:
            first, second = (
                "*, bool stable, int dim = -1, bool descending = False",
                ("int dim = -1, bool descending = False"),
            )
            if function:
                first, second = (
                    f"Tensor input, {first}, Tensor out = None",
                    (f"Tensor input, {second}"),
                )
            raise TypeError(
                f"{head} * ({first})\n * ({second})\n      didn't match because "
                "some of the keywords were incorrect: stable\n"
            )
        lo = 2 if function else 1
        raise TypeError(
            f"{name}() takes from {lo} to {lo - 1} positional arguments but "
            f"{len(args)} were given"
        )
    values = dict(zip(("dim", "descending"), own), **kwargs)
    return values.get("dim", -1), values.get("descending", False), values.get("stable")


def _shape_arg(shape: tuple, fn: str, arg: str = "size") -> tuple:
    """Accept ``f(2, 3)``, ``f((2, 3))`` and ``f([2, 3])`` alike, as ints:
    PyTorch's argument parser refuses a float (``ones(2, 3.5)``) rather than
    truncating it, naming the function, the argument and the position."""
    given = shape
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Size)):
        shape = tuple(shape[0])
    elif len(shape) == 1 and not _is_size_int(shape[0], alone=True):
        raise TypeError(
            f"{fn}(): argument '{arg}' (position 1) must be tuple of ints, "
            f"not {type_name(shape[0])}"
        )
    # the parser matches a signature by the first element alone; the others
    # fail later, when the list is unpacked
    if shape and not _is_size_int(shape[0], alone=True):
        if len(given) > 1:
            raise TypeError(
                f"{fn}() takes 1 positional argument but {len(given)} were given"
            )
        raise TypeError(
            f"{fn}(): argument '{arg}' (position 1) must be tuple of ints, but "
            f"found element of type {type_name(shape[0])} at pos 0"
        )
    for pos, n in enumerate(shape, 1):
        if not _is_size_int(n, alone=False):
            raise TypeError(
                f"{fn}(): argument '{arg}' failed to unpack the object at pos {pos} "
                f'with error "type must be tuple of ints,but got {type_name(n)}"'
            )
    return tuple(int(n) for n in shape)


def _is_size_int(n: Any, alone: bool) -> bool:
    """An int, a numpy integer or a one-element integer tensor; a bool counts
    only inside a list (PyTorch's parser reads ``(2, True)`` but not ``True``)."""
    if isinstance(n, bool):
        return not alone
    if isinstance(n, (int, np.integer)):
        return True
    return isinstance(n, Tensor) and n._data.size == 1 and n._data.dtype.kind in "iu"


def _copy_to(dst: Tensor, value: Tensor) -> None:
    """PyTorch's copy_to for setitem: ``copy_`` of a value of dst's shape,
    ``fill_`` of a 0-d one, else the value viewed without its leading 1s and
    expanded to dst (both recorded) and copied."""
    if value._data.shape == dst._data.shape:
        dst.copy_(value)
        return
    if value._data.ndim == 0:
        dst.fill_(value)
        return
    sizes = value._data.shape
    while sizes and sizes[0] == 1:
        sizes = sizes[1:]
    value = value.view(sizes)
    if sizes != dst._data.shape:
        value = value.expand(dst.shape)
    dst.copy_(value)


def _is_int_scalar(k: Any) -> bool:
    return isinstance(k, Tensor) and k._data.ndim == 0 and k._data.dtype.kind in "iu"


def _is_advanced(k: Any) -> bool:
    """An index item PyTorch indexes with (an array, list or tensor that is
    not a 0-d integer tensor, or a Python bool), not a view."""
    if isinstance(k, (bool, np.bool_)):
        return True
    return isinstance(k, (Tensor, list, np.ndarray)) and not _is_int_scalar(k)


def _consumed(k: Any) -> int:
    """How many dims of the indexed tensor a key item uses up."""
    if k is None or k is Ellipsis or isinstance(k, (bool, np.bool_)):
        return 0
    if isinstance(k, (Tensor, list, np.ndarray)) and not _is_int_scalar(k):
        arr = k._data if isinstance(k, Tensor) else _list_index(k)
        return arr.ndim if arr.dtype == np.bool_ else 1
    return 1


def _taken(items: list) -> int:
    """The dims the mask items in ``items`` use beyond their one slot."""
    return sum(_consumed(k) - 1 for k in items if not isinstance(k, slice))


_SPECIFY_DIM = " Specify the reduction dim with the 'dim' argument."
_INDEX_ITEM = (int, np.integer, np.bool_, slice, list, np.ndarray, str)


def _list_index(k: Any) -> np.ndarray:
    """A list index as an array; an empty one indexes nothing, as int64 (numpy
    would make it float64 and refuse it)."""
    arr = np.asarray(k)
    return arr.astype(np.int64) if arr.size == 0 and arr.dtype.kind == "f" else arr


def _ranges_as_lists(key: Any) -> Any:
    """A ``range`` indexes as the list of its ints (PyTorch reads any sequence
    as an index tensor: ``logprobs[range(n), y]`` in the makemore lectures)."""
    if isinstance(key, range):
        return list(key)
    if isinstance(key, tuple) and any(isinstance(k, range) for k in key):
        return tuple(list(k) if isinstance(k, range) else k for k in key)
    return key


def _check_index_items(key: Any) -> None:
    """Refuse a float index (``x[1.5]``) as PyTorch does, instead of numpy-style
    truncation. (A str goes on to the error the list path gives.)"""
    for k in key if isinstance(key, tuple) else (key,):
        if not (k is None or k is Ellipsis or isinstance(k, (Tensor, *_INDEX_ITEM))):
            raise IndexError(
                "only integers, slices (`:`), ellipsis (`...`), None and long or "
                f"byte Variables are valid indices (got {type_name(k)})"
            )


def _has_byte_mask(key: Any) -> bool:
    items = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, Tensor) and k._data.dtype == np.uint8 for k in items)


def _byte_masks_as_bool(key: Any) -> Any:
    """A uint8 tensor in a key is a mask, as in PyTorch (which warns that this
    is deprecated), not integer indices."""
    if not _has_byte_mask(key):
        return key
    items = key if isinstance(key, tuple) else (key,)
    warnings.warn(
        "indexing with dtype minigrad.uint8 is now deprecated, please use a dtype "
        "minigrad.bool instead.",
        UserWarning,
        stacklevel=3,
    )
    items = tuple(
        Tensor._make(k._data.astype(bool), False)
        if isinstance(k, Tensor) and k._data.dtype == np.uint8
        else k
        for k in items
    )
    return items if isinstance(key, tuple) else items[0]


def _check_masks(shape: tuple, np_key: Any) -> None:
    """PyTorch's words, not numpy's, for a bool mask that does not fit the dims
    it indexes; ``np_key`` (from ``_numpy_key``) holds slices and arrays for a
    tensor of ``shape`` (what the key's basic items viewed)."""
    dim = 0
    for k in np_key if isinstance(np_key, tuple) else (np_key,):
        if not (isinstance(k, np.ndarray) and k.dtype == np.bool_):
            dim += 1  # a slice or an integer index takes one dim
            continue
        if dim + k.ndim > len(shape):
            ndim = len(shape)
            raise IndexError(f"too many indices for tensor of dimension {ndim}")
        for j, size in enumerate(k.shape):
            if size != shape[dim + j]:
                raise IndexError(
                    f"The shape of the mask {list(k.shape)} at index {j} does "
                    "not match the shape of the indexed tensor "
                    f"{list(shape)} at index {dim + j}"
                )
        dim += k.ndim


def _numpy_key(key: Any) -> Any:
    def conv(k: Any) -> Any:
        if isinstance(k, Tensor):
            return k._data
        if isinstance(k, list):
            return _list_index(k)
        return k

    return tuple(conv(k) for k in key) if isinstance(key, tuple) else conv(key)


def _unary_inplace(name: str) -> Callable:
    def method(self: Tensor) -> Tensor:
        return self._inplace(getattr(U, _OP_CLASS.get(name, name.capitalize())))

    method.__name__ = method.__qualname__ = f"{name}_"
    method.__doc__ = f"``{name}`` in place."
    return method


_OP_CLASS = {"log1p": "Log1p", "exp2": "Exp2", "expm1": "Expm1", "log2": "Log2"}
# (PyTorch records other nodes for these three in place, with no derivative)
_OP_CLASS.update(asinh="AsinhInplace", acosh="AcoshInplace", atanh="AtanhInplace")
for _name in (
    "abs log sqrt rsqrt reciprocal sin cos tan sinh cosh asin acos atan asinh acosh "
    "atanh log1p log2 log10 exp2 expm1 erf sign sgn"
).split():
    setattr(TensorBase, f"{_name}_", _unary_inplace(_name))
for _alias, _name in (("arcsin", "asin"), ("arccos", "acos"), ("arctan", "atan")):
    setattr(TensorBase, f"{_alias}_", getattr(TensorBase, f"{_name}_"))
for _alias, _name in (("arcsinh", "asinh"), ("arccosh", "acosh"), ("arctanh", "atanh")):
    setattr(TensorBase, f"{_alias}_", getattr(TensorBase, f"{_name}_"))
TensorBase.fix_ = TensorBase.trunc_


def _rebuild_tensor(cls: type, data: np.ndarray, requires_grad: bool) -> Tensor:
    return cls._make(data, requires_grad)


def _scatter_old_reduce(t: Tensor, dim: int, index: Tensor, x: Any, reduce: str):
    """``scatter(..., reduce="add"|"multiply")``: the values, and the tensor
    source (None for a number). PyTorch has no derivative for it."""
    tensor_src = x if isinstance(x, Tensor) else None
    if tensor_src is not None:
        warn(
            "The reduce argument of minigrad.scatter with Tensor src is deprecated "
            "and will be removed in a future PyTorch release. Use "
            "minigrad.scatter_reduce instead for more reduction options."
        )
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    d, key = IX._scatter_target(t._data, dim, index, tensor_src)
    part = x if tensor_src is None else IX._src_part(x, key[d].shape)
    kind = "sum" if reduce == "add" else "prod"
    return IX.scatter_reduce_values(t._data, key, part, kind, True), tensor_src


def _scatter_source(src: Any, value: Any) -> tuple:
    """``scatter``'s two forms: a tensor ``src`` or a number ``value``."""
    if isinstance(src, Tensor):
        return IX.Scatter, src
    if src is None and value is None:
        raise TypeError("scatter() missing 1 required argument: 'src' or 'value'")
    return IX.ScatterValue, value if src is None else src


def _numpy_spellings(method: Callable) -> Callable:
    """Let a reduction take numpy's keywords as PyTorch's do: ``axis=`` for
    ``dim=`` and ``keepdims=`` for ``keepdim=`` (karpathy's lectures use them)."""

    def reduction(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            if "axis" in kwargs:
                kwargs["dim"] = kwargs.pop("axis")
            if "keepdims" in kwargs:
                kwargs["keepdim"] = kwargs.pop("keepdims")
        return method(self, *args, **kwargs)

    reduction.__name__ = method.__name__
    reduction.__qualname__ = method.__qualname__
    reduction.__doc__ = method.__doc__
    return reduction


for _name in (
    "sum mean nansum prod std var max min amax amin argmax argmin all any "
    "logsumexp median nanmedian mode aminmax cumsum cumprod"
).split():
    if hasattr(TensorBase, _name):
        setattr(TensorBase, _name, _numpy_spellings(getattr(TensorBase, _name)))
