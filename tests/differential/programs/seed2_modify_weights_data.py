# Seed 2, method 1: change a leaf's values through .data (or detach()),
# bypassing autograd; the object stays the same leaf.
import torch

a = torch.tensor([10.0, 5.0, 2.0, 3.0], requires_grad=True)
a_id = id(a)
print(a, a.is_leaf)

a.data.fill_(10.0)
print(a, a.is_leaf, id(a) == a_id)

loss = (a * a).mean()
loss.backward()
print(a.grad)

# or a.detach().fill_(10.)
b = torch.tensor([10.0, 5.0, 2.0, 3.0], requires_grad=True)
b.detach().fill_(10.0)
print(b, b.is_leaf, b._version)
loss = (b * b).mean()
loss.backward()
print(b.grad)
