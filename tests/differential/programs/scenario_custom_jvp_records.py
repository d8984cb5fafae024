# A custom Function's jvp runs in the caller's grad mode: when an input
# requires grad, the tangent it returns is recorded (forward-over-reverse), so
# it has a grad_fn and can be differentiated; under no_grad it has none.
import warnings

import torch
import torch.autograd.forward_ad as fwAD

# (PyTorch's first forward-AD use may import modules that warn about torch.jit)
warnings.filterwarnings("ignore", category=DeprecationWarning)


class Product(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_forward(x, y)
        return x * y

    @staticmethod
    def jvp(ctx, x_t, y_t):
        x, y = ctx.saved_tensors
        return y * x_t + x * y_t


u = torch.tensor([1.5, -2.0], requires_grad=True)
v = torch.tensor([0.5, 3.0], requires_grad=True)
direction = torch.tensor([1.0, 2.0])
with fwAD.dual_level():
    out = Product.apply(fwAD.make_dual(u, direction), v)
    tangent = fwAD.unpack_dual(out).tangent
    print(out)
    print(tangent, tangent.requires_grad)
    tangent.sum().backward()
    print(u.grad, v.grad)
    with torch.no_grad():
        quiet = Product.apply(fwAD.make_dual(u, direction), v)
        print(fwAD.unpack_dual(quiet).tangent)
    plain = Product.apply(fwAD.make_dual(u.detach(), direction), v.detach())
    print(fwAD.unpack_dual(plain).tangent)
