# L1Loss, SmoothL1Loss (beta, and beta 0 as L1), HuberLoss (delta): values, nodes,
# saved attributes, gradients of input and target, second order; module reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.tensor(
    [[0.5, -1.0, 2.0], [-0.25, 1.5, -2.5]], dtype=torch.float64, requires_grad=True
)
t = torch.tensor(
    [[0.25, -0.5, 1.0], [0.0, 2.5, -2.25]], dtype=torch.float64, requires_grad=True
)
cases = {
    "l1": lambda: F.l1_loss(x, t),
    "l1_sum": lambda: F.l1_loss(x, t, reduction="sum"),
    "l1_none": lambda: nn.L1Loss(reduction="none")(x, t),
    "sl1": lambda: F.smooth_l1_loss(x, t),
    "sl1_beta": lambda: nn.SmoothL1Loss(beta=0.5)(x, t),
    "sl1_none": lambda: F.smooth_l1_loss(x, t, reduction="none", beta=2.0),
    "sl1_sum": lambda: F.smooth_l1_loss(x, t, reduction="sum"),
    "sl1_beta0": lambda: F.smooth_l1_loss(x, t, beta=0.0),
    "huber": lambda: F.huber_loss(x, t),
    "huber_d": lambda: nn.HuberLoss(delta=0.8)(x, t),
    "huber_none": lambda: F.huber_loss(x, t, reduction="none", delta=2.0),
    "huber_sum": lambda: F.huber_loss(x, t, reduction="sum", delta=0.3),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y,
        fn.name(),
        [
            (a, getattr(fn, a))
            for a in sorted(dir(fn))
            if a.startswith("_saved_")
            and a not in ("_saved_self", "_saved_target", "_saved_other")
        ],
    )
    gx, gt = torch.autograd.grad((y * y).sum(), (x, t), create_graph=True)
    print(gx, gt, gx.grad_fn.name())
    g2 = torch.autograd.grad(
        (gx * gx).sum() + (gt * gx).sum(), (x, t), create_graph=True
    )
    print(tuple(g + 0.0 for g in g2))  # (+ 0.0: signs of zero are not compared)
print(
    nn.L1Loss(),
    nn.SmoothL1Loss(beta=0.5),
    nn.HuberLoss(delta=2),
    nn.ELU(),
    nn.ELU(0.5, True),
    nn.SELU(),
    nn.CELU(0.7, True),
    nn.Hardtanh(),
    nn.Hardtanh(-2, 2, True),
    nn.ReLU6(True),
    nn.SiLU(),
    nn.Mish(True),
    nn.LogSigmoid(),
)
print(
    nn.Sequential(nn.Linear(2, 2), nn.SiLU(), nn.ELU())[1:](torch.tensor([[1.0, -2.0]]))
)
