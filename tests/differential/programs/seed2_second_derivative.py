# Seed 2 (prose, last section): "for a second derivative, set retain_graph".
# retain_graph=True only allows a second backward through the same graph (the
# first derivative is accumulated again); the second derivative itself needs
# create_graph=True.
import torch

x = torch.tensor(3.0, requires_grad=True)
y = x**3
y.backward(retain_graph=True)
print(x.grad)  # 3x^2 = 27
y.backward()
print(x.grad)  # accumulated: 54

x.grad = None
(dy,) = torch.autograd.grad(x**3, x, create_graph=True)
print(dy)
dy.backward()
print(x.grad)  # 6x = 18
