# masked_select (broadcast too) and masked_scatter (+ in place): values, nodes,
# saved attributes, first and second derivatives (MaskedScatterBackward0,
# MaskedScatterBackwardBackward0), errors.
import torch

x = torch.tensor(
    [[0.5, -1.0, 2.0], [-0.25, 1.5, -2.5]], dtype=torch.float64, requires_grad=True
)
s = torch.tensor([3.0, -2.0, 1.0, 0.5, 4.0], dtype=torch.float64, requires_grad=True)
row = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
cases = {
    "select": lambda: x.masked_select(x > 0),
    "select_bcast": lambda: torch.masked_select(
        row, torch.tensor([[True, False, True], [False, False, True]])
    ),
    "scatter": lambda: x.masked_scatter(x < 0, s),
    "scatter_zeros": lambda: torch.zeros(2, 3, dtype=torch.float64).masked_scatter(
        x > 0, x * 2
    ),
    "scatter_bcast_mask": lambda: x.masked_scatter(
        torch.tensor([True, False, True]), s * 1
    ),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y,
        fn.name(),
        [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith("_saved_")],
    )
    ins = [t for t in (x, s, row)]
    gs = torch.autograd.grad((y * y).sum(), ins, create_graph=True, allow_unused=True)
    print([None if g is None else (g, g.grad_fn.name()) for g in gs])
    live = [g for g in gs if g is not None]
    print(torch.autograd.grad(sum((g * g).sum() for g in live), ins, allow_unused=True))
z = x.detach().clone()
z.masked_scatter_(z > 0, torch.tensor([9.0, 8.0, 7.0], dtype=torch.float64))
print(z, z._version)
for bad in (
    lambda: x.masked_select(x),
    lambda: x.masked_scatter(x > 0, torch.ones(2, dtype=torch.float64)),
    lambda: x.masked_scatter(x > 0, torch.ones(5)),
):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
