# gradcheck(check_forward_ad=True, check_backward_ad=False) checks the
# tangents forward mode computes, so a Function with only a jvp passes; a
# wrong jvp fails with the "computed with forward mode" message.
import warnings

import torch

# (PyTorch's forward-mode gradcheck imports modules that warn about torch.jit)
warnings.filterwarnings("ignore", category=DeprecationWarning)


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_forward(x)
        return x * x

    @staticmethod
    def jvp(ctx, tangent):
        (x,) = ctx.saved_tensors
        return 2 * x * tangent


class WrongSquare(Square):
    @staticmethod
    def jvp(ctx, tangent):
        (x,) = ctx.saved_tensors
        return 3 * x * tangent


torch.manual_seed(5)
x = torch.randn(3, dtype=torch.double, requires_grad=True)
only_fwd = dict(
    check_forward_ad=True,
    check_backward_ad=False,
    check_undefined_grad=False,
    check_batched_grad=False,
)
print(torch.autograd.gradcheck(Square.apply, (x,), **only_fwd))
print(
    torch.autograd.gradcheck(WrongSquare.apply, (x,), raise_exception=False, **only_fwd)
)
try:
    torch.autograd.gradcheck(WrongSquare.apply, (x,), **only_fwd)
except RuntimeError as e:
    print(type(e).__name__, e)
w = torch.randn(2, 3, dtype=torch.double, requires_grad=True)
print(
    torch.autograd.gradcheck(
        lambda a, b: (b * a.tanh()).sum(1), (x, w), check_forward_ad=True
    )
)
