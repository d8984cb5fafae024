# After backward(create_graph=True) through sum(), .grad is a real tensor
# (_version 1): the next backward accumulates into it.  autograd.grad returns
# the expanded grad itself, which rejects in-place writes (internal overlap),
# and, as a view made in no_grad mode, first an in-place write that needs grad
# (so do its views made after); a copy of it takes either.
import torch

a = torch.ones(2, 3, requires_grad=True)
a.sum().backward(create_graph=True)
print(a.grad, a.grad._version)
try:
    a.sum().backward()
    print(a.grad)
except Exception as e:
    print(f"{type(e).__name__}: {e}")
b = torch.ones(2, requires_grad=True)
(g,) = torch.autograd.grad(b.sum(), [b])
try:
    g.mul_(2)
    print(g)
except Exception as e:
    print(f"{type(e).__name__}: {e}")

x = torch.ones(2, 3, requires_grad=True)
w = torch.ones(2, 3, requires_grad=True)
(g,) = torch.autograd.grad(x.sum(), [x])
print(g.stride())
for name, write in [
    ("add_", lambda: g.add_(w)),
    ("a row's add_", lambda: g[0].add_(w[0])),
    ("t's mul_", lambda: g.t().mul_(w.t())),
    ("detached mul_", lambda: g.detach().mul_(w)),
    ("a clone's mul_", lambda: g.clone().mul_(w)),
]:
    try:
        print(name, write())
    except RuntimeError as e:
        print(name, f"RuntimeError: {e}")
with torch.no_grad():
    try:
        g.mul_(2)
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
print(g * w)
