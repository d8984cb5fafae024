# Second and third derivatives through binary ops under create_graph, graph
# and values: PyTorch's generated backward makes an op's input gradients in
# the sorted order of the inputs' names (other's before self's for mul, div,
# pow, hypot, xlogy, where, maximum...; end's, self's, weight's for lerp), and
# its C++ formulas compute an operator's right operand first (div's
# -grad * (self / other / other) divides before it negates; atan2's
# self * self + other * other squares other first), so the nodes' sequence
# numbers, which order the engine's work and its sums, follow that order.
# The same holds for rsqrt's and sigmoid's double backward; sign's gradient
# is a constant zero, as PyTorch's zeros_like(grad).
# Each node is printed with its rank among the graph's sequence numbers and
# its next_functions (by rank, or the leaf it accumulates into). Values are
# exact, except pow's, rsqrt's and sigmoid's to 12 digits: PyTorch's kernels
# and numpy's can round a power or a sigmoid apart in the last bit.
import torch

torch.manual_seed(0)


def graph(roots, leaves):
    seen = {}

    def walk(fn):
        if fn is None or fn in seen:
            return
        seen[fn] = None
        for nxt, _ in fn.next_functions:
            walk(nxt)

    for r in roots:
        walk(None if r is None else r.grad_fn)
    nodes = sorted(
        (fn for fn in seen if type(fn).__name__ != "AccumulateGrad"),
        key=lambda fn: fn._sequence_nr(),
    )
    rank = {fn: i for i, fn in enumerate(nodes)}
    names = {id(t): f"leaf{i}" for i, t in enumerate(leaves)}

    def ref(fn):
        if fn is None:
            return None
        if type(fn).__name__ == "AccumulateGrad":
            return names[id(fn.variable)]
        return rank[fn]

    for fn in nodes:
        print(
            "   ", rank[fn], type(fn).__name__, [ref(n) for n, _ in fn.next_functions]
        )
    print("    roots", [None if r is None else ref(r.grad_fn) for r in roots])


def run(name, fn, n, digits=None):
    leaves = [
        (torch.rand(2, 3, dtype=torch.float64) + 0.5).requires_grad_() for _ in range(n)
    ]
    out = fn(*leaves)
    for order in (2, 3):
        grads = torch.autograd.grad(
            out,
            leaves,
            torch.ones_like(out) if order == 2 else None,
            create_graph=True,
            allow_unused=True,
        )
        print(name, "order", order)
        graph(grads, leaves)
        values = [None if g is None else g.reshape(-1).tolist() for g in grads]
        if digits is not None:
            values = [
                None if v is None else [float(f"{x:.{digits}g}") for x in v]
                for v in values
            ]
        print("    values", values)
        grads = [g for g in grads if g is not None and g.requires_grad]
        if not grads:  # (a piecewise-constant gradient: fmax's, maximum's)
            break
        out = sum((g * g).sum() for g in grads)


run("mul", lambda a, b: a * b, 2)
run("div", lambda a, b: a / b, 2)
run("pow", lambda a, b: a**b, 2, digits=12)
run("atan2", torch.atan2, 2)
run("mul_broadcast", lambda a, b: a * b[0], 2)
run("div_broadcast", lambda a, b: a[:, :1] / b, 2)
run("atan2_broadcast", lambda a, b: torch.atan2(a, b[:, :1]), 2)
run("div_rounding_none", lambda a, b: torch.div(a, b, rounding_mode=None), 2)
run("hypot", torch.hypot, 2)
run("logaddexp", torch.logaddexp, 2)
run("xlogy", torch.xlogy, 2)
run("fmax", torch.fmax, 2)
run("maximum", torch.maximum, 2)
run("sub_alpha", lambda a, b: torch.sub(a, b, alpha=2) * a, 2)
run("add_alpha", lambda a, b: torch.add(a, b, alpha=2) * b, 2)
run("rsub_alpha", lambda a, b: torch.rsub(a, b, alpha=3) * a, 2)
run("addcmul", lambda a, b, c: torch.addcmul(a, b, c, value=2), 3)
run("addcdiv", lambda a, b, c: torch.addcdiv(a, b, c, value=2), 3)
run("lerp", lambda a, b: torch.lerp(a, b, 0.3) * a, 2)
run("lerp_tensor", torch.lerp, 3)
run("where", lambda a, b: torch.where(a > 1.0, a, b) * b, 2)
run("clamp_tensor", lambda a, b, c: torch.clamp(a, b, c + 1) * a, 3)
run("clamp_min_tensor", lambda a, b: torch.clamp_min(a, b) * a, 2)
run("clamp_max_tensor", lambda a, b: torch.clamp_max(a, b) * b, 2)
run("masked_fill_tensor", lambda a, b: a.masked_fill(a > 1.0, b[0, 0]) * b, 2)
run("remainder", lambda a, b: torch.remainder(a, b) * b, 2)
run("reciprocal", lambda a, b: a.reciprocal() * b, 2)
run("rsqrt", lambda a, b: a.rsqrt() * b, 2, digits=12)
run("sigmoid", lambda a, b: a.sigmoid() * b, 2, digits=12)
run("sign", lambda a, b: a.sign() * a * b, 2)
