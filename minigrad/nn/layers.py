"""Layers: ``Linear``, the containers, activations, ``Dropout``, ``Flatten``."""

from __future__ import annotations

import itertools
import math
import operator
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from .. import _dtype, creation, grad_mode
from .._tensor import Tensor
from . import functional as F
from . import init
from .module import Module, _addindent
from .parameter import Parameter


class Linear(Module):
    """``y = x Wᵀ + b`` with ``W`` of shape (out_features, in_features); both
    initialised from U(-1/√in_features, 1/√in_features) as in PyTorch."""

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(
            creation.empty((out_features, in_features), dtype=dtype)
        )
        if bias:
            self.bias = Parameter(creation.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class _ConvNd(Module):
    """Shared by Conv1d/2d/3d: weight (out, in/groups, *kernel) and bias drawn as
    PyTorch draws them (as for Linear, with fan_in = in/groups · kernel). The
    transposed ones (ConvTranspose1d/2d/3d) hold (in, out/groups, *kernel)."""

    k: int  # spatial dims
    transposed = False

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
        output_padding: Any = 0,
    ) -> None:
        super().__init__()
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode != "zeros":
            if self.transposed:
                raise ValueError(
                    f'Only "zeros" padding mode is supported for {type(self).__name__}'
                )
            raise NotImplementedError("minigrad's convolutions pad with zeros only")

        def tup(v: Any) -> tuple[int, ...]:
            return (v,) * self.k if isinstance(v, int) else tuple(v)

        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = tup(kernel_size), tup(stride)
        self.padding = padding if isinstance(padding, str) else tup(padding)
        self.dilation, self.groups = tup(dilation), groups
        self.padding_mode, self.output_padding = padding_mode, tup(output_padding)
        if self.transposed:
            shape = (in_channels, out_channels // groups) + self.kernel_size
        else:
            shape = (out_channels, in_channels // groups) + self.kernel_size
        self.weight = Parameter(creation.empty(shape, dtype=dtype))
        if bias:
            self.bias = Parameter(creation.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        Linear.reset_parameters(self)  # type: ignore[arg-type]

    def forward(self, input: Tensor) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self.k - 1]
        return conv(
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self.dilation,
            self.groups,
        )

    def extra_repr(self) -> str:
        s = (
            f"{self.in_channels}, {self.out_channels}, "
            f"kernel_size={self.kernel_size}, stride={self.stride}"
        )
        if self.padding != (0,) * self.k:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self.k:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self.k:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        return s


class Conv1d(_ConvNd):
    k = 1


class Conv2d(_ConvNd):
    k = 2


class Conv3d(_ConvNd):
    k = 3


class _ConvTransposeNd(_ConvNd):
    """A transposed convolution (the gradient of a convolution as a layer);
    ``forward(input, output_size)`` picks the output_padding that gives that
    size, as PyTorch does."""

    transposed = True

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: Any,
        stride: Any = 1,
        padding: Any = 0,
        output_padding: Any = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: Any = 1,
        padding_mode: str = "zeros",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(
            in_channels,
            out_channels,
            kernel_size,
            stride,
            padding,
            dilation,
            groups,
            bias,
            padding_mode,
            dtype=dtype,
            output_padding=output_padding,
        )

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)
        return conv[self.k - 1](
            input,
            self.weight,
            self.bias,
            self.stride,
            self.padding,
            self._output_padding(input, output_size),
            self.groups,
            self.dilation,
        )

    def _output_padding(self, input: Tensor, output_size: Any) -> tuple:
        if output_size is None:
            return self.output_padding
        k = self.k
        lead = 2 if input.dim() == k + 2 else 1
        output_size = list(output_size)
        if len(output_size) == lead + k:
            output_size = output_size[lead:]
        if len(output_size) != k:
            raise ValueError(
                f"ConvTranspose{k}D: for {input.dim()}D input, output_size must have "
                f"{k} or {lead + k} elements (got {len(output_size)})"
            )
        smallest = [
            (input.size(d + lead) - 1) * s - 2 * p + dil * (n - 1) + 1
            for d, (s, p, dil, n) in enumerate(
                zip(self.stride, self.padding, self.dilation, self.kernel_size)
            )
        ]
        largest = [m + s - 1 for m, s in zip(smallest, self.stride)]
        for size, lo, hi in zip(output_size, smallest, largest):
            if size < lo or size > hi:
                raise ValueError(
                    f"requested an output size of {output_size}, but valid sizes "
                    f"range from {smallest} to {largest} (for an input of "
                    f"{input.size()[lead:]})"
                )
        return tuple(size - lo for size, lo in zip(output_size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    k = 1


class ConvTranspose2d(_ConvTransposeNd):
    k = 2


class ConvTranspose3d(_ConvTransposeNd):
    k = 3


def _affine_parameters(
    module: Module, n: int | tuple, affine: bool, bias: bool, dtype: Any
) -> None:
    """A norm layer's weight (ones) and bias (zeros) of shape n, registered
    as None when ``affine`` (or ``bias``) is off, as PyTorch's norm layers do."""
    weight = Parameter(creation.ones(n, dtype=dtype)) if affine else None
    module.register_parameter("weight", weight)
    shift = Parameter(creation.zeros(n, dtype=dtype)) if affine and bias else None
    module.register_parameter("bias", shift)


class _BatchNorm(Module):
    """Normalizes each channel over the batch: with batch statistics while
    training (updating ``running_mean``/``running_var``), with the running ones
    in eval mode. ``dims``: the input dims it accepts."""

    dims: tuple[int, ...]

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device: Any = None,
        dtype: Any = None,
        *,
        bias: bool = True,
    ) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        _affine_parameters(self, num_features, affine, bias, dtype)
        if track_running_stats:
            self.register_buffer(
                "running_mean", creation.zeros(num_features, dtype=dtype)
            )
            self.register_buffer(
                "running_var", creation.ones(num_features, dtype=dtype)
            )
            self.register_buffer(
                "num_batches_tracked", creation.tensor(0, dtype=_dtype.int64)
            )
        else:
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)

    def forward(self, input: Tensor) -> Tensor:
        if input.dim() not in self.dims:
            want = " or ".join(f"{d}D" for d in self.dims)
            raise ValueError(f"expected {want} input (got {input.dim()}D input)")
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / float(self.num_batches_tracked)
        use_batch = self.training or self.running_mean is None
        keep = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if keep else None,
            self.running_var if keep else None,
            self.weight,
            self.bias,
            use_batch,
            factor,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    dims = (4,)


class BatchNorm3d(_BatchNorm):
    dims = (5,)


class MaxPool2d(Module):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        dilation: Any = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return F.max_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, "
            f"padding={self.padding}, dilation={self.dilation}, "
            f"ceil_mode={self.ceil_mode}"
        )


class AvgPool2d(Module):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = (
            count_include_pad,
            divisor_override,
        )

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
            self.divisor_override,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, "
            f"padding={self.padding}"
        )


class MaxPool1d(MaxPool2d):
    def forward(self, input: Tensor) -> Any:
        return F.max_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.dilation,
            ceil_mode=self.ceil_mode,
            return_indices=self.return_indices,
        )


class AvgPool1d(Module):
    def __init__(
        self,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None:
        super().__init__()

        def one(v: Any) -> tuple[int]:
            return (v,) if isinstance(v, int) else tuple(v)

        self.kernel_size = one(kernel_size)
        self.stride = one(stride if stride is not None else kernel_size)
        self.padding, self.ceil_mode = one(padding), ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool1d(
            input,
            self.kernel_size,
            self.stride,
            self.padding,
            self.ceil_mode,
            self.count_include_pad,
        )

    def extra_repr(self) -> str:
        return (
            f"kernel_size={self.kernel_size}, stride={self.stride}, "
            f"padding={self.padding}"
        )


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveMaxPool2d(AdaptiveAvgPool2d):
    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    def forward(self, input: Tensor) -> Any:
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class Identity(Module):
    """Returns its input (arguments are accepted and ignored)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Flatten(Module):
    """Flattens dims ``start_dim`` to ``end_dim`` into one (a view when it can)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        shape = list(input.shape)
        if not shape:
            return input.reshape(1)
        start = self.start_dim % len(shape)
        end = self.end_dim % len(shape)
        if start >= end:
            return input
        return input.reshape(*shape[:start], -1, *shape[end + 1 :])

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


def _index(idx: Any, size: int) -> int:
    """``idx`` as a position in a container of ``size`` (PyTorch's checks)."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


class Sequential(Module):
    """Runs its modules in order, each on the previous one's output.

    Editable like a list (``seq[2] = nn.Linear(...)``, ``del seq[0]``,
    ``insert``, ``extend``, ``pop``, ``+``, ``*``); a deletion renumbers the
    keys ``0``, ``1``, ... as PyTorch does."""

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input: Any) -> Any:
        for module in self._modules.values():
            input = module(input)
        return input

    def _key(self, idx: Any) -> str:
        return list(self._modules)[_index(idx, len(self))]

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):  # (keeps the keys: seq[1:] shows (1), (2)...)
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._modules[self._key(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]
        for key in keys:
            delattr(self, key)
        self._modules = OrderedDict(
            (str(i), m) for i, m in enumerate(self._modules.values())
        )

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n  # (before the last: -1 is the place of the last one)
        for i in range(n, index, -1):  # shift the tail one place up
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Any) -> Sequential:
        for module in sequential:
            self.append(module)
        return self

    def pop(self, key: int | slice) -> Any:
        value = self[key]
        del self[key]
        return value

    def __add__(self, other: Any) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError(
                "add operator supports only objects of Sequential class, but "
                f"{type(other)} is given."
            )
        return Sequential().extend(self).extend(other)

    def __iadd__(self, other: Any) -> Sequential:
        if not isinstance(other, Sequential):
            return self + other  # (the same ValueError)
        return self.extend(other)

    def _check_factor(self, other: Any) -> None:
        if not isinstance(other, int):
            raise TypeError(
                f"unsupported operand type(s) for *: {type(self)} and {type(other)}"
            )
        if other <= 0:
            raise ValueError(
                f"Non-positive multiplication factor {other} for {type(self)}"
            )

    def __mul__(self, other: Any) -> Sequential:
        """``seq * 2`` repeats the same modules (shared, not copied)."""
        self._check_factor(other)
        out = Sequential()
        for _ in range(other):
            out.extend(self)
        return out

    __rmul__ = __mul__

    def __imul__(self, other: Any) -> Sequential:
        self._check_factor(other)
        modules = list(self)
        for _ in range(other - 1):
            self.extend(modules)
        return self

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]


class ModuleList(Module):
    """A list of modules that registers them (it has no ``forward``)."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _key(self, idx: Any) -> str:
        return str(_index(idx, len(self)))

    def __getitem__(self, idx: int | slice) -> Any:
        if isinstance(idx, slice):  # (renumbered from 0, unlike Sequential's)
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._key(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._key(idx))
        self._modules = OrderedDict(
            (str(i), m) for i, m in enumerate(self._modules.values())
        )

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> ModuleList:
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> None:
        # (PyTorch's loop: a negative index fails with KeyError, as there)
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def extend(self, modules: Any) -> ModuleList:
        if not isinstance(modules, Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an iterable, but got "
                + type(modules).__name__
            )
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    def pop(self, key: int | slice) -> Any:
        value = self[key]
        del self[key]
        return value

    def __iadd__(self, modules: Any) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Any) -> ModuleList:
        out = ModuleList()
        for i, module in enumerate(itertools.chain(self, other)):
            out.add_module(str(i), module)
        return out

    def __dir__(self) -> list[str]:
        return [key for key in super().__dir__() if not key.isdigit()]

    def __repr__(self) -> str:
        """Runs of identical modules print once: ``(0-2): 3 x Linear(...)``."""
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        runs: list[list[Any]] = []  # [first index, last index, repr]
        for i, r in enumerate(reprs):
            if runs and runs[-1][2] == r:
                runs[-1][1] = i
            else:
                runs.append([i, i, r])
        lines = []
        for start, end, r in runs:
            if start == end:
                line = f"({start}): {r}"
            else:
                line = f"({start}-{end}): {end - start + 1} x {r}"
            lines.append(_addindent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """A dict of modules that registers them under their keys (in order)."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]  # type: ignore[return-value]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def keys(self) -> Any:
        return self._modules.keys()

    def items(self) -> Any:
        return self._modules.items()

    def values(self) -> Any:
        return self._modules.values()

    def update(self, modules: Any) -> None:
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module

    def pop(self, key: str) -> Module:
        module = self[key]
        del self[key]
        return module

    def clear(self) -> None:
        self._modules.clear()


def _as_parameter(value: Any) -> Any:
    """A tensor put in a parameter container becomes a Parameter (as PyTorch's
    ParameterList/ParameterDict make it)."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _parameter_line(key: str, p: Any, legacy: bool) -> str:
    """``(key): Parameter containing: [minigrad.float32 of size 2x3]``: the
    list names the dtype, the dict its legacy tensor type, as PyTorch does."""
    size = "x".join(str(n) for n in p.shape)
    kind = f"minigrad.{p.dtype._legacy}" if legacy else str(p.dtype)
    return f"({key}): Parameter containing: [{kind} of size {size}]"


class ParameterList(Module):
    """A list of parameters registered as ``0``, ``1``, ..."""

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        for value in values or ():
            self.append(value)

    def __getitem__(self, idx: int) -> Any:
        items = list(self._parameters.values())
        return items[idx]

    def __setitem__(self, idx: int, value: Any) -> None:
        key = list(self._parameters)[idx]
        self.register_parameter(key, _as_parameter(value))

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._parameters.values())

    def append(self, value: Any) -> ParameterList:
        self.register_parameter(str(len(self)), _as_parameter(value))
        return self

    def extend(self, values: Any) -> ParameterList:
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(
            "  " + _parameter_line(k, p, False) for k, p in self._parameters.items()
        )


class ParameterDict(ParameterList):
    """A dict of parameters registered under their keys."""

    def __init__(self, parameters: Any = None) -> None:
        Module.__init__(self)
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key: str) -> Any:  # type: ignore[override]
        return self._parameters[key]

    def __setitem__(self, key: str, value: Any) -> None:  # type: ignore[override]
        self.register_parameter(key, _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._parameters[key]

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]
        return iter(self._parameters)

    def __contains__(self, key: object) -> bool:
        return key in self._parameters

    def keys(self) -> Any:
        return self._parameters.keys()

    def items(self) -> Any:
        return self._parameters.items()

    def values(self) -> Any:
        return self._parameters.values()

    def update(self, parameters: Any) -> None:
        pairs = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(
            "  " + _parameter_line(k, p, True) for k, p in self._parameters.items()
        )


# ----------------------------------------------------------------- activations
class ReLU(Module):
    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors of size ``embedding_dim``
    (weight drawn from N(0, 1); the ``padding_idx`` row starts at zero and gets
    no gradient)."""

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if padding_idx > 0:
                assert padding_idx < num_embeddings, (
                    "Padding_idx must be within num_embeddings"
                )
            elif padding_idx < 0:
                assert padding_idx >= -num_embeddings, (
                    "Padding_idx must be within num_embeddings"
                )
                padding_idx = num_embeddings + padding_idx
        self.padding_idx, self.max_norm, self.norm_type = (
            padding_idx,
            max_norm,
            norm_type,
        )
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            weight = creation.empty(num_embeddings, embedding_dim, dtype=dtype)
            self.weight = Parameter(weight, requires_grad=not _freeze)
            init.normal_(self.weight)
            if padding_idx is not None:
                with grad_mode.no_grad():
                    self.weight[padding_idx].fill_(0)
        else:
            assert list(_weight.shape) == [num_embeddings, embedding_dim], (
                "Shape of weight does not match num_embeddings and embedding_dim"
            )
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def forward(self, input: Tensor) -> Tensor:
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        if self.max_norm is not None:
            s += f", max_norm={self.max_norm}"
        if self.norm_type != 2:
            s += f", norm_type={self.norm_type}"
        if self.scale_grad_by_freq:
            s += f", scale_grad_by_freq={self.scale_grad_by_freq}"
        if self.sparse:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding whose weight is ``embeddings`` (frozen by default)."""
        assert embeddings.dim() == 2, (
            "Embeddings parameter is expected to be 2-dimensional"
        )
        rows, cols = embeddings.shape
        return cls(
            rows,
            cols,
            padding_idx,
            max_norm,
            norm_type,
            scale_grad_by_freq,
            sparse,
            _weight=embeddings,
            _freeze=freeze,
        )


class LayerNorm(Module):
    """Normalizes over the last ``normalized_shape`` dims, then (if
    ``elementwise_affine``) scales by ``weight`` (ones) and shifts by ``bias``
    (zeros)."""

    def __init__(
        self,
        normalized_shape: Any,
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        _affine_parameters(self, self.normalized_shape, elementwise_affine, bias, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(
            input, self.normalized_shape, self.weight, self.bias, self.eps
        )

    def extra_repr(self) -> str:
        return (
            f"{self.normalized_shape}, eps={self.eps}, "
            f"elementwise_affine={self.elementwise_affine}, "
            f"bias={self.bias is not None}"
        )


class _InplaceActivation(Module):
    """An activation whose only option is ``inplace`` (SELU, ReLU6, SiLU, Mish)."""

    fn: Any  # the functional form, (input, inplace) -> Tensor

    def __init__(self, inplace: bool = False) -> None:
        super().__init__()
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return type(self).fn(input, inplace=self.inplace)

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class SELU(_InplaceActivation):
    fn = staticmethod(F.selu)


class ReLU6(_InplaceActivation):
    fn = staticmethod(F.relu6)


class SiLU(_InplaceActivation):
    fn = staticmethod(F.silu)


class Mish(_InplaceActivation):
    fn = staticmethod(F.mish)


class ELU(Module):
    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")


class CELU(ELU):
    def forward(self, input: Tensor) -> Tensor:
        return F.celu(input, self.alpha, self.inplace)


class Hardtanh(Module):
    def __init__(
        self, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False
    ) -> None:
        super().__init__()
        self.min_val, self.max_val, self.inplace = min_val, max_val, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.hardtanh(input, self.min_val, self.max_val, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"min_val={self.min_val}, max_val={self.max_val}{inplace}"


class LogSigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return F.logsigmoid(input)


class LeakyReLU(Module):
    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope, self.inplace = negative_slope, inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        inplace = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace}"


class GELU(Module):
    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class Softplus(Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return F.softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class Softmax(Module):
    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Softmax):
    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)


class Dropout(Module):
    """In training mode zeroes elements with probability ``p`` and scales the rest
    by 1/(1-p); in eval mode returns its input."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(
                f"dropout probability has to be between 0 and 1, but got {p}"
            )
        self.p = p
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"
