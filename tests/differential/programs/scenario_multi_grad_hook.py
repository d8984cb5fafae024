# autograd.graph.register_multi_grad_hook: mode all (a list, None for tensors
# this pass does not reach) and any (once per pass), its place among tensor
# hooks, autograd.grad and backward(inputs=), removal, and PyTorch's errors.
import torch
from torch.autograd.graph import register_multi_grad_hook

a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(3.0, requires_grad=True)
c = torch.tensor(4.0, requires_grad=True)
h = register_multi_grad_hook((a, b, c), lambda g: print("all", g))
print(type(h).__name__)
(a * b).backward()
(a * b * c).backward()
h.remove()
(a * b).backward()
print("removed ok")
h2 = register_multi_grad_hook((a, b), lambda g: print("any", g), mode="any")
(a * b).backward()
(a * 3).backward()
h2.remove()
x = a * 2
y = x * b
register_multi_grad_hook((x, b), lambda gs: print("nonleaf", gs))
y.backward()
try:
    register_multi_grad_hook((a,), print, mode="first")
except ValueError as e:
    print("ValueError:", e)
a.register_hook(lambda g: print("tensor hook a", g))
register_multi_grad_hook((a, b), lambda gs: print("multi", gs))
b.register_hook(lambda g: print("tensor hook b", g))
(a * b).backward()
x = a * 2
z = x * 3
register_multi_grad_hook((x,), lambda gs: print("x only", gs))
print(torch.autograd.grad(z, x))
register_multi_grad_hook((x, a), lambda gs: print("x and a", gs))
z = x * 3
print(torch.autograd.grad(z, (x,)))
try:
    torch.autograd.grad(a * b * c, (a,))
except RuntimeError as e:
    print("RuntimeError:", e)
d = torch.tensor(1.0, requires_grad=True)
e = torch.tensor(1.0, requires_grad=True)
register_multi_grad_hook((d, e), lambda gs: print("inputs=", gs))
(d * e * 2).backward(inputs=[d])
