# Engine fuzzer finding: an expand in which no element repeats is writable (the
# gradient of sum(0) over a size-1 dim, under create_graph, was read-only).
# One that repeats elements still refuses in-place writes.
import torch

a = torch.tensor([[0.0, 0.0, 0.0]], requires_grad=True)
s = a.sum(0)
(g,) = torch.autograd.grad(
    s, [a], grad_outputs=torch.full_like(s, 1.0), create_graph=True
)
with torch.no_grad():
    g.add_(2.0)
print(g, g._version)
b = torch.tensor([[1.0, 2.0]], requires_grad=True) * 1
e = b.expand(1, 2)
e.mul_(3)
print(e, b, e.grad_fn.name(), b.grad_fn.name(), b._version)
c = torch.tensor([1.0, 2.0]).expand(1, 2)
c.add_(1)
print(c)
d = torch.tensor([1.0, 2.0]).expand(3, 2)
try:
    d.add_(1)
except RuntimeError as err:
    print("RuntimeError:", err)
