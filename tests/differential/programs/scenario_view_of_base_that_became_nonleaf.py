# A view made before its base got a history (the base changed in place by an
# op that needs grad): PyTorch reads the view's own grad_fn, which stays unset
# until something asks for it (grad_fn, is_leaf, an op that takes the view, a
# view of it), so an in-place change of the view before that is refused as a
# leaf's; once asked, the view's grad_fn is an AsStridedBackward0 of the base's
# history and the change is recorded (CopySlices).
import torch


def fn(t):
    g = t.grad_fn
    if g is None:
        return None
    return type(g).__name__, [
        None if f is None else type(f).__name__ for f, _ in g.next_functions
    ]


def attempt(name, f):
    try:
        f()
        print(name, "ok")
    except RuntimeError as e:
        print(name, "RuntimeError:", e)


OPS = {
    "add_": lambda v: v.add_(1),
    "mul_": lambda v: v.mul_(2),
    "exp_": lambda v: v.exp_(),
    "zero_": lambda v: v.zero_(),
    "copy_": lambda v: v.copy_(torch.zeros(2, dtype=torch.float64)),
    "+=": lambda v: v.__iadd__(1),
}
w = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
for op, change in OPS.items():
    for ask in ("nothing", "grad_fn", "is_leaf", "an op", "a view"):
        b = torch.ones(3, dtype=torch.float64)
        v = b[:2]
        b.mul_(w)
        if ask == "grad_fn":
            _ = v.grad_fn
        elif ask == "is_leaf":
            _ = v.is_leaf
        elif ask == "an op":
            _ = v * 2
        elif ask == "a view":
            _ = v[1:]
        attempt(f"{op} after asking {ask}", lambda c=change, v=v: c(v))
        print("  ", fn(v), fn(b), b._version, v._version, b.tolist())

b = torch.ones(3, dtype=torch.float64)
v = b[:2]
b.mul_(w)
v[0] = 5.0  # (setitem takes a view of v first)
print("setitem", fn(v), fn(b), b.tolist())
b.sum().backward()
print("grad", w.grad)

b = torch.ones(3, dtype=torch.float64)
v = b[:2]
b.mul_(w)
attempt("refused", lambda: v.mul_(3))
(v * 2).sum().backward()
print("grad after the refusal", w.grad)
