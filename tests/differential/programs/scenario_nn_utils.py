# nn.utils: clip_grad_norm_ (2 and inf norms, its non-finite error),
# clip_grad_value_, parameters_to_vector (CatBackward0 of views) and
# vector_to_parameters.
import torch
import torch.nn as nn
from torch.nn.utils import (
    clip_grad_norm_,
    clip_grad_value_,
    parameters_to_vector,
    vector_to_parameters,
)

net = nn.Linear(3, 2)
with torch.no_grad():
    net.weight.copy_(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]))
    net.bias.copy_(torch.tensor([0.1, -0.2]))
x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
(net(x) ** 2).sum().backward()
print(net.weight.grad, net.bias.grad)
print(
    clip_grad_norm_(net.parameters(), 1.0),
    net.weight.grad,
    net.bias.grad,
    net.weight.grad._version,
)
print(clip_grad_norm_(net.parameters(), 100.0, norm_type=float("inf")), net.bias.grad)
print(clip_grad_norm_([], 1.0), clip_grad_norm_(net.weight, 0.5, 1.0))
clip_grad_value_(net.parameters(), 0.05)
print(net.weight.grad, net.bias.grad)
v = parameters_to_vector(net.parameters())
print(v, v.grad_fn, v.grad_fn.next_functions[0][0])
vector_to_parameters(v.detach() * 2, net.parameters())
print(net.weight, net.bias)
net.weight.grad[0, 0] = float("nan")
try:
    clip_grad_norm_(net.parameters(), 1.0, error_if_nonfinite=True)
except RuntimeError as e:
    print("RuntimeError:", e)
