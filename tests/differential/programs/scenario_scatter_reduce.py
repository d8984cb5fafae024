# scatter_reduce (sum, prod, mean, amax, amin; include_self): ScatterReduceBackward0,
# PyTorch's gradient formulas (evenly shared maxima, zeros in prod) and second
# order; the deprecated scatter(reduce=) as a NotImplemented node, warned once.
import warnings

import torch

s = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], requires_grad=True)
idx = torch.tensor([0, 1, 0, 1, 2, 1])
base = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
w = torch.arange(1.0, 5.0)
for red in ("sum", "prod", "mean", "amax", "amin"):
    for inc in (True, False):
        y = base.scatter_reduce(0, idx, s, reduce=red, include_self=inc)
        fn = y.grad_fn
        print(
            red,
            inc,
            y,
            fn.name(),
            fn._saved_dim,
            fn._saved_include_self,
            fn._saved_reduce,
        )
        print(torch.autograd.grad((y * w).sum(), (base, s)))
        y = base.scatter_reduce(0, idx, s, reduce=red, include_self=inc)
        gb, gs = torch.autograd.grad((y * y).sum(), (base, s), create_graph=True)
        print(gb, gs, gb.grad_fn.name(), gs.grad_fn.name())
        print(
            torch.autograd.grad(
                (gb * gb).sum() + (gs * gs).sum(), (base, s), allow_unused=True
            )
        )
z = torch.tensor([2.0, 0.0, 3.0, 0.0, 5.0], requires_grad=True)
b2 = torch.tensor([1.0, 2.0, 0.0], requires_grad=True)
i2 = torch.tensor([0, 0, 1, 2, 2])
y = b2.scatter_reduce(0, i2, z, "prod")
print(y, torch.autograd.grad(y.sum(), (b2, z)))
t = torch.tensor([[1.0, 7.0], [3.0, 3.0]], requires_grad=True)
m = torch.zeros(2, 3).scatter_reduce(1, torch.tensor([[0, 0], [2, 2]]), t, "amax")
print(m, torch.autograd.grad(m.sum(), t))
k = torch.arange(6).scatter_reduce(
    0, torch.tensor([0, 0, 5]), torch.tensor([7, 9, 2]), "mean"
)
print(k)
try:
    base.scatter_reduce(0, idx, s, "max")
except RuntimeError as e:
    print("RuntimeError:", e)
c = base * 1
c.scatter_reduce_(0, idx, s, "amax", include_self=False)
print(c, c.grad_fn.name())
y = base.scatter_reduce(0, idx, s, "max")
print(y, y.grad_fn._saved_reduce)
try:
    torch.autograd.grad(y.sum(), s)
except RuntimeError as e:
    print("RuntimeError:", e)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y = base.scatter(0, idx[:4], s[:4], reduce="add")
    print(y, [f.name() for f, _ in y.grad_fn.next_functions], len(caught))
    print(str(caught[0].message).split(" (Triggered")[0])
y = base.scatter(0, idx[:4], 2.0, reduce="multiply")
print(y, len(y.grad_fn.next_functions))
print(base.scatter(0, idx[:4], value=2.0, reduce="add"))
try:
    base.scatter(0, idx[:4], s[:4], reduce="mean")
except RuntimeError as e:
    print("RuntimeError:", e)
c = base * 1
c.scatter_(0, idx[:4], s[:4], reduce="add")
print(c.grad_fn.name())
try:
    torch.autograd.grad(c.sum(), base)
except RuntimeError as e:
    print("RuntimeError:", e)
