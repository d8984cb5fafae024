# view/reshape/t: node names, shared data and versions, gradients.
import torch

a = torch.arange(6.0, requires_grad=True)
v = a.view(2, 3)
r = a.reshape(3, 2)
print(
    type(v.grad_fn).__name__, type(r.grad_fn).__name__, v.grad_fn._saved_self_sym_sizes
)
t = v.t()
print(t, type(t.grad_fn).__name__)
print(t.shape, t.is_contiguous(), v.is_contiguous())
(t * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
print(a.grad)

p = torch.zeros(4)
q = p.view(2, 2)
q[0, 0] = 1.0
print(p, p._version, q._version)
p.add_(1)
print(q, q._version)
print(p.view(-1, 1).shape, p.reshape(-1).shape, p.view(4).shape)

b = torch.ones(2, 3, requires_grad=True)
c = b * 2
c2 = c.view(3, 2).t().reshape(6)
print(c2, type(c2.grad_fn).__name__)
c2.sum().backward()
print(b.grad)
