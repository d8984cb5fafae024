# Seed 2, method 1: retain_grad() on intermediates before backward().
import torch

input = torch.ones([2, 2], requires_grad=False)
w1 = torch.tensor(2.0, requires_grad=True)
w2 = torch.tensor(3.0, requires_grad=True)
w3 = torch.tensor(4.0, requires_grad=True)

l1 = input * w1
l2 = l1 + w2
l3 = l1 * w3
l4 = l2 * l3
loss = l4.mean()

l1.retain_grad()
l4.retain_grad()
loss.retain_grad()

loss.backward()
print(l1.grad)
print(l4.grad)
print(loss.grad)
print(l1.retains_grad, l2.retains_grad, w1.retains_grad)
