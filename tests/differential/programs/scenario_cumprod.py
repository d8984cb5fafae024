# cumprod along a dim: values, CumprodBackward0, first and second derivatives,
# also with zeros in the input (no division then).
import torch

x = torch.tensor(
    [[0.5, -1.0, 2.0, 1.5], [-0.25, 1.5, -2.5, 0.75]],
    dtype=torch.float64,
    requires_grad=True,
)
z = torch.tensor(
    [[0.5, 0.0, 2.0, 1.5], [0.0, 1.5, 0.0, 0.75]],
    dtype=torch.float64,
    requires_grad=True,
)
for t, dim in ((x, 1), (x, 0), (x, -1), (z, 1)):
    y = t.cumprod(dim)
    fn = y.grad_fn
    print(y, fn.name(), fn._saved_dim)
    (g,) = torch.autograd.grad((y * y).sum(), t, create_graph=True)
    print(g, g.grad_fn is not None)
    (g2,) = torch.autograd.grad((g * g).sum(), t)
    print(g2)
print(torch.cumprod(torch.tensor([2, 3, 4]), 0), torch.tensor(3.0).cumprod(0))
