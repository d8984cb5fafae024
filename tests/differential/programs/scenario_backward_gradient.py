# backward(gradient=v) for non-scalars, and its shape errors.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * x
y.backward(gradient=torch.tensor([1.0, 0.1, 0.01]))
print(x.grad)

x.grad = None
y = x * 2
y.backward(torch.ones(3))
print(x.grad)

y = x * 3
try:
    y.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    y.backward(torch.ones(4))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (x * 3).view(3, 1).backward(torch.ones(3))
except RuntimeError as e:
    print("RuntimeError:", e)
m = (x * 4).sum()
m.backward(torch.tensor(2.0))
print(x.grad)
