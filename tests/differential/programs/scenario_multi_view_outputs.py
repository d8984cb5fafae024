# Outputs of split/chunk/unbind (functions returning several views) become
# unusable once their base is written in place, and cannot be written themselves.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


x = torch.ones(4, requires_grad=True)
y = x * 2
a, b = y.split(2)
y.add_(1)
step("split then use", lambda: print(a * 2))
step("split then grad_fn", lambda: print(type(a.grad_fn).__name__))
y = x * 2
a, b = y.split(2)
step("write a split output", lambda: a.add_(1))
print(a._version, y._version)
y = x * 2
a, b = y.chunk(2)
y.mul_(2)
step("chunk then sum", lambda: print((a * 2).sum()))
y = (x * 2).view(2, 2)
a, b = y.unbind()
y.mul_(2)
step("unbind then grad_fn", lambda: print(a.grad_fn))
step("unbind then backward", lambda: a.sum().backward())
print(x.grad)
# without grad nothing is recorded: fine
with torch.no_grad():
    y = x * 2
a, b = y.split(2)
y.add_(1)
print(a, a.grad_fn)
a.add_(1)
print(y)
# a split output made with grad, changed in place under no_grad: its grad_fn
# is refused, and its repr says so (grad_fn=<Invalid>), as PyTorch's
y = x * 2
a, b = y.split(2)
with torch.no_grad():
    b.add_(1)
print(b, y._version)
step("grad_fn after", lambda: b.grad_fn)
step("op after", lambda: b * 2)
