# Third and fourth derivatives through activations under create_graph: the
# graph each order records, with its nodes ranked by sequence number (which
# orders the engine's work and its sums). PyTorch's C++ formulas compute an
# operator's right operand first: silu's double backward builds
# 1 + x * (1 - sigmoid) before grad * sigmoid, mish's 1 - tanh² before
# x * sigmoid, log_softmax's exp(output) before -sum(grad), and logsigmoid's
# gg * grad before sigmoid(x). The others are here to keep their order too.
# Values to 10 digits: numpy's and PyTorch's kernels can round apart in the
# last bit.
import torch
import torch.nn.functional as F


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


def run(name, fn):
    x = torch.tensor([[0.3, 0.7, 0.45], [0.6, 0.2, 0.55]], dtype=torch.float64)
    leaves = [x.requires_grad_()]
    out = fn(*leaves)
    for order in (2, 3, 4):
        grads = torch.autograd.grad(
            out,
            leaves,
            torch.ones_like(out) if order == 2 else None,
            create_graph=True,
        )
        print(name, "order", order)
        graph(grads, leaves)
        print("    values", [float(f"{v:.10g}") for v in grads[0].reshape(-1).tolist()])
        out = sum((g * g).sum() for g in grads)


run("silu", F.silu)
run("mish", F.mish)
run("logsigmoid", F.logsigmoid)
run("log_softmax", lambda a: a.log_softmax(1))
run("erf", torch.erf)
run("asin", torch.asin)
run("acos", torch.acos)
run("atan", torch.atan)
run("tan", torch.tan)
run("sigmoid", torch.sigmoid)
run("tanh", torch.tanh)
run("rsqrt", torch.rsqrt)
run("reciprocal", torch.reciprocal)
run("logit", torch.logit)
run("elu", lambda a: F.elu(a - 0.4))
run("celu", lambda a: F.celu(a - 0.4, 0.5))
