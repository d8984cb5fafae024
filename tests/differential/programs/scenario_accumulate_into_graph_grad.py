# .grad from backward(create_graph=True) is a CopyBackwards result at
# _version 1; a later plain backward adds into that same tensor in place
# (it keeps its grad_fn), a later create_graph backward builds old + new.
import torch


def fn(t):
    g = t.grad_fn
    if g is None:
        return None
    nf = [(None if f is None else type(f).__name__, nr) for f, nr in g.next_functions]
    return type(g).__name__, nf


a = torch.tensor([1.0, 2.0], requires_grad=True)
(a * a).sum().backward(create_graph=True)
g = a.grad
print(fn(g), g._version)
(a * a).sum().backward()
print(a.grad, a.grad is g, fn(a.grad), a.grad._version)
(a * a).sum().backward(create_graph=True)
print(a.grad, fn(a.grad))
