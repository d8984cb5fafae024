# backward(create_graph=True) warns and leaves a differentiable .grad.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x**3).sum()
y.backward(create_graph=True)
print(x.grad)
print(x.grad.requires_grad, x.grad.is_leaf)
g = x.grad.sum()
x.grad = None
g.backward()
print(x.grad)
