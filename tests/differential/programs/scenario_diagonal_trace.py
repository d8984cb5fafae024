# diagonal (a view: writes through it reach the base), diag of a matrix (a
# copy) and of a vector, diag_embed, trace, index_fill: values, nodes, saved
# attributes, first and second derivatives, errors.
import torch

x = torch.tensor(
    [[0.5, -1.0, 2.0], [-0.25, 1.5, -2.5]], dtype=torch.float64, requires_grad=True
)
v = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
cube = (torch.arange(24.0, dtype=torch.float64).reshape(2, 3, 4) / 10).requires_grad_()
cases = {
    "diagonal": lambda: x.diagonal(),
    "diagonal_off": lambda: x.diagonal(1),
    "diagonal_neg": lambda: torch.diagonal(x, -1),
    "diagonal_3d": lambda: cube.diagonal(0, 2, 0),
    "diag2": lambda: x.diag(),
    "diag2k": lambda: torch.diag(x, 1),
    "diag1": lambda: v.diag(),
    "diag1k": lambda: torch.diag(v, -1),
    "diag_embed": lambda: torch.diag_embed(x),
    "diag_embed_dims": lambda: x.diag_embed(1, 0, 2),
    "trace": lambda: x.trace(),
    "trace_sq": lambda: (x @ x.t()).trace(),
    "index_fill": lambda: x.index_fill(1, torch.tensor([0, 2]), -1.0),
    "index_fill_t": lambda: x.index_fill(0, torch.tensor([1]), v.sum()),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y,
        fn.name(),
        [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith("_saved_")],
        y._base is not None,
    )
    ins = [t for t in (x, v, cube) if t.requires_grad]
    gs = torch.autograd.grad((y * y).sum(), ins, create_graph=True, allow_unused=True)
    print(
        [
            None if g is None else (g, g.grad_fn.name() if g.grad_fn else None)
            for g in gs
        ]
    )
    live = [g for g in gs if g is not None and g.requires_grad]
    if live:
        print(
            torch.autograd.grad(
                sum((g * g).sum() for g in live), ins, allow_unused=True
            )
        )
z = x.detach().clone()
d = z.diagonal()
d.mul_(10)
print(z, d._version, z._version)
w = x * 1
w.diagonal().zero_()
print(w, w.grad_fn)
w.sum().backward()
print(x.grad)
for f in [
    lambda: torch.ones(2, 3, 4).diag(),
    lambda: torch.ones(3).trace(),
    lambda: x.diagonal(0, 1, 1),
    lambda: x.index_fill(1, torch.tensor([0]), torch.ones(2)),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
