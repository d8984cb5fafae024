# ELU family (elu, selu, celu, in place too), hardtanh/relu6, silu, mish,
# logsigmoid: values, nodes, saved attributes, and first to third derivatives.
import torch
import torch.nn.functional as F

x = torch.tensor(
    [[0.5, -1.0, 2.0], [-0.3, 1.5, -2.5]], dtype=torch.float64, requires_grad=True
)
cases = {
    "elu": lambda: F.elu(x),
    "elu_a": lambda: F.elu(x, 0.5),
    "selu": lambda: F.selu(x),
    "celu": lambda: F.celu(x, 0.7),
    "hardtanh": lambda: F.hardtanh(x, -0.5, 0.5),
    "relu6": lambda: F.relu6(x * 4),
    "silu": lambda: F.silu(x),
    "mish": lambda: F.mish(x),
    "logsigmoid": lambda: F.logsigmoid(x),
    "elu_": lambda: F.elu(x * 1, inplace=True),
    "selu_": lambda: F.selu(x * 1, inplace=True),
    "celu_": lambda: F.celu(x * 1, 0.7, inplace=True),
    "hardtanh_": lambda: F.hardtanh(x * 1, inplace=True),
    "silu_": lambda: F.silu(x * 1, inplace=True),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y,
        fn.name(),
        [
            (a, getattr(fn, a))
            for a in sorted(dir(fn))
            if a.startswith("_saved_") and a not in ("_saved_self", "_saved_result")
        ],
    )
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g, g.grad_fn.name())
    (g2,) = torch.autograd.grad((g * g).sum(), x, create_graph=True)
    print(g2)
    (g3,) = torch.autograd.grad(g2.sum(), x)
    print(g3)
