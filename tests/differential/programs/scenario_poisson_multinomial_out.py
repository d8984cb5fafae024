# torch.poisson (rates in, counts out, PoissonBackward0 with a zero gradient,
# generator=) and torch.multinomial(..., out=): shapes, dtypes, nodes,
# versions, determinism under a seed and PyTorch's errors. (The drawn values
# are not compared: minigrad's stream is not PyTorch's.)
import torch

r = torch.tensor([1.0, 4.0, 0.0], requires_grad=True)
y = torch.poisson(r)
print(y.dtype, y.shape, type(y.grad_fn).__name__, y.requires_grad, y.is_leaf)
print(type(y.grad_fn.next_functions[0][0]).__name__)
y.sum().backward()
print(r.grad)
print(torch.poisson(r)[2].item(), (torch.poisson(r * 0 + 3) >= 0).all().item())
d = torch.poisson(torch.full((2, 3), 2.0, dtype=torch.float64))
print(d.dtype, d.shape, d.grad_fn, bool((d == d.round()).all()))
a = torch.poisson(torch.full((50,), 5.0), generator=torch.Generator().manual_seed(7))
b = torch.poisson(torch.full((50,), 5.0), generator=torch.Generator().manual_seed(7))
print(torch.equal(a, b), 2.0 < a.mean().item() < 8.0)
torch.manual_seed(3)
c1 = torch.poisson(torch.full((20,), 2.0))
torch.manual_seed(3)
print(torch.equal(c1, torch.poisson(torch.full((20,), 2.0))))
print(torch.poisson(torch.ones(0)).shape, torch.poisson(torch.tensor(3.0) * 0).shape)
for name, f in [
    ("negative", lambda: torch.poisson(torch.tensor([-1.0]))),
    ("nan", lambda: torch.poisson(torch.tensor([float("nan")]))),
    ("long", lambda: torch.poisson(torch.tensor([1, 2]))),
    ("list", lambda: torch.poisson([1.0])),
    ("generator int", lambda: torch.poisson(torch.tensor([1.0]), generator=1)),
]:
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)

p = torch.tensor([[0.2, 0.8], [0.5, 0.5]])
out = torch.empty(0, dtype=torch.long)
res = torch.multinomial(p, 3, True, out=out)
print(
    res is out, out.shape, out.dtype, out._version, bool(((out >= 0) & (out < 2)).all())
)
same = torch.zeros(2, 3, dtype=torch.long)
print(torch.multinomial(p, 3, True, out=same) is same, same._version)
one = torch.empty(5, dtype=torch.long)
torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, out=one)
print(one.shape, sorted(one.tolist())[0] >= 0, one[0].item())
g1 = torch.empty(0, dtype=torch.long)
g2 = torch.empty(0, dtype=torch.long)
torch.multinomial(p, 4, True, generator=torch.Generator().manual_seed(1), out=g1)
torch.multinomial(p, 4, True, generator=torch.Generator().manual_seed(1), out=g2)
print(torch.equal(g1, g2))
for name, f in [
    ("float out", lambda: torch.multinomial(p, 3, True, out=torch.empty(5))),
    (
        "int out",
        lambda: torch.multinomial(p, 3, True, out=torch.empty(6, dtype=torch.int32)),
    ),
    ("list out", lambda: torch.multinomial(p, 3, True, out=[1])),
]:
    try:
        print(name, f())
    except Exception as e:
        print(name, type(e).__name__, e)
