# Python's % and // on tensors: remainder (RemainderBackward0/1), fmod, floor
# division and div(rounding_mode=...) with PyTorch's nodes, saved tensors,
# NotImplemented nodes (no derivative), integer semantics and errors, in place.
import torch

a = torch.tensor([5.5, -3.2, 7.0], requires_grad=True)
b = torch.tensor([2.0, 2.0, -3.0], requires_grad=True)
for y in (
    a % b,
    a % 2,
    torch.remainder(a, b),
    torch.fmod(a, b),
    torch.fmod(a, 2.0),
    a // b,
    a // 2,
    7 % a,
    7 // a,
    torch.remainder(7, a),
    a.remainder(2),
    a.fmod(b),
    a.floor_divide(2),
    torch.floor_divide(a, b),
    torch.div(a, b, rounding_mode="floor"),
    a.div(2, rounding_mode="trunc"),
    a.div(b, rounding_mode=None),
    a.divide(b),
):
    fn = y.grad_fn
    print(
        y,
        fn.name(),
        [(n, f.name() if f else None) for f, n in fn.next_functions],
        sorted(s for s in dir(fn) if s.startswith("_saved_")),
    )
print(torch.autograd.grad((a % b).sum(), (a, b)))
print(torch.autograd.grad(torch.fmod(a, b).sum(), (a, b)))
print(torch.autograd.grad(torch.div(a, b, rounding_mode="trunc").sum(), (a, b)))
for f in (lambda: 7 % a, lambda: a // b, lambda: a // 2, lambda: 7 // a):
    try:
        torch.autograd.grad(f().sum(), (a,))
    except RuntimeError as e:
        print("RuntimeError:", e)
(g,) = torch.autograd.grad(((a % b) ** 2).sum(), b, create_graph=True)
print(g, g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions])
(g,) = torch.autograd.grad((torch.fmod(a, b) ** 2).sum(), b, create_graph=True)
print(g, g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions])
(g,) = torch.autograd.grad(
    (torch.div(a * a, b, rounding_mode="floor") ** 2).sum(), a, create_graph=True
)
print(g, g.grad_fn.name())
print(
    torch.arange(5) % 3,
    torch.arange(5) // 2,
    (-torch.arange(5)) % 3,
    (-torch.arange(5)) // 2,
)
print(
    torch.fmod(-torch.arange(5), 3),
    torch.arange(5) % 2.5,
    torch.arange(5) // 2.5,
    7.5 % torch.arange(1, 4),
)
print(
    torch.tensor([1, 2], dtype=torch.int32) % 2,
    torch.tensor(7) % torch.tensor([2.0, 3.0]),
)
print(
    torch.arange(5).div(2, rounding_mode="floor"),
    torch.arange(5).div(2, rounding_mode="trunc"),
)
print(
    torch.tensor([-7, 7]).div(torch.tensor([2, -2]), rounding_mode="trunc"),
    torch.tensor([-7.0, 7.0]).div(torch.tensor([2.0, -2.0]), rounding_mode="trunc"),
)
print(
    torch.tensor([5.0, -5.0]) % torch.tensor([0.0, 3.0]),
    torch.tensor([5.0, -5.0]) // torch.tensor([0.0, 3.0]),
)
for f in (
    lambda: torch.tensor([5, -5]) % torch.tensor([0, 3]),
    lambda: torch.tensor([5, -5]) // torch.tensor([0, 3]),
    lambda: torch.fmod(torch.tensor([5]), 0),
    lambda: torch.div(a, b, rounding_mode="round"),
):
    try:
        print(f())
    except RuntimeError as e:
        print("RuntimeError:", e)
x = torch.arange(5)
x %= 3
print(x, x._version)
y = torch.arange(5.0)
y //= 2
print(y)
c = a * 1
c.floor_divide_(2)
print(c, c.grad_fn.name(), [f.name() for f, _ in c.grad_fn.next_functions], c._version)
c = a * 1
c %= b
print(
    c.grad_fn.name(), [(f.name() if f else None) for f, _ in c.grad_fn.next_functions]
)
c = a * 1
c.fmod_(2)
print(c.grad_fn.name())
d = torch.tensor([4.0, 5.0])
d.floor_divide_(b[:2])
print(d, d.grad_fn.name(), [f.name() for f, _ in d.grad_fn.next_functions])
e = a * 1
e.div_(2, rounding_mode="floor")
print(e, e.grad_fn.name())
print((a * 1 % torch.tensor([2.0, 2.0, 2.0])).grad_fn._saved_other)
