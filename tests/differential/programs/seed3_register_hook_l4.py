# Seed 3, section 3: print an intermediate's grad with register_hook (l4 from
# the seed 2 graph).
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
l4.register_hook(lambda grad: print("l4 grad:", grad))
loss.backward()
print(w3.grad)
