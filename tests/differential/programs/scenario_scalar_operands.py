# Python scalars on either side: node names and next_functions.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)


def show(label, t):
    gf = t if hasattr(t, "next_functions") else t.grad_fn
    nf = [(type(f).__name__ if f else None, nr) for f, nr in gf.next_functions]
    print(label, type(gf).__name__, nf)


show("a+2", a + 2)
show("2+a", 2 + a)
show("a-2", a - 2)
show("2-a", 2 - a)
show("a*2", a * 2)
show("2*a", 2 * a)
show("a/2", a / 2)
show("2/a", 2 / a)
recip = (2 / a).grad_fn.next_functions[0][0]
show("2/a reciprocal", recip)
print(recip.next_functions[0][0].variable is a)
show("a**2", a**2)
show("2**a", 2**a)
show("a**b", a**b)
show("a+b", a + b)
show("a-b", a - b)
show("a/b", a / b)
y = (2 - a) + (2 / a) + 2**a + a**b
y.sum().backward()
print(a.grad)
print(b.grad)
