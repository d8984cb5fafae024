# nn.functional activations and their modules: values, gradients, saved values.
import torch
import torch.nn as nn
import torch.nn.functional as F

print(nn.LeakyReLU(), nn.LeakyReLU(0.2, inplace=True), nn.GELU(), nn.GELU("tanh"))
print(nn.Softplus(), nn.Softplus(2, 10))
a = torch.tensor([-1.5, 0.3, 2.0, 30.0], requires_grad=True)
outs = (
    F.leaky_relu(a),
    F.leaky_relu(a, 0.2),
    F.gelu(a),
    F.gelu(a, approximate="tanh"),
    F.softplus(a),
    F.softplus(a, beta=2, threshold=5),
    nn.Softplus()(a),
)
for y in outs:
    y.sum().backward()
    print(y.grad_fn.name(), y, a.grad)
    a.grad = None
print(F.leaky_relu(a, 0.2).grad_fn._saved_negative_slope)
print(F.softplus(a).grad_fn._saved_beta, F.softplus(a).grad_fn._saved_threshold)
print(nn.Softplus()(a).grad_fn._saved_beta, F.gelu(a).grad_fn._saved_approximate)
b = a.detach() * 1
F.leaky_relu(b, 0.1, inplace=True)
print(b, b._version)
print(F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([[0], [1]]), 3).shape)
for bad in ([0.0, 1.0], [0, 3], [-1, 0]):
    try:
        F.one_hot(torch.tensor(bad), 3)
    except RuntimeError as e:
        print("RuntimeError:", e)
