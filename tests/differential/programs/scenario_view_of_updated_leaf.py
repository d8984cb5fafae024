# A saved view of a weight (W.t() inside matmul) after an in-place update.
import torch

w = torch.ones(2, 2, requires_grad=True)
wt = w.t()
y = (torch.ones(3, 2) @ wt).sum()
with torch.no_grad():
    w -= 0.1
print(w._version, wt._version)
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(type(wt.grad_fn).__name__, wt.grad_fn.next_functions[0][0].name())


class WrongCube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * x**2


x = torch.tensor([0.3, -1.2], dtype=torch.float64, requires_grad=True)
try:
    torch.autograd.gradcheck(WrongCube.apply, (x,))
except Exception as e:
    print(type(e).__name__, e)
