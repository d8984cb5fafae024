# PyTorch 2.13 names the forward op in the "modified by an inplace operation"
# error: the node name without "Backward0" (an overload other than 0 stays:
# Sum1, Mean1). Found by the engine fuzzer.
import torch

a = torch.zeros(2, 3, requires_grad=True)
for make in [
    lambda: a.sum(0),
    lambda: a.sum(),
    lambda: a.exp(),
    lambda: a.mean(0),
    lambda: a * 2,
    lambda: a.max(0)[0],
]:
    t = make()
    t2 = t * t
    with torch.no_grad():
        t.add_(1)
    try:
        t2.sum().backward()
    except RuntimeError as e:
        print(t.grad_fn.name(), "->", str(e).split("which is ")[1].split(",")[0])

x = torch.tensor([0.5, 1.0], requires_grad=True)
(g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
g2 = g * g
with torch.no_grad():
    g.add_(1)
try:
    g2.sum().backward()
except RuntimeError as e:
    print(g.grad_fn.name(), "->", str(e).split("which is ")[1].split(",")[0])
