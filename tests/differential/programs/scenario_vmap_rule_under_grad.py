# A Function's own vmap rule under vmap(grad(f)), as PyTorch calls it: grad's
# level hands the Function's forward down to vmap's, so the rule is called
# once with the whole batch (and the forward once, inside it); also for an
# input computed inside the mapped function, two such calls, a batch of one,
# grad outside, vjp / jacrev / grad_and_value / jvp inside, a backward
# through the result; a Function applied only to unmapped tensors is called
# as it is (no rule), and a Function without vmap support is refused as
# under vmap alone. (Not printed from: the Function's
# backward, which PyTorch calls once on one element's shapes, batched, and
# minigrad once per element on the whole batch; README's known differences.)
import warnings

import torch
from torch.func import grad, grad_and_value, jacrev, jvp, vjp, vmap

# PyTorch's jvp warns of torch.jit.script inside its own code, once per op.
warnings.filterwarnings("ignore", category=DeprecationWarning)


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        print("  forward", tuple(x.shape))
        return x**3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.save_for_forward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2

    @staticmethod
    def jvp(ctx, t):
        (x,) = ctx.saved_tensors
        return t * 3 * x**2

    @staticmethod
    def vmap(info, in_dims, x):
        print("  rule", info.batch_size, in_dims, tuple(x.shape))
        return Cube.apply(x), in_dims[0]


class NoRule(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 2


x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
w = torch.tensor([1.0, 2.0, -1.0])
print("vmap(grad)")
print(vmap(grad(lambda r: (Cube.apply(r) * w).sum()))(x))
print("vmap(grad) of t * 2")
print(vmap(lambda t: grad(lambda u: Cube.apply(u).sum())(t * 2))(x))
print("vmap(grad) twice")
print(vmap(grad(lambda r: (Cube.apply(r) * Cube.apply(r.sin())).sum()))(x))
print("batch of one")
print(vmap(grad(lambda r: Cube.apply(r).sum()))(x[:1]))
print("unmapped w")
print(vmap(grad(lambda r, v: (Cube.apply(v) * r).sum()), in_dims=(0, None))(x, w))
print("grad of vmap(grad)")
print(grad(lambda t: vmap(grad(lambda r: Cube.apply(r).sum()))(t).sum())(x))
print("vmap(grad) no rule")
try:
    print(vmap(grad(lambda r: NoRule.apply(r).sum()))(x))
except RuntimeError as e:
    print(type(e).__name__, e)
leaf = x.clone().requires_grad_()
out = vmap(grad(lambda r: Cube.apply(r).sum()))(leaf)
out.sum().backward()
print(out.detach(), leaf.grad)
print("vjp, jacrev, grad_and_value, has_aux, grad of grad, jvp inside vmap")
print(vmap(lambda t: vjp(Cube.apply, t)[1](torch.ones(3))[0])(x))
print(vmap(jacrev(Cube.apply))(x))
print(vmap(grad_and_value(lambda t: Cube.apply(t).sum()))(x))
print(vmap(grad(lambda t: (Cube.apply(t).sum(), t * 2), has_aux=True))(x))
print(vmap(grad(grad(lambda t: Cube.apply(t).sum())))(x[:, 0]))
print(vmap(lambda t: jvp(Cube.apply, (t,), (torch.ones(3),))[1])(x))
print(vmap(lambda t: grad(lambda u: Cube.apply(u).sum())(t) + Cube.apply(t))(x))
