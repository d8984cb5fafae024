# The random API lessons reach for: multinomial, the in-place fills (random_,
# uniform_, normal_, exponential_, geometric_, cauchy_, log_normal_,
# bernoulli_), bernoulli, normal, randint_like / rand_like / randn_like. The
# values need not be PyTorch's stream: printed are shapes, dtypes, ranges,
# determinism under manual_seed and generator=, nodes, gradients and errors.
import torch


def step(name, f):
    try:
        t = f()
        print(name, tuple(t.shape), t.dtype, type(t.grad_fn).__name__)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


def twice(f):
    """The same draw twice, from the same seed and from equal generators."""
    torch.manual_seed(3)
    a = f(None)
    torch.manual_seed(3)
    b = f(None)
    c = f(torch.Generator().manual_seed(5))
    d = f(torch.Generator().manual_seed(5))
    return torch.equal(a, b) and torch.equal(c, d)


p = torch.tensor([0.1, 0.2, 0.0, 0.7])
rows = torch.tensor([[1.0, 0.0, 3.0], [0.0, 2.0, 2.0]])
m = torch.multinomial(p, 3)
print(m.dtype, m.shape, sorted(m.tolist()) != [2] * 3, len(set(m.tolist())) == 3)
m = torch.multinomial(rows, 2)
print(m.shape, m[0].sort().values.tolist(), m[1].sort().values.tolist())
m = torch.multinomial(p, 50, replacement=True)
print(m.shape, 2 in m.tolist(), bool((m >= 0).all() and (m < 4).all()))
print(
    torch.multinomial(torch.tensor([0.0, 1.0]), 3, True).tolist(),
    p.multinomial(1).shape,
)
print(twice(lambda g: torch.multinomial(p, 2, generator=g)))
print(twice(lambda g: torch.multinomial(rows, 6, True, generator=g)))
step("mn grad", lambda: torch.multinomial(torch.ones(3, requires_grad=True), 1))
step("mn no replacement", lambda: torch.multinomial(p, 5))
step("mn 3d", lambda: torch.multinomial(torch.ones(2, 2, 3), 2))
step("mn 0d", lambda: torch.multinomial(torch.tensor(1.0), 1))
step("mn negative", lambda: torch.multinomial(torch.tensor([-1.0, 2.0]), 1))
step("mn inf", lambda: torch.multinomial(torch.tensor([float("inf"), 1.0]), 1))
step("mn nan", lambda: torch.multinomial(torch.tensor([float("nan"), 1.0]), 1))
step("mn zero sum", lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1))
step("mn int", lambda: torch.multinomial(torch.tensor([1, 2]), 1))
step("mn 0 samples", lambda: torch.multinomial(p, 0))
step("mn empty", lambda: torch.multinomial(torch.ones(0), 1))
step("mn generator", lambda: torch.multinomial(p, 1, generator=1))

x = torch.empty(200)
print(bool(((x.uniform_(2, 3) >= 2) & (x < 3)).all()), x._version)
print(bool((x.random_(3, 7) >= 3).all() and (x < 7).all()), x.frac().abs().sum().item())
print(
    bool((x.random_(5) < 5).all()),
    bool((x.random_() >= 0).all() and (x <= 2**24).all()),
)
print(bool((x.exponential_(2.0) >= 0).all()), bool((x.geometric_(0.3) >= 1).all()))
print(x.frac().abs().sum().item(), bool((x.log_normal_(0, 0.5) > 0).all()))
print(x.cauchy_().dtype, sorted(set(x.bernoulli_(0.5).tolist())), x.normal_(1, 0.0)[:3])
print(sorted(set(x.bernoulli_(torch.tensor(0.0)).tolist())), x._version)
i = torch.empty(100, dtype=torch.int64)
print(
    i.random_(-3, 2).min() >= -3,
    i.max() < 2,
    i.random_(10).dtype,
    i.geometric_(0.5).min(),
)
print(
    torch.empty(50, dtype=torch.bool).random_().dtype,
    torch.empty(3, dtype=torch.int8).random_().min() >= 0,
)
print(sorted(set(torch.empty(50, dtype=torch.int64).bernoulli_(0.5).tolist())))
for fill in (
    lambda t, g: t.uniform_(generator=g), lambda t, g: t.normal_(generator=g),
    lambda t, g: t.random_(generator=g), lambda t, g: t.random_(2, 9, generator=g),
    lambda t, g: t.exponential_(generator=g),
    lambda t, g: t.geometric_(0.5, generator=g),
    lambda t, g: t.cauchy_(generator=g), lambda t, g: t.log_normal_(generator=g),
    lambda t, g: t.bernoulli_(0.5, generator=g),
    lambda t, g: t.bernoulli_(torch.full((20,), 0.5), generator=g),
):  # fmt: skip
    print(twice(lambda g, fill=fill: fill(torch.empty(20), g)))

# an in-place fill of a non-leaf records its node; no gradient flows through it
w = torch.tensor([0.5, 0.2, 0.9], requires_grad=True)
for name in (
    "uniform_",
    "normal_",
    "random_",
    "exponential_",
    "cauchy_",
    "log_normal_",
):
    y = w * 2
    getattr(y, name)()
    y.sum().backward()
    print(name, type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0].name(), w.grad)
y = w * 2
print(type(y.random_(4).grad_fn).__name__, type(y.random_(1, 4).grad_fn).__name__)
print(
    type(y.geometric_(0.5).grad_fn).__name__, type(y.bernoulli_(0.5).grad_fn).__name__
)
y.bernoulli_(w)
print(type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
y.sum().backward()
print(w.grad)
b = torch.bernoulli(w)
print(b.grad_fn.name(), b.requires_grad, sorted(set(b.tolist())) <= [0.0, 1.0])
b.sum().backward()
print(w.grad, torch.bernoulli(w, 0.5).grad_fn, w.bernoulli().dtype)
print(twice(lambda g: torch.bernoulli(torch.full((30,), 0.5), generator=g)))
step("fill a leaf", lambda: w.uniform_())
step("random_ of a leaf", lambda: w.random_())
with torch.no_grad():
    print(type(w.exponential_()).__name__, w.grad_fn, w.requires_grad)

step("bernoulli p>1", lambda: torch.bernoulli(torch.tensor([2.0, 1.0])))
step("bernoulli int", lambda: torch.bernoulli(torch.tensor([1, 0])))
step("bernoulli_ p=2", lambda: torch.empty(2).bernoulli_(2.0))
step(
    "bernoulli_ tensor p",
    lambda: torch.empty(3).bernoulli_(torch.tensor([0.5, 2.0, 0.5])),
)
step("bernoulli_ shapes", lambda: torch.empty(3).bernoulli_(torch.tensor([0.5, 0.5])))
step("random_ from >= to", lambda: torch.empty(2).random_(5, 2))
step("random_ to 0", lambda: torch.empty(2).random_(0))
step("uniform_ from > to", lambda: torch.empty(2).uniform_(2, 1))
step("uniform_ int", lambda: torch.empty(2, dtype=torch.long).uniform_())
step("normal_ std < 0", lambda: torch.empty(2).normal_(0, -1))
step("normal_ int", lambda: torch.empty(2, dtype=torch.long).normal_())
step("exponential_ 0", lambda: torch.empty(2).exponential_(0))
step("exponential_ int", lambda: torch.empty(2, dtype=torch.long).exponential_())
step("geometric_ p=1", lambda: torch.empty(2).geometric_(1))
step("cauchy_ sigma", lambda: torch.empty(2).cauchy_(1, -1))
step("cauchy_ int", lambda: torch.empty(2, dtype=torch.long).cauchy_())
step("log_normal_ std", lambda: torch.empty(2).log_normal_(1, -2))
step("log_normal_ int", lambda: torch.empty(2, dtype=torch.long).log_normal_())

# normal(), randint_like, rand_like, randn_like
print(
    torch.normal(2, 3, size=(2, 3)).shape,
    torch.normal(0.0, 1.0, (2,), dtype=torch.float64).dtype,
)
print(torch.normal(0, 1, size=(2,), requires_grad=True).requires_grad)
mean = torch.zeros(2, 1, requires_grad=True)
std = torch.ones(3, requires_grad=True)
for y in (torch.normal(mean, 1.0), torch.normal(0.0, std), torch.normal(mean, std)):
    y.sum().backward()
    saved = [a for a in dir(y.grad_fn) if a.startswith("_saved")]
    print(y.shape, y.grad_fn.name(), [getattr(y.grad_fn, a) for a in saved])
print(
    mean.grad,
    std.grad,
    torch.normal(torch.zeros(1, dtype=torch.float64), torch.ones(1)).dtype,
)
print(
    torch.normal(mean, 0.0).tolist(),
    twice(lambda g: torch.normal(mean, std, generator=g)),
)
step("normal numbers", lambda: torch.normal(0.0, 1.0))
step("normal std < 0", lambda: torch.normal(0.0, -1.0, (2,)))
step("normal std tensor < 0", lambda: torch.normal(0.0, torch.tensor([-1.0])))
step("normal int", lambda: torch.normal(torch.zeros(2, dtype=torch.long), 1.0))
step("normal shapes", lambda: torch.normal(torch.zeros(2), torch.ones(3)))
f = torch.ones(2, 3)
r = torch.randint_like(f, 10)
print(
    r.dtype,
    r.shape,
    bool((r >= 0).all() and (r < 10).all()),
    r.frac().abs().sum().item(),
)
r = torch.randint_like(f, 3, 5, dtype=torch.long)
print(r.dtype, bool((r >= 3).all() and (r < 5).all()), torch.randint_like(r, 4).dtype)
print(twice(lambda g: torch.randint_like(f, 100, generator=g)))
print(
    twice(lambda g: torch.rand_like(f, generator=g)),
    twice(lambda g: torch.randn_like(f, generator=g)),
)
step("randint_like low >= high", lambda: torch.randint_like(f, 10, 3))
step("randint_like 0", lambda: torch.randint_like(f, 0))
step("rand_like int", lambda: torch.rand_like(torch.ones(2, dtype=torch.long)))
step("randn_like int", lambda: torch.randn_like(torch.ones(2, dtype=torch.long)))
step("rand int", lambda: torch.rand(2, dtype=torch.long))
step("randn int", lambda: torch.randn(2, dtype=torch.long))
