# Engine fuzzer finding: an expanded gradient (sum's, mean's) is writable
# through a view of one element, as in PyTorch (every element sharing it
# changes); an in-place op on the whole expanded tensor is refused.
import torch

a = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
(g,) = torch.autograd.grad(a.sum(), a)
print(g.stride(), g._version)
with torch.no_grad():
    g[0] = 2.0
print(g, g._version)
try:
    g.add_(1)
except RuntimeError as e:
    print("RuntimeError:", e)
m = torch.ones(2, 3, requires_grad=True)
(h,) = torch.autograd.grad(m.mean(1).sum(), m)
print(h.stride())
h[1, 2] = 5.0
print(h)
e = torch.tensor([1.0, 2.0]).expand(3, 2)
e[0, 1] = 7.0
print(e)
try:
    e.mul_(2)
except RuntimeError as err:
    print("RuntimeError:", err)
