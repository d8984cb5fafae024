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
does); a Function's own vmap rule inside is still called with the whole
batch (``_Level``). Inputs and outputs are pytrees, structured as PyTorch's
``TreeSpec`` describes them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from . import engine, grad_mode
from ._tensor import Tensor
from .autograd.forward_ad import double_backward_jvp
from .autograd.function import VmapInfo, transform, vmap_level
from .autograd.functional import batch_size
from .creation import zeros_like
from .engine import grad as _grad
from .ops.join import stack


def _nums(argnums: Any) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


# ------------------------------------------------------------------ pytrees
class TreeSpec:
    """The structure of a pytree: tuples, lists, dicts and namedtuples of
    leaves (anything else is a leaf), printed as PyTorch's ``TreeSpec``."""

    def __init__(self, kind: type, context: Any, children: list[TreeSpec | None]):
        self.kind, self.context, self.children = kind, context, children

    @property
    def num_leaves(self) -> int:
        return sum(1 if c is None else c.num_leaves for c in self.children)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TreeSpec) and (
            (self.kind, self.context, self.children)
            == (other.kind, other.context, other.children)
        )

    def __repr__(self, indent: int = 0) -> str:
        name = "namedtuple" if _is_namedtuple(self.kind) else self.kind.__name__
        indent += 2
        kids = ["*" if c is None else c.__repr__(indent) for c in self.children]
        return (
            f"TreeSpec({name}, {self.context}, ["
            + (",\n" + " " * indent).join(kids)
            + "])"
        )


def _is_namedtuple(kind: type) -> bool:
    return issubclass(kind, tuple) and hasattr(kind, "_fields")


def _node(tree: Any) -> tuple[Any, list] | None:
    """``(context, children)`` of a pytree node, None for a leaf."""
    if isinstance(tree, dict):
        return list(tree), list(tree.values())
    if isinstance(tree, (tuple, list)):
        return (type(tree) if _is_namedtuple(type(tree)) else None), list(tree)
    return None


def _flatten(tree: Any) -> tuple[list, TreeSpec | None]:
    """The leaves of ``tree`` in order, and its structure (None: a leaf)."""
    node = _node(tree)
    if node is None:
        return [tree], None
    context, children = node
    leaves, specs = [], []
    for child in children:
        flat, spec = _flatten(child)
        leaves.extend(flat)
        specs.append(spec)
    return leaves, TreeSpec(type(tree), context, specs)


def _spec_repr(spec: TreeSpec | None) -> str:
    return "*" if spec is None else repr(spec)


def _unflatten(leaves: Any, spec: TreeSpec | None) -> Any:
    """The tree of structure ``spec`` whose leaves ``leaves`` (an iterator) yields."""
    if spec is None:
        return next(leaves)
    children = [_unflatten(leaves, c) for c in spec.children]
    if issubclass(spec.kind, dict):
        return spec.kind(zip(spec.context, children))
    if _is_namedtuple(spec.kind):
        return spec.kind(*children)
    return spec.kind(children)


def _broadcast(prefix: Any, spec: TreeSpec | None) -> list | None:
    """``prefix`` (in_dims, out_dims) spread over the leaves of ``spec``: a
    leaf of it stands for the whole subtree at its place; None if its
    structure is not a prefix of ``spec``'s."""
    node = _node(prefix)
    if node is None:
        return [prefix] * (1 if spec is None else spec.num_leaves)
    if spec is None or type(prefix) is not spec.kind:
        return None
    context, children = node
    if isinstance(prefix, dict):  # matched by key, in the tree's order
        if sorted(context, key=repr) != sorted(spec.context, key=repr):
            return None
        children = [prefix[k] for k in spec.context]
    elif len(children) != len(spec.children):
        return None
    out: list = []
    for child, sub in zip(children, spec.children):
        part = _broadcast(child, sub)
        if part is None:
            return None
        out.extend(part)
    return out


def _tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    leaves, spec = _flatten(tree)
    return _unflatten(iter([fn(x) for x in leaves]), spec)


def _leaves(tree: Any) -> list[Tensor]:
    """The tensors of a pytree (a tensor, or tuples/lists/dicts of them), in
    order: transforms take ``{name: parameter}`` dicts, as PyTorch's do."""
    return [x for x in _flatten(tree)[0] if isinstance(x, Tensor)]


def _rebuild(tree: Any, leaves: Any) -> Any:
    """``tree`` with its tensors replaced, in order, by those ``leaves`` yields."""
    return _tree_map(lambda x: next(leaves) if isinstance(x, Tensor) else x, tree)


def _requires_grad(args: Sequence[Any], nums: tuple[int, ...]) -> bool:
    return any(leaf.requires_grad for i in nums for leaf in _leaves(args[i]))


def _inputs(args: Sequence[Any], nums: tuple[int, ...]) -> tuple[list, list]:
    """The arguments with the tensors at ``nums`` (pytrees' too) replaced by
    tensors to differentiate: an alias when they already require grad
    (nesting), else a detached copy that requires grad."""
    args, xs = list(args), []
    for i in nums:
        leaves = _leaves(args[i])

        def make(leaves: list = leaves) -> list:
            return [
                a.view_as(a) if a.requires_grad else a.detach().requires_grad_()
                for a in leaves
            ]

        kind, level = vmap_level()
        fresh = level.same_in_every_run(make) if kind == "vmap" else make()
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
    by_id = {id(x): orig for x, orig in zip(xs, originals)}
    return _tree_map(lambda t: by_id.get(id(t), t), tree)


def _plain(t: Any, keep_graph: bool) -> Any:
    """``t`` (a tensor, or tuples/lists/dicts of them) without the graph the
    transform built, unless an input required grad."""
    if keep_graph:
        return t
    return _tree_map(lambda x: x.detach() if isinstance(x, Tensor) else x, t)


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
            columns, n = [], x.numel()
            for k in range(max(n, 1)):  # (an empty x: one pass, for out's shape)
                direction = zeros_like(x).reshape(-1)
                if k < n:
                    with grad_mode.no_grad():
                        direction[k] = 1.0
                tangents = [
                    direction.reshape(x.shape) if j == i else zeros_like(a)
                    for j, a in enumerate(args)
                ]
                out, column = jvp(func, args, tangents)
                columns.append(column)
            jac = stack(columns, -1)
            if n == 0:
                jac = jac.narrow(-1, 0, 0)
            jac = jac.reshape(*out.shape, *x.shape)
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
    """``func`` mapped over a batch dim of its inputs (pytrees of tensors;
    ``in_dims`` an int or a tuple shaped like the arguments, None for an
    unmapped one; keyword arguments are not mapped): run once per batch
    element (a view taken with ``select``, so gradients flow back) and the
    results' tensors stacked at ``out_dims``. A Function with its own ``vmap``
    rule applied inside is called once with the whole batch (see ``_Level``).
    (``chunk_size`` only splits PyTorch's batch: one element at a time here.)"""
    if randomness not in ("error", "different", "same"):
        raise RuntimeError(
            "Only allowed values for randomness are 'error', 'different', or "
            f"'same'. Got {randomness}"
        )
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError(
            f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})"
        )

    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        name = _name(func)
        _check_out_dims(out_dims, name)
        flat, spec, dims = _mapped_inputs(name, in_dims, args)
        size = batch_size([a.shape[d] for a, d in zip(flat, dims) if d is not None])
        level = _Level(size, randomness, flat, dims)
        results = level.run(
            lambda b: func(*_unflatten(iter(level.element_inputs(b)), spec), **kwargs)
        )
        return level.unmapped(name, results, out_dims)

    return wrapped


def _name(func: Callable) -> str:
    """How PyTorch's vmap messages name ``func``."""
    if hasattr(func, "__name__"):
        return func.__name__
    if isinstance(func, functools.partial):
        return f"functools.partial({_name(func.func)}, ...)"
    return repr(func)


def _check_out_dims(out_dims: Any, name: str) -> None:
    for d in _flatten(out_dims)[0]:
        if d is not None and not isinstance(d, int):
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, "
                "None or a python collection of ints representing where in the "
                "outputs the vmapped dimension should appear."
            )


def _mapped_inputs(name: str, in_dims: Any, args: tuple) -> tuple[list, Any, list]:
    """The arguments' leaves, their structure and each leaf's batch dim
    (None: not mapped), checked as PyTorch checks them."""
    where = f"vmap({name}, in_dims={in_dims}, ...)(<inputs>)"
    if not isinstance(in_dims, (int, tuple)):
        raise ValueError(
            f"{where}: expected `in_dims` to be int or a (potentially nested) tuple "
            f"matching the structure of inputs, got: {type(in_dims)}."
        )
    if not args:
        raise ValueError(
            f"vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, "
            "or you are trying to vmap over a function with no inputs. The latter "
            "is unsupported."
        )
    flat, spec = _flatten(args)
    dims = _broadcast(in_dims, spec)
    if dims is None:
        raise ValueError(
            f"{where}: in_dims is not compatible with the structure of `inputs`. "
            f"in_dims has structure {_spec_repr(_flatten(in_dims)[1])} but inputs "
            f"has structure {_spec_repr(spec)}."
        )
    for i, (a, d) in enumerate(zip(flat, dims)):
        if d is not None and not isinstance(d, int):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but in_dim must be either an "
                "integer dimension or None."
            )
        if d is not None and not isinstance(a, Tensor):
            raise ValueError(
                f"{where}: Got in_dim={d} for an input but the input is of type "
                f"{type(a)}. We cannot vmap over non-Tensor arguments, please use "
                "None as the respective in_dim"
            )
        if d is not None and not -a.dim() <= d < a.dim():
            raise ValueError(
                f"{where}: Got in_dim={d} for some input, but that input is a Tensor "
                f"of dimensionality {a.dim()} so expected in_dim to satisfy "
                f"-{a.dim()} <= in_dim < {a.dim()}."
            )
        if d is not None and d < 0:
            dims[i] = d % a.dim()
    return flat, spec, dims


class _Pause(BaseException):
    """One element's run stopping at a Function with its own vmap rule (a
    BaseException: a lesson's ``except Exception`` must not swallow it)."""

    def __init__(self, level: _Level) -> None:
        self.level = level


class _Level:
    """One ``vmap`` call: the batch, and how a Function's own ``vmap`` rule
    applied inside the mapped function sees the whole of it, as PyTorch's.

    The function runs once per element. At an element's k-th call of such a
    Function, the element stops (``_Pause``) and leaves that call's
    arguments; when every element has stopped, the rule is called once with
    the arguments batched (an unmapped input passed as it is, with in_dim
    None), and each element runs again from the start, its first k calls
    answered with its part of the rules' results. So the mapped function
    runs once more per such call; a Function applied inside a backward pass
    that an element runs gets that element as a batch of one.

    What is mapped is told by identity: a tensor that is the same object for
    every element (an unmapped input, a captured weight) is not. A batch of
    one also runs a ghost of its element (the same values, fresh views), so
    that the difference shows; what the ghost computes is dropped. An empty
    batch runs two ghosts on zeros of an element's shape, for the shapes.
    """

    def __init__(self, size: int, randomness: str, flat: list, dims: list) -> None:
        self.size, self.randomness = size, randomness
        self.flat, self.dims = flat, dims
        self.runs = max(size, 2)  # (with the ghost of a batch of one)
        self.answers: list[list] = [[] for _ in range(self.runs)]  # per run, per call
        self.inputs: list[list] = [[] for _ in range(self.runs)]  # its views
        self.pending: dict[int, tuple] = {}  # element -> the call it stopped at
        self.parts: dict[int, tuple] = {}  # id(a view of a batch) -> its origin
        self.made: list[list] = [[] for _ in range(self.runs)]  # per run, per call
        self.element = self.calls = self.makes = self.depth = 0

    def element_inputs(self, b: int) -> list:
        """Element ``b``'s leaves: mapped tensors as views of their batch (the
        same views in every run: a rule's answer from an earlier run hangs
        from them, so a gradient with respect to one reaches it)."""
        if self.inputs[b]:
            return self.inputs[b]
        i = min(b, self.size - 1)  # (the ghost is element 0 again)
        views = [
            a if d is None else _element(a, d, i) for a, d in zip(self.flat, self.dims)
        ]
        self.inputs[b] = views
        for j, (v, d) in enumerate(zip(views, self.dims)):
            if d is not None and b < self.size:
                self.parts[id(v)] = (v, self.flat[j], d, b)
        return views

    def run(self, call: Callable[[int], Any]) -> list:
        """Every element's result, running elements again after each rule call."""
        results: dict[int, Any] = {}
        todo = list(range(self.runs))
        while todo:
            self.pending = {}
            with transform("vmap", self):
                for b in todo:
                    self.element, self.calls, self.makes = b, 0, 0
                    self.depth = len(engine.running)
                    try:
                        results[b] = call(b)
                    except _Pause as pause:
                        if pause.level is not self:  # an outer vmap's turn
                            raise
            todo = sorted(self.pending)
            if todo:
                self._call_rules()
        return [results[b] for b in range(self.runs)]

    def same_in_every_run(self, make: Callable[[], list]) -> list:
        """What ``make()`` gave at this point of the element's first run: the
        inputs a grad transform inside the mapped function differentiates
        (a rule's answer from an earlier run hangs from them, so the gradient
        reaches it)."""
        k, self.makes = self.makes, self.makes + 1
        mine = self.made[self.element]
        if k == len(mine):
            mine.append(make())
        return mine[k]

    def rule_call(self, cls: type, args: tuple, kwargs: dict) -> Any:
        """``cls.apply(*args)`` in element ``self.element``'s run (``cls`` has
        its own vmap rule; autograd/function.py calls this)."""
        if len(engine.running) > self.depth:  # inside a backward this element runs
            return _batch_of_one(cls, self.randomness, args, kwargs)
        k, self.calls = self.calls, self.calls + 1
        mine = self.answers[self.element]
        if k < len(mine):
            return mine[k]
        self.pending[self.element] = (cls, args, kwargs, grad_mode.is_grad_enabled())
        raise _Pause(self)

    def _call_rules(self) -> None:
        """The rule of each stopped call, once for the elements that made it."""
        groups: list[list[int]] = []
        for b in sorted(self.pending):
            for group in groups:
                if _same_call(self.pending[group[0]], self.pending[b]):
                    group.append(b)
                    break
            else:
                groups.append([b])
        for group in groups:
            cls, args, kwargs, grad_enabled = self.pending[group[0]]
            in_dims, batched = [], []
            for i in range(len(args)):
                d, a = self._batched_arg([self.pending[b][1][i] for b in group], group)
                in_dims.append(d)
                batched.append(a)
            if all(d is None for d in in_dims):  # nothing mapped: PyTorch's
                with grad_mode.set_grad_enabled(grad_enabled):  # plain call
                    out = cls.apply(*batched, **kwargs)
                for b in group:
                    self.answers[b].append(out)
                continue
            real = [b for b in group if b < self.size] or group
            info = VmapInfo(len(real), self.randomness)
            with grad_mode.set_grad_enabled(grad_enabled):
                out, out_dims = cls.vmap(info, tuple(in_dims), *batched, **kwargs)
            flat, spec = _flatten(out)
            dims = _broadcast(out_dims, spec)
            if dims is None:
                raise RuntimeError(
                    "The autograd.Function's vmap staticmethod returned an "
                    "incompatible (output, out_dims) tuple. Expected "
                    f"out_dims={out_dims} to be compatible with the structure of "
                    "`output`. out_dims has "
                    f"structure {_spec_repr(_flatten(out_dims)[1])} but output has "
                    f"structure {_spec_repr(spec)}. For more details, please see "
                    "https://pytorch.org/docs/main/notes/extending.func.html"
                )
            for i, b in enumerate(group):
                i = min(i, len(real) - 1)  # (the ghost's part: element 0's)
                leaves = []
                for o, d in zip(flat, dims):
                    if isinstance(o, Tensor) and d is not None:
                        part = o.select(d, i)
                        if len(real) == self.size and b < self.size:
                            self.parts[id(part)] = (part, o, d % o.dim(), i)
                        o = part
                    leaves.append(o)
                self.answers[b].append(_unflatten(iter(leaves), spec))

    def _batched_arg(self, values: list, group: list[int]) -> tuple[int | None, Any]:
        """``(in_dim, argument)`` for the rule from each element's argument."""
        first = values[0]
        if not isinstance(first, Tensor) or all(v is first for v in values):
            return None, first  # the same for every element: not mapped
        real = [v for v, b in zip(values, group) if b < self.size] or values
        if len(real) == self.size:  # each element's own input: the batch itself
            for j, d in enumerate(self.dims):
                if d is not None and all(
                    v is self.inputs[b][j] for v, b in zip(values, group)
                ):
                    return d, self.flat[j]
        return 0, stack(real)

    def whole(self, leaves: list) -> tuple[Tensor, int] | None:
        """``(batch, its dim)`` if ``leaves`` are the elements of one batch, in
        order (an input, or a rule's output), so the batch itself is the result."""
        first = self.parts.get(id(leaves[0])) if leaves else None
        if first is None:
            return None
        for b, leaf in enumerate(leaves):
            part = self.parts.get(id(leaf))
            if (
                part is None
                or part[0] is not leaf
                or part[1] is not first[1]
                or part[3] != b
            ):
                return None
        return first[1], first[2]

    def unmapped(self, name: str, results: list, out_dims: Any) -> Any:
        """The elements' results as one, each tensor's batch at its out_dim."""
        flat_each = [_flatten(r) for r in results]
        spec = flat_each[0][1]
        if spec is None:  # one tensor: an out_dim, or PyTorch's 1-tuple of one
            single = isinstance(out_dims, tuple) and len(out_dims) == 1
            dims = [out_dims[0]] if single else [out_dims]
            ok = single or not isinstance(out_dims, (tuple, list, dict))
        else:
            dims = _broadcast(out_dims, spec)
            ok = dims is not None
        if not ok:
            raise ValueError(
                f"vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
                "compatible with the structure of `outputs`. out_dims has structure "
                f"{_spec_repr(_flatten(out_dims)[1])} but outputs has structure "
                f"{_spec_repr(spec)}."
            )
        leaves = []
        for k, d in enumerate(dims):
            leaves.append(self._unmapped_leaf(name, [f[0][k] for f in flat_each], d))
        return _unflatten(iter(leaves), spec)

    def _unmapped_leaf(self, name: str, runs: list, out_dim: int | None) -> Any:
        values, first = runs[: self.size], runs[0]  # (without the ghost's)
        whole = self.whole(values)
        same = all(v is first for v in runs)  # not mapped: the same every time
        if out_dim is None:
            if isinstance(first, Tensor) and not same:
                raise ValueError(
                    f"vmap({name}, ...): `{name}` can not return a BatchedTensor "
                    "when out_dim is None"
                )
            return first
        if not isinstance(first, Tensor):
            raise ValueError(
                f"vmap({name}, ...): `{name}` must only return Tensors, got type "
                f"{type(first)}. Did you mean to set out_dims= to None for output?"
            )
        n = first.dim() + 1  # the result's dims
        if not -n <= out_dim < n:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                f"but got {out_dim})"
            )
        if whole is not None:
            batch, d = whole
            target = out_dim % batch.dim()
            return batch if d == target else batch.movedim(d, target)
        if same:  # PyTorch expands it (with the batch size put at out_dim)
            shape = list(first.shape)
            shape.insert(out_dim % n, self.size)
            return first.expand(*shape)
        if not values:  # an empty batch: no element's result, only their shape
            return first.unsqueeze(out_dim).narrow(out_dim, 0, 0)
        return stack(values, out_dim)


def _element(batch: Tensor, dim: int, i: int) -> Tensor:
    """Element ``i`` of ``batch`` (a view, so gradients flow back); of an
    empty batch, zeros of an element's shape (PyTorch runs the function once
    on its empty batch, to learn the results' shapes), still hanging from the
    batch when it requires grad, so a backward reaches it (an empty gradient)."""
    if batch.shape[dim] > 0:
        return batch.select(dim, i)
    if batch.requires_grad:  # (the sum of no element: zeros, of a float dtype)
        return batch.sum(dim)
    shape = [n for k, n in enumerate(batch.shape) if k != dim]
    return batch.new_zeros(shape)


def _same_call(one: tuple, other: tuple) -> bool:
    """Two elements' calls the rule can take in one batch: the same Function
    with tensors at the same places and the same other arguments."""
    (cls, args, kwargs, grad), (cls2, args2, kwargs2, grad2) = one, other
    if cls is not cls2 or grad != grad2 or len(args) != len(args2):
        return False
    for a, b in zip(args, args2):
        if isinstance(a, Tensor) != isinstance(b, Tensor):
            return False
        if not isinstance(a, Tensor) and not (a is b or a == b):
            return False
    return kwargs.keys() == kwargs2.keys()


def _batch_of_one(cls: type, randomness: str, args: tuple, kwargs: dict) -> Any:
    """The rule for one element (every tensor argument batched at dim 0), and
    the element taken back out of what it returns along its out_dims."""
    batched = [a.unsqueeze(0) if isinstance(a, Tensor) else a for a in args]
    in_dims = tuple(0 if isinstance(a, Tensor) else None for a in args)
    with transform("vmap-rule"):  # the rule computes on the batch: nothing mapped
        out, out_dims = cls.vmap(VmapInfo(1, randomness), in_dims, *batched, **kwargs)
    flat, spec = _flatten(out)
    dims = _broadcast(out_dims, spec) or [None] * len(flat)
    leaves = [
        o if d is None or not isinstance(o, Tensor) else o.select(d, 0)
        for o, d in zip(flat, dims)
    ]
    return _unflatten(iter(leaves), spec)


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
