# Custom Functions in today's documented style: forward without ctx plus
# setup_context, apply with keyword arguments (bound with their defaults),
# backward written as vjp, jvp for forward AD, boxed_grads_call,
# once_differentiable, and the legacy instance call.
import warnings

import torch
import torch.autograd.forward_ad as fwAD
from torch.autograd.function import once_differentiable

# PyTorch 2.13's forward_ad calls the deprecated torch.jit.script on first use
warnings.filterwarnings("ignore", message="`torch.jit.script` is deprecated")


class ScaledMul(torch.autograd.Function):
    @staticmethod
    def forward(x, y, scale=2.0):
        print("forward grad enabled:", torch.is_grad_enabled())
        return x * y * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("setup_context:", len(inputs), inputs[2], type(output).__name__)
        x, y, scale = inputs
        ctx.save_for_backward(x, y)
        ctx.save_for_forward(x, y)
        ctx.scale = scale

    @staticmethod
    def vjp(ctx, g):
        x, y = ctx.saved_tensors
        print("needs_input_grad:", ctx.needs_input_grad)
        return g * y * ctx.scale, g * x * ctx.scale, None

    @staticmethod
    def jvp(ctx, x_t, y_t, _):
        x, y = ctx.saved_tensors
        return ctx.scale * (x_t * y + x * y_t)


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor([3.0, 4.0], requires_grad=True)
z = ScaledMul.apply(x, y)
print(z, z.grad_fn.name(), [type(f).__name__ for f, _ in z.grad_fn.next_functions])
z.sum().backward()
print(x.grad, y.grad)
print(ScaledMul.apply(x, y, scale=3.0))
print(ScaledMul.apply(x, y=y, scale=0.5))
for call in (
    lambda: ScaledMul.apply(x, y, 1.0, 2.0),
    lambda: ScaledMul.apply(x, y, bogus=1),
    lambda: ScaledMul.apply(y=y),
):
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)

with fwAD.dual_level():
    d = ScaledMul.apply(fwAD.make_dual(x.detach(), torch.ones(2)), y.detach(), 3.0)
    print(fwAD.unpack_dual(d).tangent)


class Scale(torch.autograd.Function):  # the older style, with keywords
    @staticmethod
    def forward(ctx, x, factor=2.0):
        print("needs_input_grad:", ctx.needs_input_grad)
        return x * factor

    @staticmethod
    def backward(ctx, g):
        return g * 2, None


print(Scale.apply(x=x))
w = Scale.apply(x, factor=torch.ones(2, requires_grad=True))
print(len(w.grad_fn.next_functions))


class Both(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g

    @staticmethod
    def vjp(ctx, g):
        return g


class Neither(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


for fn in (Both, Neither):
    try:
        fn.apply(x).sum().backward()
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__ + ":", e)


class Boxed(torch.autograd.Function):
    boxed_grads_call = True

    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, grads):
        print(type(grads).__name__, len(grads))
        g1, g2 = grads.pop(0), grads.pop(0)
        return g1 * 2 + g2 * 3


x.grad = None
p, q = Boxed.apply(x)
(p + q).sum().backward()
print(x.grad)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        print("once:", g.requires_grad, torch.is_grad_enabled())
        return 2 * x * g


a = torch.tensor([3.0], requires_grad=True)
(ga,) = torch.autograd.grad(Square.apply(a), a, create_graph=True)
print(ga, ga.grad_fn)
v = torch.ones(1, requires_grad=True)
(ga,) = torch.autograd.grad(Square.apply(a), a, grad_outputs=v, create_graph=True)
print(ga, ga.grad_fn.name(), ga.grad_fn.next_functions, ga.is_leaf)
try:
    ga.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
Square.apply(a).backward()
print(a.grad, Square.backward.__name__)

try:
    Square()(a)
except RuntimeError as e:
    print("RuntimeError:", e)
