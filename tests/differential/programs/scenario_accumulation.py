# .grad accumulates across backwards in the same tensor object; zero_().
import torch

q = torch.tensor([1.0, 2.0], requires_grad=True)
print(q.grad)
(q * 3).sum().backward()
g = q.grad
print(g, g.requires_grad, g.is_leaf)
(q * q).sum().backward()
print(q.grad, q.grad is g)
q.grad.zero_()
print(q.grad, q.grad is g)
(q**3).sum().backward()
print(q.grad, q.grad is g, g._version)
q.grad = None
(q * 2).sum().backward()
print(q.grad, q.grad is g)
w = torch.tensor(2.0, requires_grad=True)
for _ in range(3):
    (w * w).backward()
print(w.grad)
