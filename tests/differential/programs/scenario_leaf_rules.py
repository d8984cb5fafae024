# Leaf rules: which tensors are leaves, require grad, have a grad_fn.
import torch


def facts(name, t):
    gf = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(name, t.is_leaf, t.requires_grad, gf)


a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
facts("a", a)
facts("b", b)
facts("a+b", a + b)
facts("b*2", b * 2)
facts("a.detach()", a.detach())
with torch.no_grad():
    facts("no_grad a*2", a * 2)
facts("ones", torch.ones(3))
facts("zeros rg", torch.zeros(2, requires_grad=True))
facts("float64 rg", torch.tensor([1.0], dtype=torch.float64, requires_grad=True))
c = torch.tensor([5.0])
c.requires_grad_()
facts("requires_grad_", c)
d = torch.arange(3.0)
d.requires_grad = True
facts("attr set", d)
facts("sum", (a * b).sum())
