# Seed 2, methods 1 and 2 run literally one after the other on the SAME graph,
# as in a notebook: the second loss.backward() runs the hooks of loss and l4,
# then fails at the first node whose saved tensors were freed.
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

l1.register_hook(lambda grad: print("l1 grad: ", grad))
l4.register_hook(lambda grad: print("l4 grad: ", grad))
loss.register_hook(lambda grad: print("loss grad: ", grad))
try:
    loss.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(l1.grad)
print(w1.grad)
