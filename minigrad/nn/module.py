"""``Module``: the base class of layers and models (PyTorch's ``nn.Module``).

Assigning a ``Parameter`` or a ``Module`` as an attribute registers it, so
``parameters()``, ``state_dict()`` and ``repr()`` find it, in assignment order,
with dotted names for nested modules (``0.weight``, ``encoder.fc.bias``).
"""

from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .. import _device, _dtype, grad_mode
from .._tensor import Tensor
from ..utils.hooks import RemovableHandle
from ._hooks import BackwardHook, attach_non_full_hooks
from .parameter import Parameter

_HOOK_DICTS = (
    "_forward_pre_hooks",
    "_forward_hooks",
    "_backward_hooks",
    "_backward_pre_hooks",
    "_old_backward_hooks",
)


def _add_hook(hooks: OrderedDict, hook: Callable, prepend: bool) -> Any:
    handle = RemovableHandle.add(hooks, hook)
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def typename(obj: Any) -> str:
    """PyTorch's ``torch.typename`` with ``minigrad``: ``minigrad.FloatTensor``."""
    if isinstance(obj, Tensor):
        return f"minigrad.{obj.dtype._legacy}"
    cls = type(obj)
    module = cls.__module__
    if module in ("builtins", None):
        return cls.__qualname__
    return f"{module}.{cls.__qualname__}"


def _addindent(s: str, n: int) -> str:
    """Indent every line but the first (how nested module reprs are laid out)."""
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    rest = [(n * " ") + line if line.strip() else "" for line in lines[1:]]
    return "\n".join([lines[0], *rest])


class _IncompatibleKeys(
    namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def zero_grads(params: Iterable[Tensor], set_to_none: bool) -> None:
    """``zero_grad`` of a Module and of an Optimizer: forget each gradient, or
    zero it in place (detached from any graph of it)."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            if p.grad.grad_fn is not None:
                p.grad.detach_()
            else:
                p.grad.requires_grad_(False)
            p.grad.zero_()


class Module:
    """Base class of all layers and models: subclass it, create parameters and
    submodules in ``__init__`` and compute in ``forward``; call the module to run
    ``forward``."""

    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _modules: dict[str, Module | None]

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        for name in _HOOK_DICTS:
            object.__setattr__(self, name, OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            f'Module [{type(self).__name__}] is missing the required "forward" function'
        )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        d = self.__dict__
        if not any(d.get(name) for name in _HOOK_DICTS):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args: tuple, kwargs: dict) -> Any:
        """Forward pre-hooks, the module's inputs wrapped for full backward
        hooks, forward, forward hooks, the outputs wrapped (PyTorch's order)."""
        for hook in list(self._forward_pre_hooks.values()):
            res = hook(self, args)
            if res is not None:
                args = res if isinstance(res, tuple) else (res,)
        full = list(self._backward_hooks.values())
        pre = list(self._backward_pre_hooks.values())
        hook_fn = BackwardHook(self, full, pre) if full or pre else None
        if hook_fn is not None:
            args = hook_fn.setup_input_hook(args)
        result = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks.values()):
            res = hook(self, args, result)
            if res is not None:
                result = res
        if hook_fn is not None:
            result = hook_fn.setup_output_hook(result)
        old = list(self._old_backward_hooks.values())
        if old:
            attach_non_full_hooks(self, args, result, old)
        return result

    def register_forward_pre_hook(
        self, hook: Callable, *, prepend: bool = False
    ) -> Any:
        """``hook(module, args)`` runs before forward; it may return new args."""
        return _add_hook(self._forward_pre_hooks, hook, prepend)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False) -> Any:
        """``hook(module, args, output)`` runs after forward; it may return a
        new output."""
        return _add_hook(self._forward_hooks, hook, prepend)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> Any:
        """``hook(module, grad_input, grad_output)`` runs when the gradients of
        the module's inputs are known; it may return new grad_input."""
        return _add_hook(self._backward_hooks, hook, prepend)

    def register_full_backward_pre_hook(
        self, hook: Callable, prepend: bool = False
    ) -> Any:
        """``hook(module, grad_output)`` runs when the gradients of the module's
        outputs arrive; it may return new grad_output."""
        return _add_hook(self._backward_pre_hooks, hook, prepend)

    def register_backward_hook(self, hook: Callable) -> Any:
        """Deprecated in PyTorch: ``hook(module, grad_input, grad_output)`` on
        the output's grad_fn (its own inputs, not necessarily the module's)."""
        return _add_hook(self._old_backward_hooks, hook, False)

    # ----------------------------------------------------------- registration
    def register_parameter(self, name: str, param: Parameter | None) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError(
                "cannot assign parameter before Module.__init__() call"
            )
        self._check_name(name, "parameter")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(
                f"cannot assign '{typename(param)}' object to parameter '{name}' "
                "(minigrad.nn.Parameter or None required)"
            )
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' as a "
                "function of another Tensor, compute the value in the forward() "
                "method."
            )
        self._parameters[name] = param

    def register_buffer(
        self, name: str, tensor: Tensor | None, persistent: bool = True
    ) -> None:
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(
                f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                "(minigrad Tensor or None required)"
            )
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name: Any, kind: str) -> None:
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {typename(name)}")
        if "." in name:  # (only add_module's message names it, as in PyTorch)
            got = f", got: {name}" if kind == "module" else ""
            raise KeyError(f'{kind} name can\'t contain "."{got}')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in self.__dict__[f"_{kind}s"]:
            raise KeyError(f"attribute '{name}' already exists")

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError(
                    "cannot assign parameters before Module.__init__() call"
                )
            self._forget(name, keep="_parameters")
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as parameter '{name}' "
                    "(minigrad.nn.Parameter or None expected)"
                )
            params[name] = None
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError(
                    "cannot assign module before Module.__init__() call"
                )
            self._forget(name, keep="_modules")
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{typename(value)}' as child module '{name}' "
                    "(minigrad.nn.Module or None expected)"
                )
            modules[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(
                    f"cannot assign '{typename(value)}' as buffer '{name}' "
                    "(minigrad.Tensor or None expected)"
                )
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def _forget(self, name: str, keep: str) -> None:
        """Drop ``name`` from wherever it was registered before being reassigned,
        except the registry ``keep`` it goes into: there it keeps its place, so
        ``model.fc1 = nn.Linear(...)`` or ``seq[0] = ...`` does not move the
        module to the end (a Sequential would run it last)."""
        self.__dict__.pop(name, None)
        for key in ("_parameters", "_buffers", "_modules"):
            if key != keep:
                self.__dict__[key].pop(name, None)
        self._non_persistent_buffers_set.discard(name)

    def __getattr__(self, name: str) -> Any:
        # only called when normal lookup fails: registered things live in dicts
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            registry = d.get(key)
            if registry is not None and name in registry:
                return registry[name]
        raise AttributeError(
            f"'{type(self).__name__}' object has no attribute '{name}'"
        )

    def __delattr__(self, name: str) -> None:
        for key in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(key, {}):
                del self.__dict__[key][name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self) -> list[str]:
        keys = set(super().__dir__())
        for key in ("_parameters", "_buffers", "_modules"):
            keys.update(self.__dict__.get(key, {}))
        return sorted(keys)

    # ----------------------------------------------------------------- walking
    def named_modules(
        self,
        memo: set | None = None,
        prefix: str = "",
        remove_duplicate: bool = True,
    ) -> Iterator[tuple[str, Module]]:
        """This module, then its submodules depth-first, with dotted names."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(
        self, kind: str, prefix: str, recurse: bool, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Any]]:
        seen = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        for module_prefix, module in modules:
            for name, value in module.__dict__[kind].items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                if remove_duplicate:
                    seen.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        """``(dotted name, parameter)`` pairs, each parameter once."""
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_submodule(self, target: str) -> Module:
        module = self
        for item in target.split(".") if target else []:
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule (children first), then on this one."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------------ state
    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients of all parameters (or zero them in place)."""
        zero_grads(self.parameters(), set_to_none)

    def _apply(self, fn: Callable[[Any], Any]) -> Module:
        """Convert every parameter, its grad and every buffer in place (keeping
        the Parameter objects, so an optimizer made earlier still sees them)."""
        for module in self.modules():
            for p in module._parameters.values():
                if p is None:
                    continue
                p._data = fn(p._data)
                if p._grad is not None:
                    p._grad._data = fn(p._grad._data)
            for name, b in module._buffers.items():
                if b is not None:
                    module._buffers[name] = Tensor._make(fn(b._data), False)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(dtype)`` converts floating parameters and buffers; the CPU as a
        device is accepted, another is refused as a CPU-only PyTorch does."""
        dtype = kwargs.get("dtype")
        _device.check(kwargs.get("device"))
        for a in args:
            if isinstance(a, _dtype.dtype):
                dtype = a
            elif isinstance(a, (str, _device.device)):
                _device.check(a)
        if dtype is None:
            return self
        return self._apply(lambda a: a.astype(dtype.np) if a.dtype.kind == "f" else a)

    def double(self) -> Module:
        return self.to(_dtype.float64)

    def float(self) -> Module:
        return self.to(_dtype.float32)

    def cpu(self) -> Module:
        return self

    def cuda(self, device: Any = None) -> Module:
        raise AssertionError("Torch not compiled with CUDA enabled")

    def state_dict(
        self, destination: Any = None, prefix: str = "", keep_vars: bool = False
    ) -> OrderedDict:
        """Parameters and persistent buffers by dotted name (detached tensors that
        share memory with the module's, unless ``keep_vars``)."""
        out = OrderedDict() if destination is None else destination
        for module_prefix, module in self.named_modules(prefix=prefix):
            dot = module_prefix + ("." if module_prefix else "")
            for name, p in module._parameters.items():
                if p is not None:
                    out[dot + name] = p if keep_vars else p.detach()
            for name, b in module._buffers.items():
                if b is not None and name not in module._non_persistent_buffers_set:
                    out[dot + name] = b if keep_vars else b.detach()
        return out

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ) -> _IncompatibleKeys:
        """Copy values into the parameters and buffers of the same names."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(
                f"Expected state_dict to be dict-like, got {type(state_dict)}."
            )
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors: list[str] = []
        with grad_mode.no_grad():
            for key, mine in own.items():
                if key not in state_dict:
                    continue
                value = state_dict[key]
                if not isinstance(value, Tensor):
                    errors.append(
                        f'While copying the parameter named "{key}", expected '
                        "minigrad.Tensor or Tensor-like object from checkpoint but "
                        f"received {type(value)}"
                    )
                    continue
                if value.shape != mine.shape:
                    errors.append(
                        f"size mismatch for {key}: copying a param with shape "
                        f"{value.shape} from checkpoint, the shape in current model "
                        f"is {mine.shape}."
                    )
                    continue
                if assign:
                    mine._data = value._data
                else:
                    mine.copy_(value)
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected)
                    ),
                )
            if missing:
                errors.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing)
                    ),
                )
        if errors:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(errors)
                )
            )
        return _IncompatibleKeys(missing, unexpected)

    # ------------------------------------------------------------------- repr
    def extra_repr(self) -> str:
        """The text inside the parentheses of this module's repr (override it)."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({key}): " + _addindent(repr(module), 2)
            for key, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"
