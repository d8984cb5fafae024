# autograd.grad hands back the engine's buffers: one tensor asked for twice is one
# object twice, and a grad_outputs tensor that arrives unchanged is returned
# itself. Found by the engine fuzzer.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
v = torch.tensor([3.0, 4.0])
(g,) = torch.autograd.grad(y, [y], grad_outputs=v)
print(g is v, g)
g1, g2 = torch.autograd.grad((x * x).sum(), [x, x])
print(g1 is g2, g1)
a, b = torch.autograd.grad(y * 3, [y, y], grad_outputs=v)
print(a is b, a)
s = y.sum()
(g,) = torch.autograd.grad(s, [s])
print(g, g._version)
