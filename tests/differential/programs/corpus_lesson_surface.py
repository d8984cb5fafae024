# What public lessons reach for (issue #15): numpy's keyword spellings, size=,
# matmul's keyword names, the accelerator and default-device boilerplate,
# LazyLinear, and to() refusing requires_grad.
import torch
import torch.nn as nn

torch.manual_seed(0)
accelerator = torch.accelerator
device = accelerator.current_accelerator().type if accelerator.is_available() else "cpu"
print(device, torch.accelerator.is_available(), torch.accelerator.device_count())
# (set_default_device is left to the corpus: in this shared process it would
# leave PyTorch's device mode on for every later test)
print(torch.get_default_device())
x = torch.linspace(-1, 1, 5, device=device)
print(x)
A = torch.arange(6.0).reshape(2, 3)
print(A.sum(axis=1, keepdims=True), A.mean(axis=0), A.max(axis=1, keepdims=True))
print(A.std(axis=1, keepdims=True), A.prod(axis=0), A.argmax(axis=1), A.cumsum(axis=0))
print(torch.sum(A, axis=0, keepdims=True), A.amax(axis=0, keepdims=True))
print(torch.matmul(input=A, other=A.T))
print(torch.randn(size=(2, 2)), torch.rand(size=(3,)))
print(torch.zeros(size=(2,)), torch.ones(size=(1, 2)))
print(type(A))
net = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
print(net)
print(net[0].weight)
y = net(torch.rand(2, 3))
print(net, y.shape, type(net[0]) is nn.Linear)
print(net[0].weight, net[2].bias)
try:
    A.to(requires_grad=True)
except TypeError as e:
    print(e)
