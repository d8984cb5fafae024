# max_pool1d / avg_pool1d (as 2-d pools of height 1), adaptive_avg_pool2d and
# adaptive_avg_pool1d (a mean for 1 x 1): values, node chains with their saved
# attributes, first and second derivatives, module reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    (torch.arange(2 * 2 * 7, dtype=torch.float64).reshape(2, 2, 7) / 3)
    .sin()
    .requires_grad_()
)
x2 = (
    (torch.arange(2 * 2 * 5 * 7, dtype=torch.float64).reshape(2, 2, 5, 7) / 3)
    .sin()
    .requires_grad_()
)
cases = {
    "max1d": lambda: F.max_pool1d(x, 2),
    "max1d_s": lambda: F.max_pool1d(x, 3, 2, 1),
    "max1d_idx": lambda: F.max_pool1d(x, 2, return_indices=True)[0],
    "avg1d": lambda: F.avg_pool1d(x, 3, 2, 1),
    "avg1d_nopad": lambda: F.avg_pool1d(x, 3, count_include_pad=False, padding=1),
    "aap2d": lambda: F.adaptive_avg_pool2d(x2, (2, 3)),
    "aap2d_1": lambda: F.adaptive_avg_pool2d(x2, 1),
    "aap2d_none": lambda: F.adaptive_avg_pool2d(x2, (None, 3)),
    "aap2d_up": lambda: F.adaptive_avg_pool2d(x2, (6, 8)),
    "aap1d": lambda: F.adaptive_avg_pool1d(x, 3),
}
for k, f in cases.items():
    y = f()
    n, chain = y.grad_fn, []
    while n is not None:
        chain.append(
            (
                n.name(),
                [
                    (a, getattr(n, a))
                    for a in sorted(dir(n))
                    if a.startswith("_saved_")
                    and a not in ("_saved_self", "_saved_result1")
                ],
            )
        )
        n = n.next_functions[0][0] if n.next_functions else None
    print(k, y.shape, y.flatten()[:4], chain)
    ins = [t for t in (x, x2) if t.requires_grad]
    gs = torch.autograd.grad((y * y).sum(), ins, create_graph=True, allow_unused=True)
    g = [g for g in gs if g is not None][0]
    print(g.flatten()[:6], g.grad_fn.name())
    g2 = torch.autograd.grad((g * g).sum(), ins, allow_unused=True)
    print([None if t is None else t.flatten()[:6] for t in g2])
print(F.max_pool1d(x, 2, return_indices=True)[1][0])
print(
    nn.MaxPool1d(2),
    nn.AvgPool1d(3, 2, 1),
    nn.AdaptiveAvgPool2d(1),
    nn.AdaptiveAvgPool2d((2, 3)),
    nn.AdaptiveAvgPool1d(4),
)
print(
    nn.AdaptiveAvgPool2d((2, 2))(x2).shape,
    nn.MaxPool1d(3, 2)(x).shape,
    nn.AvgPool1d(2)(x).shape,
)
