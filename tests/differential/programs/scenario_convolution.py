# conv1d/conv2d (bias, stride, padding incl. 'same', dilation, groups, an
# unbatched input): values, ConvolutionBackward0's saved attributes, first and
# second derivatives through ConvolutionBackwardBackward0, module reprs, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    (torch.arange(2 * 4 * 5 * 6, dtype=torch.float64).reshape(2, 4, 5, 6) / 50)
    .sin()
    .requires_grad_()
)
w = (
    (torch.arange(6 * 2 * 3 * 3, dtype=torch.float64).reshape(6, 2, 3, 3) / 7)
    .cos()
    .requires_grad_()
)
b = torch.tensor(
    [0.1, -0.2, 0.3, 0.0, 0.5, -0.5], dtype=torch.float64, requires_grad=True
)
cases = {
    "plain": lambda: F.conv2d(x, w[:, :2].repeat(1, 2, 1, 1)),
    "bias_stride_pad": lambda: F.conv2d(
        x, w[:, :2].repeat(1, 2, 1, 1), b, stride=2, padding=1
    ),
    "groups_dilation": lambda: F.conv2d(
        x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2
    ),
    "same": lambda: F.conv2d(x, w, None, padding="same", groups=2),
    "unbatched": lambda: F.conv2d(x[0], w, b, groups=2),
    "conv1d": lambda: F.conv1d(x[:, :, 0], w[:, :, 0], b, padding=2, groups=2),
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
            if a.startswith("_saved_")
            and a not in ("_saved_input", "_saved_weight", "_saved_self")
        ],
    )
    gs = torch.autograd.grad(
        (y * y).sum(), (x, w, b), create_graph=True, allow_unused=True
    )
    print(
        [None if g is None else (g.sum(), g.abs().sum(), g.grad_fn.name()) for g in gs]
    )
    live = [g for g in gs if g is not None]
    g2 = torch.autograd.grad(
        sum((g * g).sum() for g in live), (x, w, b), allow_unused=True
    )
    print([None if g is None else (g.sum(), g.abs().sum()) for g in g2])
torch.manual_seed(0)
print(
    nn.Conv2d(3, 6, 3),
    nn.Conv2d(3, 6, (3, 5), stride=2, padding=1, bias=False),
    nn.Conv2d(4, 4, 3, groups=2, dilation=2, padding="same"),
    nn.Conv1d(2, 3, 4),
)
m = nn.Conv2d(4, 6, 3, padding=1)
print(m.weight.shape, m.bias.shape, m(x.float()).shape)
for bad in (
    lambda: F.conv2d(x, w),
    lambda: F.conv2d(x[0, 0], w),
    lambda: F.conv2d(x, w.float(), groups=2),
    lambda: F.conv2d(x, w, groups=4),
    lambda: F.conv2d(x, w[:4], groups=4),
):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
