"""``minigrad.optim.lbfgs``: L-BFGS, with an optional strong-Wolfe line search."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import grad_mode
from .._tensor import Tensor
from ..ops.join import cat
from .optimizer import Optimizer, ParamsT, _check_lr, _to_scalar, _value

__all__ = ["LBFGS"]


class LBFGS(Optimizer):
    """Limited-memory BFGS over all parameters as one flat vector: each ``step``
    runs up to ``max_iter`` iterations, each a quasi-Newton direction from the
    last ``history_size`` curvature pairs (s, y) by the two-loop recursion and a
    step along it, fixed (``lr``; on the very first iteration
    ``lr · min(1, 1/‖g‖₁)``) or found by a strong-Wolfe line search. ``step``
    needs a closure that zeroes the gradients, recomputes the loss, calls
    ``backward`` and returns the loss. Only one parameter group is allowed; the
    whole state lives under the first parameter, as in PyTorch."""

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ) -> None:
        _check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {
            "lr": lr,
            "max_iter": max_iter,
            "max_eval": max_eval,
            "tolerance_grad": tolerance_grad,
            "tolerance_change": tolerance_change,
            "history_size": history_size,
            "line_search_fn": line_search_fn,
        }
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError(
                "LBFGS doesn't support per-parameter options (parameter groups)"
            )
        self._params: list[Tensor] = self.param_groups[0]["params"]

    def _flat_grad(self) -> Tensor:
        """Every parameter's gradient in one vector (zeros for a missing one)."""
        return cat(
            [
                p.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1)
                for p in self._params
            ],
            0,
        )

    def _add_grad(self, step_size: Any, update: Tensor) -> None:
        """``p += step_size · update`` for the slice of ``update`` of each ``p``."""
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(update[offset : offset + n].view_as(p), alpha=_value(step_size))
            offset += n

    def _directional_evaluate(
        self, closure: Callable[[], Any], x: list[Tensor], t: Any, d: Tensor
    ) -> tuple[float, Tensor]:
        """The loss and gradient at ``x + t·d``; the parameters go back to ``x``."""
        self._add_grad(t, d)
        loss = _as_float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    @grad_mode.no_grad()
    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        """Up to ``max_iter`` L-BFGS iterations; returns the closure's first loss."""
        closure = grad_mode.enable_grad()(closure)
        group = self.param_groups[0]
        lr = _to_scalar(group["lr"])  # (a tensor lr makes the step t a tensor)
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad = group["tolerance_grad"]
        tolerance_change = group["tolerance_change"]
        line_search_fn = group["line_search_fn"]
        history_size = group["history_size"]

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = closure()
        loss = _as_float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:  # already optimal
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = (
            state.get("old_dirs"),
            state.get("old_stps"),
            state.get("ro"),
        )
        H_diag = state.get("H_diag")  # noqa: N806 - the paper's name
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1  # noqa: N806
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:  # keep the pair only if the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)  # noqa: N806
                # the two-loop recursion: d = -H·g
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]
                q = flat_grad.neg()
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-_value(al[i]))
                d = r = q * H_diag
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=_value(al[i] - be_i))

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            if state["n_iter"] == 1:
                t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr
            else:
                t = lr
            gtd = flat_grad.dot(d)  # the directional derivative
            if gtd > -tolerance_change:
                break

            ls_func_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p.clone() for p in self._params]

                def obj_func(
                    x: list[Tensor], t: Any, d: Tensor
                ) -> tuple[float, Tensor]:
                    return self._directional_evaluate(closure, x, t, d)

                loss, flat_grad, t, ls_func_evals = _strong_wolfe(
                    obj_func, x_init, t, d, loss, flat_grad, gtd,
                    max_ls=max_eval - current_evals,
                )  # fmt: skip
                self._add_grad(t, d)
                opt_cond = flat_grad.abs().max() <= tolerance_grad
            else:
                self._add_grad(t, d)
                if n_iter != max_iter:  # (the last iteration's loss is not needed)
                    loss = _as_float(closure())
                    flat_grad = self._flat_grad()
                    opt_cond = flat_grad.abs().max() <= tolerance_grad
                    ls_func_evals = 1
            current_evals += ls_func_evals
            state["func_evals"] += ls_func_evals

            if n_iter == max_iter or current_evals >= max_eval:
                break
            if opt_cond:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break

        state["d"], state["t"] = d, t
        state["old_dirs"], state["old_stps"], state["ro"] = old_dirs, old_stps, ro
        state["H_diag"] = H_diag
        state["prev_flat_grad"], state["prev_loss"] = prev_flat_grad, prev_loss
        return orig_loss


def _as_float(loss: Any) -> float:
    """The closure's loss as a float. (PyTorch's ``float(loss)`` here runs under
    no_grad, where it does not warn about a tensor that requires grad; ``item``
    says the same without minigrad's warning.)"""
    return loss.item() if isinstance(loss, Tensor) else float(loss)


def _cubic_interpolate(
    x1: Any, f1: Any, g1: Any, x2: Any, f2: Any, g2: Any, bounds: Any = None
) -> Any:
    """The minimiser, within ``bounds``, of the cubic through two points with
    the given values and slopes (the bounds' midpoint if it has none)."""
    if bounds is not None:
        lo, hi = bounds
    else:
        lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:
        d2 = d2_square.sqrt()
        if x1 <= x2:
            min_pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            min_pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(min_pos, lo), hi)
    return (lo + hi) / 2.0


def _strong_wolfe(
    obj_func: Callable[[list[Tensor], Any, Tensor], tuple[float, Tensor]],
    x: list[Tensor],
    t: Any,
    d: Tensor,
    f: float,
    g: Tensor,
    gtd: Tensor,
    c1: float = 1e-4,
    c2: float = 0.9,
    tolerance_change: float = 1e-9,
    max_ls: int = 25,
) -> tuple[float, Tensor, Any, int]:
    """A step length t along d meeting the strong Wolfe conditions (sufficient
    decrease ``f(t) ≤ f + c1·t·gtd`` and curvature ``|g(t)·d| ≤ -c2·gtd``):
    first bracket an interval that holds one, then zoom into it by cubic
    interpolation (Nocedal & Wright, algorithms 3.5 and 3.6). Returns the loss,
    gradient and t found, and the number of evaluations used."""
    d_norm = d.abs().max()
    g = g.clone()
    f_new, g_new = obj_func(x, t, d)
    ls_func_evals = 1
    gtd_new = g_new.dot(d)
    t_prev, f_prev, g_prev, gtd_prev = 0, f, g, gtd
    done = False
    ls_iter = 0
    # bracketing
    while ls_iter < max_ls:
        if f_new > (f + c1 * t * gtd) or (ls_iter > 1 and f_new >= f_prev):
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bracket_f, bracket_g = [t], [f_new], [g_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bracket_f = [t_prev, t], [f_prev, f_new]
            bracket_g, bracket_gtd = [g_prev, g_new.clone()], [gtd_prev, gtd_new]
            break
        # extrapolate, between 1.01·t and 10·t
        min_step = t + 0.01 * (t - t_prev)
        max_step = t * 10
        t_prev, t = (
            t,
            _cubic_interpolate(
                t_prev, f_prev, gtd_prev, t, f_new, gtd_new, bounds=(min_step, max_step)
            ),
        )
        f_prev, g_prev, gtd_prev = f_new, g_new.clone(), gtd_new
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
    if ls_iter == max_ls:  # out of evaluations: between 0 and the last t
        bracket, bracket_f, bracket_g = [0, t], [f, f_new], [g, g_new]

    # zoom
    insuf_progress = False
    low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(
            bracket[0], bracket_f[0], bracket_gtd[0],
            bracket[1], bracket_f[1], bracket_gtd[1],
        )  # fmt: skip
        # keep t at least a tenth of the interval away from its ends, unless
        # the last step made enough progress
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                if abs(t - max(bracket)) < abs(t - min(bracket)):
                    t = max(bracket) - eps
                else:
                    t = min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj_func(x, t, d)
        ls_func_evals += 1
        gtd_new = g_new.dot(d)
        ls_iter += 1
        if f_new > (f + c1 * t * gtd) or f_new >= bracket_f[low_pos]:
            # no sufficient decrease: t becomes the high end
            bracket[high_pos], bracket_f[high_pos] = t, f_new
            bracket_g[high_pos], bracket_gtd[high_pos] = g_new.clone(), gtd_new
            low_pos, high_pos = (0, 1) if bracket_f[0] <= bracket_f[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high_pos] - bracket[low_pos]) >= 0:
                # the old low end becomes the high end
                bracket[high_pos], bracket_f[high_pos] = (
                    bracket[low_pos],
                    bracket_f[low_pos],
                )
                bracket_g[high_pos] = bracket_g[low_pos]
                bracket_gtd[high_pos] = bracket_gtd[low_pos]
            bracket[low_pos], bracket_f[low_pos] = t, f_new
            bracket_g[low_pos], bracket_gtd[low_pos] = g_new.clone(), gtd_new
    return bracket_f[low_pos], bracket_g[low_pos], bracket[low_pos], ls_func_evals
