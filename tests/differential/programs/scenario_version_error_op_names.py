# PyTorch 2.13 names the forward op in the "modified by an inplace operation"
# error: the node name without "Backward0" (an overload other than 0 stays:
# Sum1, Mean1). Found by the engine fuzzer.
import torch


def report(t):
    """Change ``t`` in place after ``t * t`` saved it; print what backward says."""
    t2 = t * t
    with torch.no_grad():
        t.add_(1)
    try:
        t2.sum().backward()
    except RuntimeError as e:
        print(t.grad_fn.name(), "->", str(e).split("which is ")[1].split(",")[0])


a = torch.zeros(2, 3, requires_grad=True)
report(a.sum(0))
report(a.sum())
report(a.exp())
report(a.mean(0))
report(a * 2)
report(a.max(0)[0])
x = torch.tensor([0.5, 1.0], requires_grad=True)
(g,) = torch.autograd.grad(x.tanh().sum(), x, create_graph=True)
report(g)
