"""``minigrad.func``: PyTorch's function transforms (``grad``, ``vjp``, ``jvp``,
``jacrev``, ``jacfwd``, ``hessian``, ``vmap``), built on the one engine.

Each transform runs the function on fresh inputs that require grad and asks
``autograd.grad`` for what it needs, always with ``create_graph=True`` so that
transforms nest (``grad(grad(f))``). An input that already requires grad is
aliased instead of detached, so an outer transform (or your own backward) can
still differentiate through the result; results owe nothing to a graph unless
an input required grad. ``jvp`` uses the double backward trick of lesson 13,
and ``vmap`` runs the function once per batch element and stacks the results
(it does not refuse data-dependent control flow or random ops, as PyTorch's
does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import grad_mode
from ._tensor import Tensor
from .autograd.forward_ad import double_backward_jvp
from .autograd.function import Function, VmapInfo, transform
from .creation import zeros_like
from .engine import grad as _grad
from .ops.join import stack


def _nums(argnums: Any) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _leaves(tree: Any) -> list[Tensor]:
    """The tensors of a pytree (a tensor, or tuples/lists/dicts of them), in
    order: transforms take ``{name: parameter}`` dicts, as PyTorch's do."""
    if isinstance(tree, Tensor):
        return [tree]
    if isinstance(tree, (tuple, list)):
        return [leaf for t in tree for leaf in _leaves(t)]
    if isinstance(tree, dict):
        return [leaf for t in tree.values() for leaf in _leaves(t)]
    return []


def _rebuild(tree: Any, leaves: Any) -> Any:
    """``tree`` with its tensors replaced, in order, by those ``leaves`` yields."""
    if isinstance(tree, Tensor):
        return next(leaves)
    if isinstance(tree, (tuple, list)):
        return type(tree)(_rebuild(t, leaves) for t in tree)
    if isinstance(tree, dict):
        return {k: _rebuild(v, leaves) for k, v in tree.items()}
    return tree


def _requires_grad(args: Sequence[Any], nums: tuple[int, ...]) -> bool:
    return any(leaf.requires_grad for i in nums for leaf in _leaves(args[i]))


def _inputs(args: Sequence[Any], nums: tuple[int, ...]) -> tuple[list, list]:
    """The arguments with the tensors at ``nums`` (pytrees' too) replaced by
    tensors to differentiate: an alias when they already require grad
    (nesting), else a detached copy that requires grad."""
    args, xs = list(args), []
    for i in nums:
        fresh = [
            a.view_as(a) if a.requires_grad else a.detach().requires_grad_()
            for a in _leaves(args[i])
        ]
        args[i] = _rebuild(args[i], iter(fresh))
        xs.extend(fresh)
    return args, xs


def _regroup(args: Sequence[Any], nums: tuple[int, ...], flat: list) -> list:
    """One value per argument at ``nums``, shaped like that argument."""
    it = iter(flat)
    return [_rebuild(args[i], it) for i in nums]


def _unalias(tree: Any, xs: list, originals: list) -> Any:
    """An aux output that is one of the transform's inputs comes back as the
    caller's own tensor, as PyTorch unwraps it."""
    for x, orig in zip(xs, originals):
        if tree is x:
            return orig
    if isinstance(tree, (tuple, list)):
        return type(tree)(_unalias(t, xs, originals) for t in tree)
    if isinstance(tree, dict):
        return {k: _unalias(v, xs, originals) for k, v in tree.items()}
    return tree


def _plain(t: Any, keep_graph: bool) -> Any:
    """``t`` (a tensor, or tuples/lists/dicts of them) without the graph the
    transform built, unless an input required grad."""
    if keep_graph:
        return t
    if isinstance(t, Tensor):
        return t.detach()
    if isinstance(t, (tuple, list)):
        return type(t)(_plain(x, False) for x in t)
    if isinstance(t, dict):
        return {k: _plain(v, False) for k, v in t.items()}
    return t


def _grads(out: Tensor, xs: list, grad_out: Any = None) -> list[Tensor]:
    gs = _grad(out, xs, grad_out, create_graph=True, allow_unused=True)
    return [zeros_like(x) if g is None else g for x, g in zip(xs, gs)]


def _split_aux(result: Any, has_aux: bool, call: str) -> tuple[Any, Any]:
    """``(output, aux)`` of a transformed function (aux None without has_aux),
    with PyTorch's error when has_aux is set and the result is no pair."""
    if not has_aux:
        return result, None
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(
            f"{call}: output of function f should be a tuple: (output, aux) "
            "if has_aux is True"
        )
    return result


def grad_and_value(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """``(gradient, value)`` of a scalar-valued ``func`` (``((grad), (value,
    aux))`` with ``has_aux``)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        nums = _nums(argnums)
        keep = _requires_grad(args, nums)
        with grad_mode.enable_grad():
            new_args, xs = _inputs(args, nums)
            with transform("grad"):
                result = func(*new_args, **kwargs)
            out, aux = _split_aux(result, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(out, Tensor) or out.dim() != 0:
                dims = out.dim() if isinstance(out, Tensor) else "no"
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                    f"Tensor, got tensor with {dims} dims. Maybe you wanted to use "
                    "the vjp or jacrev APIs instead?"
                )
            gs = _regroup(args, nums, [_plain(g, keep) for g in _grads(out, xs)])
        g = gs[0] if isinstance(argnums, int) else tuple(gs)
        value = _plain(out, keep)
        if has_aux:
            originals = [leaf for i in nums for leaf in _leaves(args[i])]
            return g, (value, _unalias(_plain(aux, keep), xs, originals))
        return g, value

    return wrapper


def grad(func: Callable, argnums: Any = 0, has_aux: bool = False) -> Callable:
    """The gradient of a scalar-valued ``func`` (with ``has_aux``: ``(grad,
    aux)``)."""
    both = grad_and_value(func, argnums, has_aux)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g, value = both(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def vjp(func: Callable, *primals: Any, has_aux: bool = False) -> tuple:
    """``(func(*primals), vjp_fn)``: ``vjp_fn(v)`` gives ``vᵀ J`` for each primal
    (a primal may be a pytree, e.g. a parameter dict: its part is one too)."""
    nums = tuple(range(len(primals)))
    keep = _requires_grad(primals, nums)
    with grad_mode.enable_grad():
        args, xs = _inputs(primals, nums)
        with transform("vjp"):
            result = func(*args)
    out, aux = result if has_aux else (result, None)

    def vjp_fn(cotangent: Any) -> tuple:
        with grad_mode.enable_grad():
            gs = _grad(out, xs, cotangent, retain_graph=True, create_graph=True,
                       allow_unused=True)  # fmt: skip
        flat = [_plain(zeros_like(x) if g is None else g, keep) for x, g in zip(xs, gs)]
        return tuple(_regroup(primals, nums, flat))

    if has_aux:
        return _plain(out, keep), vjp_fn, _plain(aux, keep)
    return _plain(out, keep), vjp_fn


def jvp(func: Callable, primals: Sequence[Any], tangents: Sequence[Any]) -> tuple:
    """``(func(*primals), J·tangents)``, by the double backward trick: ``Jᵀ g``
    is linear in ``g``, so its derivative along the tangents is ``J t``.
    (Primals and tangents may be pytrees of the same structure.)"""
    nums = tuple(range(len(primals)))
    keep = _requires_grad(primals, nums)
    with grad_mode.enable_grad():
        args, xs = _inputs(primals, nums)
        with transform("jvp"):
            out = func(*args)
        flat_t = [t for tree in tangents for t in _leaves(tree)]
        jt = double_backward_jvp(out, xs, flat_t, create_graph=True)
    return _plain(out, keep), _plain(jt, keep)


def jacrev(
    func: Callable,
    argnums: Any = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
) -> Callable:
    """The Jacobian, one backward pass per output element (reverse mode); with
    ``has_aux``, ``func`` returns ``(output, aux)`` and this ``(jacobian,
    aux)``. (``chunk_size`` only batches PyTorch's vmap: one row at a time here.)"""

    def wrapper(*args: Any) -> Any:
        nums = _nums(argnums)
        keep = _requires_grad(args, nums)
        with grad_mode.enable_grad():
            new_args, xs = _inputs(args, nums)
            with transform("jacrev"):
                out = func(*new_args)
            out, aux = _split_aux(out, has_aux, "jacrev(f, ...)(*args)")
            rows: list[list] = [[] for _ in xs]
            flat = out.reshape(-1)
            for k in range(flat.numel()):
                for r, g in zip(rows, _grads(flat[k], xs)):
                    r.append(g)
        jacs = [
            _plain(stack(r, 0).reshape(*out.shape, *x.shape), keep)
            if r
            else zeros_like(x).reshape(*out.shape, *x.shape)
            for r, x in zip(rows, xs)
        ]
        jacs = _regroup(args, nums, jacs)  # a dict argument gets a dict of them
        jac = jacs[0] if isinstance(argnums, int) else tuple(jacs)
        if has_aux:
            originals = [leaf for i in nums for leaf in _leaves(args[i])]
            return jac, _unalias(_plain(aux, keep), xs, originals)
        return jac

    return wrapper


def jacfwd(func: Callable, argnums: Any = 0) -> Callable:
    """The Jacobian, one forward-mode pass (``jvp``) per input element."""

    def wrapper(*args: Any) -> Any:
        nums = _nums(argnums)
        jacs = []
        for i in nums:
            x = args[i]
            columns = []
            for k in range(max(x.numel(), 1)):
                direction = zeros_like(x).reshape(-1)
                with grad_mode.no_grad():
                    direction[k] = 1.0
                tangents = [
                    direction.reshape(x.shape) if j == i else zeros_like(a)
                    for j, a in enumerate(args)
                ]
                out, column = jvp(func, args, tangents)
                columns.append(column)
            jac = stack(columns, -1).reshape(*out.shape, *x.shape)
            jacs.append(jac)
        return jacs[0] if isinstance(argnums, int) else tuple(jacs)

    return wrapper


def hessian(func: Callable, argnums: Any = 0) -> Callable:
    """Second derivatives of a scalar ``func``: ``jacfwd(jacrev(func))``."""
    return jacfwd(jacrev(func, argnums), argnums)


def vmap(
    func: Callable,
    in_dims: Any = 0,
    out_dims: Any = 0,
    randomness: str = "error",
    *,
    chunk_size: int | None = None,
) -> Callable:
    """``func`` mapped over a batch dim: run once per batch element (a view
    taken with ``select``, so gradients flow back) and the results stacked."""

    def wrapper(*args: Any) -> Any:
        dims = in_dims if isinstance(in_dims, (tuple, list)) else [in_dims] * len(args)
        if len(dims) != len(args):
            raise ValueError(
                f"vmap(func, in_dims={tuple(in_dims)})(<inputs>): in_dims is not "
                f"compatible with the structure of `inputs`. in_dims has structure "
                f"of length {len(dims)} but inputs has length {len(args)}."
            )
        sizes = [a.shape[d] for a, d in zip(args, dims) if d is not None]
        if not sizes:
            raise ValueError(
                "vmap(func, in_dims=...)(<inputs>): at least one input must be "
                "mapped over (got in_dims with all None)"
            )
        if len(set(sizes)) != 1:
            raise ValueError(
                "vmap: Expected all tensors to have the same size in the mapped "
                f"dimension, got sizes {sizes} for the mapped dimension"
            )
        if _has_own_vmap_rule(func):
            return _whole_batch(func, args, dims, sizes[0], out_dims, randomness)
        # a Function applied inside is checked (and its vmap rule used) as
        # PyTorch does under vmap
        with transform("vmap", VmapInfo(sizes[0], randomness)):
            results = [
                func(*(a if d is None else a.select(d, b) for a, d in zip(args, dims)))
                for b in range(sizes[0])
            ]
        return _stack_tree(results, out_dims)

    return wrapper


def _has_own_vmap_rule(func: Callable) -> bool:
    """``vmap(MyFunction.apply)`` of a Function with its own ``vmap`` rule."""
    cls = getattr(func, "__self__", None)
    return (
        getattr(func, "__name__", None) == "apply"
        and isinstance(cls, type)
        and issubclass(cls, Function)
        and cls.setup_context is not Function.setup_context
        and cls.vmap is not Function.vmap
        and not cls.generate_vmap_rule
    )


def _whole_batch(
    func: Callable, args: tuple, dims: Any, size: int, out_dims: Any, randomness: str
) -> Any:
    """The rule called once with the whole batch, its size and each input's
    batch dim (None for an unmapped one), as PyTorch calls it; its results'
    batch dims are moved to ``out_dims`` (a result it says is unbatched,
    ``None``, is the same for every element)."""
    in_dims = tuple(
        None if d is None or not isinstance(a, Tensor) else d % a.dim()
        for a, d in zip(args, dims)
    )
    out, rule_dims = func.__self__.vmap(VmapInfo(size, randomness), in_dims, *args)

    def place(o: Any, od: Any, target: Any) -> Any:
        if not isinstance(o, Tensor):
            return o
        if od is None:  # the same value for the whole batch
            o, od = o.unsqueeze(0).expand(size, *o.shape), 0
        same = od % o.dim() == target % o.dim()
        return o if same else o.movedim(od, target)  # (a permute only if moved)

    if isinstance(out, tuple):
        rule_dims = (
            rule_dims if isinstance(rule_dims, tuple) else (rule_dims,) * len(out)
        )
        targets = (
            out_dims if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(out)
        )
        return tuple(place(o, d, t) for o, d, t in zip(out, rule_dims, targets))
    return place(out, rule_dims, out_dims)


def _stack_tree(results: list, out_dims: Any) -> Any:
    """The per-element results stacked leaf by leaf (a tensor, a tuple with
    one out_dim per element, or a dict such as ``grad`` of a parameter dict)."""
    first = results[0]
    if isinstance(first, tuple):
        outs = (
            out_dims if isinstance(out_dims, (tuple, list)) else [out_dims] * len(first)
        )
        return tuple(
            _stack_tree([r[k] for r in results], d) for k, d in enumerate(outs)
        )
    if isinstance(first, dict):
        return {k: _stack_tree([r[k] for r in results], out_dims) for k in first}
    return stack(results, out_dims)


def functional_call(
    module: Any,
    parameter_and_buffer_dicts: Any,
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Call ``module`` with some of its parameters and buffers replaced by the
    tensors given by name (``{"0.weight": w}``, or a tuple of such dicts); the
    module's own are back in place afterwards. ``tie_weights``: a tensor given
    for one of several names sharing a parameter is used for all of them;
    ``strict``: every parameter and buffer must be given, and nothing else."""
    given = _merged(parameter_and_buffer_dicts)
    if tie_weights:
        given = _with_tied(module, given)
    if strict:
        _check_strict(module, given)
    swapped = []  # (registry or module, name, old value or a marker)
    try:
        for name, value in given.items():
            owner_path, _, leaf = name.rpartition(".")
            owner = module.get_submodule(owner_path)
            for registry in (owner._parameters, owner._buffers):
                if leaf in registry:
                    swapped.append((registry, leaf, registry[leaf]))
                    registry[leaf] = value
                    break
            else:  # a name the module lacks (strict=False): a plain attribute
                swapped.append((owner, leaf, _ABSENT))
                object.__setattr__(owner, leaf, value)
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        return module(*args, **(kwargs or {}))
    finally:
        for where, name, old in reversed(swapped):
            if old is _ABSENT:
                object.__delattr__(where, name)
            else:
                where[name] = old


_ABSENT = object()


def _merged(dicts: Any) -> dict[str, Any]:
    if isinstance(dicts, dict):
        return dict(dicts)
    if not all(isinstance(d, dict) for d in dicts):
        raise ValueError(
            "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
        )
    merged: dict[str, Any] = {}
    repeated = []
    for d in dicts:
        for name, value in d.items():
            if name in merged:
                repeated.append(name)
            merged[name] = value
    if repeated:
        raise ValueError(
            f"{sorted(set(repeated))} appeared in multiple dictionaries; behavior of "
            "functional call is ambiguous"
        )
    return merged


def _names(module: Any) -> list[tuple[str, Any]]:
    """Every parameter and buffer name with its tensor, a shared one under
    each of its names."""
    return [
        *module.named_parameters(remove_duplicate=False),
        *module.named_buffers(remove_duplicate=False),
    ]


def _with_tied(module: Any, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` with a tensor for one name of a shared parameter given for
    all its names (PyTorch refuses two different tensors for one of them)."""
    groups: dict[int, list[str]] = {}
    for name, t in _names(module):
        groups.setdefault(id(t), []).append(name)
    out = dict(given)
    for names in groups.values():
        keys = [n for n in names if n in given]
        if len(names) < 2 or not keys:
            continue
        if any(given[k] is not given[keys[0]] for k in keys):
            raise ValueError(
                f"functional_call got multiple values for keys {keys}, which are "
                "tied. Consider using tie_weights=False"
            )
        for n in names:
            out[n] = given[keys[0]]
    return out


def _check_strict(module: Any, given: dict[str, Any]) -> None:
    names = [n for n, _ in _names(module)]
    missing = sorted(set(names) - set(given))
    unexpected = sorted(set(given) - set(names))
    if missing or unexpected:
        lines = [f"Error(s) in reparametrizing for {module._get_name()}:"]
        if unexpected:
            lines.append(
                "Unexpected key(s): " + ", ".join(f"'{n}'" for n in unexpected) + "."
            )
        if missing:
            lines.append(
                "Missing key(s): " + ", ".join(f"'{n}'" for n in missing) + "."
            )
        raise RuntimeError("\n\t".join(lines))


__all__ = [
    "functional_call",
    "grad",
    "grad_and_value",
    "hessian",
    "jacfwd",
    "jacrev",
    "jvp",
    "vjp",
    "vmap",
]
