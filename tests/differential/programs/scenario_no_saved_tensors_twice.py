# A graph whose nodes save no tensors can be backwarded twice.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
y = (a + a).sum()
y.backward()
y.backward()
print(a.grad)

b = torch.tensor([1.0, 2.0], requires_grad=True)
z = (b - 1).view(2, 1).sum()
z.backward()
z.backward()
print(b.grad)

c = torch.tensor([1.0, 2.0], requires_grad=True)
w = (c + 1).exp().sum()  # exp saves its result
w.backward()
try:
    w.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(c.grad)
