# F.batch_norm / nn.BatchNorm1d/2d: training (batch statistics, running ones
# updated; momentum=None averages) and eval mode, NativeBatchNormBackward0 and
# the fused NativeBatchNormBackwardBackward0 up to third order, reprs, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = (
    (torch.arange(4 * 3 * 2 * 2, dtype=torch.float64).reshape(4, 3, 2, 2) / 5)
    .sin()
    .requires_grad_()
)
w = torch.tensor([1.5, 0.5, -1.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.1, 0.2, 0.3], dtype=torch.float64, requires_grad=True)


def r(t):  # 4 decimals: sums of normalized values are 0 up to rounding noise
    return round(t.item(), 4) + 0.0


for training in (True, False):
    for args in [(w, b), (None, None)]:
        rm = torch.tensor([0.1, -0.2, 0.05], dtype=torch.float64)
        rv = torch.tensor([1.0, 0.5, 2.0], dtype=torch.float64)
        y = F.batch_norm(x, rm, rv, *args, training=training, momentum=0.2)
        fn = y.grad_fn
        print(
            training,
            r(y.sum()),
            y[0, :, 0, 0],
            fn.name(),
            [
                (a, getattr(fn, a))
                for a in sorted(dir(fn))
                if a.startswith("_saved_") and a != "_saved_input"
            ],
            [e[0] is None for e in fn.next_functions],
        )
        print(rm, rv)
        ins = [x] + [a for a in args if a is not None]
        gs = torch.autograd.grad(
            (
                y
                * y
                * torch.tensor([1.0, 2.0, -1.0], dtype=torch.float64).reshape(
                    1, 3, 1, 1
                )
            ).sum(),
            ins,
            create_graph=True,
        )
        for g in gs:
            print(r(g.sum()), r(g.abs().sum()), g.grad_fn.name())
        fn = gs[0].grad_fn
        print(
            [
                (a, getattr(fn, a))
                for a in sorted(dir(fn))
                if a.startswith("_saved_")
                and a not in ("_saved_grad_out", "_saved_input")
            ],
            [e[0] is None for e in fn.next_functions],
        )
        g2 = torch.autograd.grad(sum((g * g).sum() for g in gs), ins, create_graph=True)
        print([(r(g.sum()), r(g.abs().sum())) for g in g2])
        g3 = torch.autograd.grad(sum(g.sum() for g in g2), ins)
        print([(r(g.sum()), r(g.abs().sum())) for g in g3])
torch.manual_seed(0)
m = nn.BatchNorm2d(3)
print(m, [n for n, _ in m.named_buffers()], m.num_batches_tracked)
xf = x.detach().float()
y = m(xf)
print(m.running_mean, m.running_var, m.num_batches_tracked, r(y.sum()))
m.eval()
print(r(m(xf).sum()), m.num_batches_tracked)
c = nn.BatchNorm1d(3, momentum=None, affine=False)
for _ in range(3):
    c(xf[:, :, 0, 0] * 2)
print(c, c.running_mean, c.running_var, c.num_batches_tracked)
print(
    nn.BatchNorm1d(4, affine=False, track_running_stats=False),
    nn.BatchNorm2d(3, bias=False),
)
t = nn.BatchNorm1d(3, track_running_stats=False)
t.eval()
print(r(t(xf[:, :, 0]).sum()))
for bad in (
    lambda: nn.BatchNorm2d(3)(xf[0]),
    lambda: F.batch_norm(xf[:1, :, 0, 0], None, None, training=True),
    lambda: F.batch_norm(xf, None, None),
):
    try:
        bad()
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, e)
