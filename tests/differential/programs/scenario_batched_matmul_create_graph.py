# The create_graph gradients of batched products, as PyTorch records them:
# bmm's gradient is bmm itself on a transpose(1, 2) of the other operand
# (minigrad went through matmul's expand and reshapes), mat2's/batch2's made
# first (PyTorch's generated backward goes by the inputs' names, sorted), and
# a @ b of 3-d, 4-d and broadcast operands reaches it through matmul's own
# views; baddbmm/addbmm scale by alpha and beta as PyTorch. Each case prints
# the second-order graph (nodes by sequence rank, saved numbers and shapes,
# next_functions) and the gradients, then the third-order graph's node
# names in sequence order and its values.
import torch

torch.manual_seed(0)


def saved(fn):
    out = {}
    for name in dir(fn):
        if name.startswith("_saved_"):
            v = getattr(fn, name)
            out[name] = list(v.shape) if isinstance(v, torch.Tensor) else v
    return out


def nodes(roots):
    seen = {}

    def walk(fn):
        if fn is None or fn in seen:
            return
        seen[fn] = None
        for nxt, _ in fn.next_functions:
            walk(nxt)

    for r in roots:
        walk(None if r is None else r.grad_fn)
    return sorted(
        (fn for fn in seen if type(fn).__name__ != "AccumulateGrad"),
        key=lambda fn: fn._sequence_nr(),
    )


def graph(roots, leaves):
    order = nodes(roots)
    rank = {fn: i for i, fn in enumerate(order)}
    names = {id(t): f"leaf{i}" for i, t in enumerate(leaves)}

    def ref(fn):
        if fn is None:
            return None
        if type(fn).__name__ == "AccumulateGrad":
            return names.get(id(fn.variable), "other leaf")
        return rank[fn]

    for fn in order:
        nxt = [ref(n) for n, _ in fn.next_functions]
        print("   ", rank[fn], type(fn).__name__, saved(fn), nxt)
    print("    roots", [None if r is None else ref(r.grad_fn) for r in roots])


def values(ts):
    return [
        None if t is None else [float(f"{v:.12g}") for v in t.reshape(-1).tolist()]
        for t in ts
    ]


def run(name, fn, *shapes):
    leaves = [torch.rand(*s, dtype=torch.float64, requires_grad=True) for s in shapes]
    y = fn(*leaves)
    go = torch.rand(y.shape, dtype=torch.float64)
    grads = torch.autograd.grad(y, leaves, go, create_graph=True)
    print(name, "second order")
    graph(grads, leaves)
    print("    values", values(grads))
    out = sum((g * g).sum() for g in grads)
    third = torch.autograd.grad(out, leaves, create_graph=True, allow_unused=True)
    print(name, "third order", [type(fn).__name__ for fn in nodes(third)])
    print("    values", values(third))


run("bmm", torch.bmm, (2, 3, 4), (2, 4, 5))
run("3-d @ 3-d", lambda a, b: a @ b, (2, 3, 4), (2, 4, 5))
run("4-d @ 4-d", lambda a, b: a @ b, (2, 2, 3, 4), (2, 2, 4, 5))
run("broadcast 4-d @ 3-d", lambda a, b: a @ b, (2, 1, 3, 4), (3, 4, 5))
run("3-d @ 2-d", lambda a, b: a @ b, (2, 3, 4), (4, 5))
run("2-d @ 3-d", lambda a, b: a @ b, (3, 4), (2, 4, 5))
run("3-d @ 1-d", lambda a, b: a @ b, (2, 3, 4), (4,))
run("1-d @ 3-d", lambda a, b: a @ b, (4,), (2, 4, 5))
run("matmul 3-d", torch.matmul, (3, 2, 2), (3, 2, 2))
run("mm", torch.mm, (3, 4), (4, 2))
run("linear", lambda x, w: torch.nn.functional.linear(x, w), (3, 4), (2, 4))
run(
    "baddbmm",
    lambda c, a, b: torch.baddbmm(c, a, b, beta=0.5, alpha=2),
    (2, 3, 5),
    (2, 3, 4),
    (2, 4, 5),
)
run(
    "baddbmm broadcast",
    lambda c, a, b: torch.baddbmm(c, a, b),
    (3, 1),
    (2, 3, 4),
    (2, 4, 5),
)
run(
    "addbmm",
    lambda c, a, b: torch.addbmm(c, a, b, beta=2, alpha=0.5),
    (3, 5),
    (2, 3, 4),
    (2, 4, 5),
)
