# Seed 3, section 2: keep an intermediate's grad with retain_grad().  The seed
# uses l4 without defining it; it is the l1..l4 graph of seed 2.
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
l4.retain_grad()
loss.backward()
print(l4.grad)
