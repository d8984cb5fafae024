# logaddexp, hypot, xlogy (tensor, number other, number self), logit, deg2rad,
# rad2deg, isclose: values, node names, saved numbers, double-backward graphs.
import torch

a = torch.tensor([0.5, -1.0, 2.0, 0.0], dtype=torch.float64, requires_grad=True)
b = torch.tensor([1.5, 0.25, -0.5, 0.0], dtype=torch.float64, requires_grad=True)
p = torch.tensor([0.2, 0.5, 0.9, 1.2], dtype=torch.float64, requires_grad=True)


def chain(y):
    out, n = [], y.grad_fn
    while n is not None and len(out) < 4:
        out.append(n.name())
        n = n.next_functions[0][0] if n.next_functions else None
    return out


cases = {
    "logaddexp": lambda: torch.logaddexp(a, b),
    "hypot": lambda: a.hypot(b),
    "xlogy": lambda: torch.xlogy(a, b.abs() + 0.5),
    "xlogy_zero": lambda: a.xlogy(b),
    "xlogy_num": lambda: a.xlogy(2),
    "logit": lambda: p.logit(),
    "logit_eps": lambda: p.logit(eps=0.1),
    "deg2rad": lambda: a.deg2rad(),
    "rad2deg": lambda: torch.rad2deg(a),
}
for k, f in cases.items():
    y = f()
    fn = y.grad_fn
    print(
        k,
        y,
        fn.name(),
        [
            (s, getattr(fn, s))
            for s in sorted(dir(fn))
            if s.startswith("_saved_") and not hasattr(getattr(fn, s), "shape")
        ],
    )
    gs = torch.autograd.grad(
        (y * y).sum(), (a, b, p), create_graph=True, allow_unused=True
    )
    print([None if g is None else (g, chain(g)) for g in gs])
    live = [g for g in gs if g is not None and g.requires_grad]
    print(
        torch.autograd.grad(
            sum((g * g).sum() for g in live), (a, b, p), allow_unused=True
        )
    )
print(
    torch.isclose(a, a + 1e-9),
    torch.isclose(a, b, atol=2),
    a.isclose(a * float("nan"), equal_nan=True),
)
for o in (-1.0, 0):
    y = a.xlogy(o)
    (g,) = torch.autograd.grad((y * y).sum(), a, create_graph=True)
    print(y, g, g.grad_fn.name(), y.grad_fn._saved_other)
y = torch.xlogy(2, b)
print(y, y.grad_fn.name(), y.grad_fn._saved_self)
(g,) = torch.autograd.grad((y * y).sum(), b, create_graph=True)
print(g, chain(g))
h = torch.tensor([0.0, 1.5, 3.0], requires_grad=True)
print(h.xlogy(2.0).dtype, torch.xlogy(3, h).dtype, h.logit().dtype, h.hypot(h).dtype)
print(torch.logaddexp(h, h).sum().backward(), h.grad)
