# F.layer_norm / nn.LayerNorm: NativeLayerNormBackward0 and its saved
# mean/rstd, optional weight and bias (edges (None, 0) when left out), the fused
# NativeLayerNormBackwardBackward0 with three outputs, up to third derivatives
# (mean and rstd held fixed there, as PyTorch does), module reprs and errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor(
    [[0.5, -1.0, 2.0], [-0.25, 1.5, -2.5]], dtype=torch.float64, requires_grad=True
)
w = torch.tensor([1.5, 0.5, -1.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)
for args in [(w, b), (w, None), (None, None)]:
    y = F.layer_norm(x, (3,), *args)
    fn = y.grad_fn
    print(
        y,
        fn.name(),
        [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith("_saved_")],
        [e[0] is None for e in fn.next_functions],
    )
    ins = [x] + [a for a in args if a is not None]
    gs = torch.autograd.grad(
        (y * y * torch.tensor([[1.0, 2.0, -1.0]], dtype=torch.float64)).sum(),
        ins,
        create_graph=True,
    )
    for g in gs:
        print(g, g.grad_fn.name())
    fn = gs[0].grad_fn
    print(
        [
            (a, getattr(fn, a))
            for a in sorted(dir(fn))
            if a.startswith("_saved_") and a not in ("_saved_grad_out",)
        ],
        [e[0] is None for e in fn.next_functions],
    )
    total = sum((g * g).sum() for g in gs)
    g2 = torch.autograd.grad(total, ins, create_graph=True)
    print(g2)
    g3 = torch.autograd.grad(sum(g.sum() for g in g2), ins)
    print(g3)
x3 = torch.arange(24.0).reshape(2, 3, 4).sin().requires_grad_()
m = nn.LayerNorm((3, 4))
y = m(x3)
print(m, y.grad_fn._saved_result1.shape, y.grad_fn._saved_normalized_shape)
(y * torch.arange(12.0).reshape(3, 4).cos()).sum().backward()
print(x3.grad, m.weight.grad, m.bias.grad)
print(
    nn.LayerNorm(3),
    nn.LayerNorm((2, 3), eps=1e-6, elementwise_affine=False),
    nn.LayerNorm(4, bias=False),
    [n for n, _ in nn.LayerNorm(4, bias=False).named_parameters()],
)
for bad in (lambda: F.layer_norm(x, (4,)), lambda: nn.LayerNorm(3)(x)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
