# Adaptive max pooling: values and indices (the first maximum wins a tie),
# AdaptiveMaxPool2DBackward0 and its saved tensors, the gradient going to each
# window's maximum, the double-backward node, module reprs and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor(
    [
        [
            [1.0, 3.0, 3.0, 2.0, 0.0],
            [4.0, -1.0, 2.0, 2.0, 5.0],
            [0.5, 0.5, 6.0, 1.0, 1.0],
        ]
    ],
    requires_grad=True,
)
y, i = F.adaptive_max_pool2d(x, (2, 3), return_indices=True)
print(y, i)
fn = y.grad_fn
print(fn.name(), fn._saved_result1, fn._saved_self is x)
y.sum().backward()
print(x.grad)
v, j = F.adaptive_max_pool1d(x, 2, return_indices=True)
print(v, j, v.grad_fn.name(), v.grad_fn.next_functions[0][0].name())
y = F.adaptive_max_pool2d(x, (2, 3))
(g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
print(g.grad_fn.name(), g.grad_fn._saved_indices)
print(torch.autograd.grad(g.sum(), x, allow_unused=True))
print(nn.AdaptiveMaxPool2d((2, None)), nn.AdaptiveMaxPool1d(3, return_indices=True))
print(nn.AdaptiveMaxPool2d(1)(x).shape, nn.AdaptiveMaxPool1d(3, True)(x)[1].shape)
for bad in (
    lambda: F.adaptive_max_pool2d(x[0], 2),
    lambda: F.adaptive_max_pool2d(x.view(1, 1, 1, 3, 5), 2),
    lambda: F.adaptive_max_pool1d(x, (2, 3)),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
for bad in (
    lambda: F.adaptive_max_pool2d(x[0], (2, 2)),
    lambda: F.adaptive_avg_pool2d(x[0], (2, 2)),
    lambda: F.adaptive_avg_pool2d(x[0], 2),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
