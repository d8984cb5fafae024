# Tensor hooks: observing and replacing grads; removing a hook.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 2
h1 = b.register_hook(lambda g: print("b hook sees", g))
h2 = b.register_hook(lambda g: g * 10)
b.register_hook(lambda g: print("after replace", g))
a.register_hook(lambda g: print("a hook sees", g))
b.sum().backward()
print(a.grad)
print(type(h1).__name__)

h2.remove()
a.grad = None
b = a * 2
b.register_hook(lambda g: g + 1)
b.sum().backward()
print(a.grad)

x = torch.tensor([3.0], requires_grad=True)
hx = x.register_hook(lambda g: g * 0)
(x * x).sum().backward()
print(x.grad)
hx.remove()
(x * x).sum().backward()
print(x.grad)
try:
    torch.tensor([1.0]).register_hook(lambda g: g)
except RuntimeError as e:
    print("RuntimeError:", e)
