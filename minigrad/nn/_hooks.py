"""Module backward hooks, the way PyTorch wires them.

``register_full_backward_hook``: the module's tensor inputs and outputs pass
through an identity ``BackwardHookFunction`` (so the graph shows
BackwardHookFunctionBackward nodes around the module). A pre-hook on the output
node catches the gradients of the outputs; a hook on the input node then calls
the user's hooks with (module, grad_input, grad_output), and may replace
grad_input. ``register_backward_hook`` (deprecated) hooks the output's grad_fn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._tensor import Tensor
from .._warn import warn
from ..autograd.function import Function
from ..grad_mode import is_grad_enabled


class BackwardHookFunction(Function):
    """The identity; its node is where module backward hooks attach."""

    @staticmethod
    def forward(ctx: Any, *args: Tensor) -> tuple:
        ctx.mark_non_differentiable(*[a for a in args if not a.requires_grad])
        return args

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> tuple:
        return grads


class BackwardHook:
    """One module call's full backward hooks (PyTorch's torch.utils.hooks)."""

    def __init__(self, module: Any, hooks: list, pre_hooks: list) -> None:
        self.module, self.hooks, self.pre_hooks = module, hooks, pre_hooks
        self.grad_outputs: tuple | None = None
        self.n_inputs = self.n_outputs = -1
        self.input_index: list[int] | None = None
        self.output_index: list[int] | None = None

    @staticmethod
    def _pack(indices: list[int], values: Any, size: int) -> tuple:
        out: list[Any] = [None] * size
        for i, v in zip(indices, values):
            out[i] = v
        return tuple(out)

    def _wrap(self, args: tuple, attach: Callable) -> tuple:
        """Pass the tensors of ``args`` through BackwardHookFunction and hand
        its node to ``attach``; returns (args, their tensor positions)."""
        index = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not (any(args[i].requires_grad for i in index) and is_grad_enabled()):
            return args, None
        new = BackwardHookFunction.apply(*[args[i] for i in index])
        nodes = [t.grad_fn for t in new if t.grad_fn is not None]
        attach(nodes[0])
        out = list(args)
        for i, t in zip(index, new):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args: tuple) -> tuple:
        def attach(node: Any) -> None:
            def hook(grad_inputs: tuple, _: tuple) -> Any:
                if self.grad_outputs is None:  # reached without the outputs
                    return None
                res = self._pack(self.input_index, grad_inputs, self.n_inputs)
                for user_hook in self.hooks:
                    out = user_hook(self.module, res, self.grad_outputs)
                    if out is None:
                        continue
                    if len(out) != len(res):
                        raise RuntimeError(
                            "Backward hook returned an invalid number of "
                            f"grad_input, got {len(out)}, but expected {len(res)}"
                        )
                    res = out
                self.grad_outputs = None
                return tuple(res[i] for i in self.input_index)

            node.register_hook(hook)

        res, self.input_index = self._wrap(args, attach)
        self.n_inputs = len(args)
        return res

    def setup_output_hook(self, result: Any) -> Any:
        def attach(node: Any) -> None:
            def hook(grad_outputs: tuple) -> Any:
                self.grad_outputs = self._pack(
                    self.output_index, grad_outputs, self.n_outputs
                )
                for pre_hook in self.pre_hooks:
                    new = pre_hook(self.module, self.grad_outputs)
                    if new is None:
                        continue
                    if len(new) != len(self.grad_outputs):
                        raise RuntimeError(
                            "Backward pre hook returned an invalid number of "
                            f"grad_output, got {len(new)}, but expected "
                            f"{len(self.grad_outputs)}"
                        )
                    self.grad_outputs = new
                local = self.grad_outputs
                if self.input_index is None:  # no input requires grad
                    warn(
                        "Full backward hook is firing when gradients are computed "
                        "with respect to module outputs since no inputs require "
                        "gradients. See https://docs.pytorch.org/docs/main/"
                        "generated/torch.nn.Module.html#torch.nn.Module."
                        "register_full_backward_hook for more details."
                    )
                    grad_inputs = (None,) * self.n_inputs
                    for user_hook in self.hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not all(r is None for r in res):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires "
                                "gradient should always return None or None for "
                                "all gradients."
                            )
                    self.grad_outputs = None
                return tuple(local[i] for i in self.output_index)

            node.register_prehook(hook)

        single = not isinstance(result, tuple)
        res, self.output_index = self._wrap((result,) if single else result, attach)
        self.n_outputs = 1 if single else len(result)
        return res[0] if single else res


def attach_non_full_hooks(module: Any, args: tuple, result: Any, hooks: list) -> None:
    """The deprecated ``register_backward_hook``: the hooks see the grad_fn of
    the output (its grad_inputs and grad_outputs), not the module's."""
    var = result
    while not isinstance(var, Tensor):
        var = next(iter(var.values())) if isinstance(var, dict) else var[0]
    node = var.grad_fn
    if node is None:
        return
    outs = result if isinstance(result, tuple) else (result,)
    out_nodes = {r.grad_fn for r in outs if isinstance(r, Tensor) and r.grad_fn}
    in_nodes = {a.grad_fn for a in args if isinstance(a, Tensor) and a.grad_fn}
    if len(out_nodes) == 1 and in_nodes != {n for n, _ in node.next_functions}:
        warn(
            "Using a non-full backward hook when the forward contains multiple "
            "autograd Nodes is deprecated and will be removed in future versions. "
            "This hook will be missing some grad_input. Please use "
            "register_full_backward_hook to get the documented behavior.",
            FutureWarning,
        )
    for user_hook in hooks:
        node.register_hook(
            lambda gi, go, h=user_hook: h(module, gi, go)  # (module first)
        )
