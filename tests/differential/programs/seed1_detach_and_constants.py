# Seed 1 (prose): detach() cuts a tensor out of the graph as a leaf, and an op
# on a tensor that does not require grad (b = a + 1) stays a leaf.
import torch

a = torch.tensor([1.0, 2.0])
b = a + 1
print(a.requires_grad, b.is_leaf, b.grad_fn)

w = torch.tensor([1.0, 2.0], requires_grad=True)
h = w * 3
d = h.detach()
print(h.is_leaf, d.is_leaf, d.requires_grad, d.grad_fn)
print(d)
