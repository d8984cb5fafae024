# max_pool2d / avg_pool2d (stride, padding, dilation, ceil_mode, indices,
# count_include_pad, divisor_override, unbatched): values, nodes, saved
# attributes, first and second derivatives, module reprs in a small CNN, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    (torch.arange(2 * 2 * 5 * 6, dtype=torch.float64).reshape(2, 2, 5, 6) / 7)
    .sin()
    .requires_grad_()
)
cases = {
    "max": lambda: F.max_pool2d(x, 2),
    "max_s": lambda: F.max_pool2d(x, 3, stride=2, padding=1),
    "max_dil": lambda: F.max_pool2d(x, 2, 1, 0, 2),
    "max_ceil": lambda: F.max_pool2d(x, 2, ceil_mode=True),
    "max_idx": lambda: F.max_pool2d(x, (2, 3), return_indices=True)[0],
    "max_unbatched": lambda: F.max_pool2d(x[0], 2),
    "avg": lambda: F.avg_pool2d(x, 2),
    "avg_p": lambda: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False),
    "avg_pin": lambda: F.avg_pool2d(x, 3, 2, 1),
    "avg_ceil": lambda: F.avg_pool2d(x, 2, ceil_mode=True),
    "avg_div": lambda: F.avg_pool2d(x, 2, divisor_override=3),
    "avg_ceil_nopad": lambda: F.avg_pool2d(
        x, 3, 2, 1, ceil_mode=True, count_include_pad=False
    ),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y.shape,
        y.sum(),
        fn.name(),
        [
            (a, getattr(fn, a))
            for a in sorted(dir(fn))
            if a.startswith("_saved_") and a != "_saved_self"
        ],
    )
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(
        g.sum(),
        g.abs().sum(),
        g.grad_fn.name(),
        [
            (a, getattr(g.grad_fn, a))
            for a in sorted(dir(g.grad_fn))
            if a.startswith("_saved_") and a != "_saved_indices"
        ],
    )
    (g2,) = torch.autograd.grad((g * g).sum(), x)
    print(g2.sum(), g2.abs().sum())
print(F.max_pool2d(x, 2, return_indices=True)[1][0, 0])
print(
    nn.MaxPool2d(2),
    nn.MaxPool2d(3, 2, 1),
    nn.AvgPool2d(2),
    nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False),
)
net = nn.Sequential(
    nn.Conv2d(2, 3, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(3 * 2 * 3, 2),
)
print(net)
for bad in (lambda: F.max_pool2d(x, 2, padding=2), lambda: F.max_pool2d(x[0, 0], 2)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
