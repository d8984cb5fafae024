# Forward-mode AD (autograd.forward_ad): dual_level, make_dual, unpack_dual,
# tangents through ops, views and in-place ops, tensor reprs with tangent=,
# custom Functions' jvp, a Jacobian built column by column, and the errors.
import warnings

import torch
import torch.autograd.forward_ad as fwAD

# PyTorch 2.13's forward_ad calls the deprecated torch.jit.script on each use
warnings.filterwarnings("ignore", category=DeprecationWarning)

x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
t = torch.tensor([1.0, 0.0, 0.5], dtype=torch.float64)
try:
    fwAD.make_dual(x, t)
except RuntimeError as e:
    print("RuntimeError:", e)
with fwAD.dual_level() as level:
    print(level)
    d = fwAD.make_dual(x, t)
    print(d, d.requires_grad, d._base is x, d.is_leaf)
    y = (d * d).sin().sum()
    u = fwAD.unpack_dual(y)
    print(u, type(u).__name__)
    print(fwAD.unpack_dual(x))
    try:
        fwAD.make_dual(x, torch.ones(2, dtype=torch.float64))
    except RuntimeError as e:
        print("RuntimeError:", e)
    try:
        with fwAD.dual_level():
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(
        fwAD.unpack_dual(d[1:]).tangent,
        fwAD.unpack_dual(d @ torch.ones(3, 2, dtype=torch.float64)).tangent,
    )
    m = d.clone()
    m.mul_(2)
    print(fwAD.unpack_dual(m).tangent)
    i = d.argmax()
    print(i, fwAD.unpack_dual(i).tangent)
    print(fwAD.unpack_dual(d).tangent is t)
    print(torch.nn.functional.softmax(d, 0))
    w = torch.tensor([[1.0, -1.0, 2.0], [0.5, 0.5, 0.5]], dtype=torch.float64)
    h = torch.tanh(w @ d + 1)
    print(fwAD.unpack_dual(h).tangent)
    print(
        fwAD.unpack_dual(d.max(0).values).tangent, fwAD.unpack_dual(d.cumsum(0)).tangent
    )
    for fn in (torch.exp, torch.log, torch.sqrt, torch.sigmoid, torch.relu):
        print(fn.__name__, fwAD.unpack_dual(fn(d)).tangent)
    try:
        fwAD.make_dual(torch.tensor([1, 2]), torch.tensor([1.0, 1.0]))
    except ValueError as e:
        print("ValueError:", e)
print(fwAD.unpack_dual(y))
print(y)


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_forward(a)
        return a * a

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def jvp(ctx, t):
        (a,) = ctx.saved_tensors
        return 2 * a * t


with fwAD.dual_level():
    try:
        Double.apply(fwAD.make_dual(x, t))
    except NotImplementedError as e:
        print("NotImplementedError:", e)
    print(fwAD.unpack_dual(Square.apply(fwAD.make_dual(x, t))).tangent)


# Jacobian column by column: forward mode needs one pass per input
def f(v):
    return torch.stack([v[0] * v[1], v[1].sin() + v[2] ** 2])


with fwAD.dual_level():
    cols = [
        fwAD.unpack_dual(
            f(fwAD.make_dual(x, torch.eye(3, dtype=torch.float64)[j]))
        ).tangent
        for j in range(3)
    ]
print(torch.stack(cols, 1))
print(torch.autograd.functional.jacobian(f, x))
