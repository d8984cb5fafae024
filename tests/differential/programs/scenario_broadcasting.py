# Broadcasting: gradients are summed back to each input's shape.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
M = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
y = a * M
print(y)
y.sum().backward()
print(a.grad)
print(M.grad)

col = torch.tensor([[1.0], [2.0]], requires_grad=True)
row = torch.tensor([[10.0, 20.0, 30.0]], requires_grad=True)
s = col + row
print(s.shape)
(s * s).sum().backward()
print(col.grad)
print(row.grad)

k = torch.tensor(2.0, requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(k * v).sum().backward()
print(k.grad, v.grad)
(v / k).sum().backward()
print(k.grad, v.grad)
