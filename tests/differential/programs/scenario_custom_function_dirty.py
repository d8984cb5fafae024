# Custom Functions with mark_dirty (in-place) and mark_non_differentiable.
import torch


class AddOneInplace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class DoubleWithCopy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        copy = x + 0
        ctx.mark_non_differentiable(copy)
        return x * 2, copy

    @staticmethod
    def backward(ctx, grad_doubled, grad_copy):
        print("grad_copy:", grad_copy)
        return grad_doubled * 2


a = torch.tensor([1.0, 2.0], requires_grad=True)
h = a * 2
out = AddOneInplace.apply(h)
print(out is h, h, h._version, type(h.grad_fn).__name__)
out.sum().backward()
print(a.grad)

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
v, c = DoubleWithCopy.apply(x)
print(v, c, c.requires_grad, c.grad_fn, c.is_leaf)
print(type(v.grad_fn).__name__)
(v * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
