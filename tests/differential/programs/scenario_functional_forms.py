# Functional forms PyTorch programs reach for: a Python number first
# (torch.mul(2, x) wraps it into a 0-d tensor; torch.pow(2, x) is PowBackward2),
# true_divide, where(cond) alone, and the in-place unsqueeze_/squeeze_.
import torch


def step(name, f):
    try:
        y = f()
        print(name, y, y.dtype, type(y.grad_fn).__name__)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
i = torch.tensor([1, 2, 3])
step("mul", lambda: torch.mul(2, x))
step("mul int", lambda: torch.mul(2.5, i))
step("add alpha", lambda: torch.add(1, x, alpha=2))
step("sub", lambda: torch.sub(1, x))
step("div", lambda: torch.div(1, x))
step("div floor", lambda: torch.div(7, i, rounding_mode="floor"))
step("divide", lambda: torch.divide(1, x))
step("pow", lambda: torch.pow(2, x))
step("pow int", lambda: torch.pow(2, i))
step("numbers", lambda: torch.add(1, 2))
step("list", lambda: torch.mul([1], x))
step("true_divide", lambda: torch.true_divide(x, 2))
step("true_divide number", lambda: torch.true_divide(1, x))
step("method", lambda: x.true_divide(i))
y = torch.mul(2, x) + torch.pow(2, x) + torch.sub(1, x) + torch.div(1, x)
y.sum().backward()
print(x.grad)
c = torch.tensor([[True, False], [False, True]])
print(
    torch.where(c),
    torch.where(torch.tensor(True)),
    torch.where(torch.tensor([0.0, 1.5])),
)
v = torch.ones(1, 3, requires_grad=True).clone()
base = v
print(v.squeeze_() is base, v.shape, type(v.grad_fn).__name__, v._version)
print(v.unsqueeze_(1).shape, type(v.grad_fn).__name__, v._version)
print(v.squeeze_(1).shape, type(v.grad_fn).__name__)
print(v.unsqueeze_(-1).shape, v.squeeze_(0).shape)
(v * torch.arange(3.0).reshape(3, 1)).sum().backward()
step("unsqueeze_ range", lambda: v.unsqueeze_(5))
step("squeeze_ range", lambda: v.squeeze_(4))
w = torch.zeros(2, 1)
u = w[0]
u.unsqueeze_(0)
print(u.shape, u._base is w, w.shape)
