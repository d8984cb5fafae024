# Seed 2: y = 2 * dot(x, x) gives x.grad = 4x; then zero the grad and
# backward a non-scalar through .sum().
import torch

x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
y.backward()
print(x.grad)

x.grad.zero_()  # first clear the stored gradient
y = x * x
y.sum().backward()
print(x.grad)
print(y.grad_fn, y.sum().grad_fn)
