# torch.autograd.grad: returns a tuple, leaves .grad alone; allow_unused and
# retain_graph.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([5.0], requires_grad=True)
y = (x * x * 3).sum()
(gx,) = torch.autograd.grad(y, x, retain_graph=True)
print(gx, x.grad, gx.requires_grad, gx.grad_fn)
print(torch.autograd.grad(y, [x]))
try:
    torch.autograd.grad((x * 2).sum(), [x, z])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True))
print(torch.autograd.grad((x * 2).sum(), [z, x], allow_unused=True))
print(torch.autograd.grad(x * 2, x, grad_outputs=torch.tensor([1.0, -1.0])))
w = x.exp().sum()
torch.autograd.grad(w, x)
try:
    torch.autograd.grad(w, x)
except RuntimeError as e:
    print("RuntimeError:", e)
h = x * 3
print(torch.autograd.grad(h.sum(), h))
