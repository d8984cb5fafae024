# A view requires grad when its base does, read without regenerating its
# grad_fn (PyTorch's DifferentiableViewMeta::requires_grad), so:
# - a view made before its base got a history, asked for requires_grad, is
#   still refused an in-place change as a leaf (its own grad_fn unset);
# - a view of a base that started requiring grad later (requires_grad_())
#   requires grad, is refused in-place changes as a view of a leaf, and its
#   ops record no edge (no gradient reaches the base through it);
# - its grad_fn is regenerated in any grad mode once the base requires grad.
import torch


def step(label, fn):
    try:
        print(label, "->", fn())
    except RuntimeError as e:
        print(label, "!!", e)


def state(t):
    return t.requires_grad, t.is_leaf, type(t.grad_fn).__name__, t._version


writes = [
    ("add_", lambda v: v.add_(1)),
    ("mul_", lambda v: v.mul_(2)),
    ("zero_", lambda v: v.zero_()),
    ("copy_", lambda v: v.copy_(torch.ones(2))),
    ("setitem", lambda v: v.__setitem__(0, 5.0)),
]
for name, write in writes:
    x = torch.ones(3, requires_grad=True)
    b = torch.ones(3)
    v = b[:2]
    b.mul_(x)  # b gets a history after v was made
    print(name, "requires_grad", v.requires_grad)
    step("  write", lambda write=write, v=v: write(v))
    print("  ", v._version, type(b.grad_fn).__name__, state(v))
    step("  backward", lambda b=b: b.sum().backward())
    print("  ", x.grad)

# a base that starts requiring grad later
b = torch.ones(3)
v = b[:2]
b.requires_grad_()
print(v, state(v))
step("add_", lambda: v.add_(1))
y = v * 2
print(y, y.grad_fn.next_functions)
step("backward", lambda: y.sum().backward())
print(b.grad)
w = v[:1]
print(w, state(w), w.grad_fn.next_functions)
with torch.no_grad():
    v.add_(1)
print(v, state(v))
step("backward after", lambda: (v * 3).sum().backward())
print(b.grad)

# asked while the base did not require grad yet: still regenerated later
a = torch.ones(3)
v = a[:2]
x = torch.ones(3, requires_grad=True)
with torch.no_grad():
    a.mul_(x)
print(v, v.is_leaf)
a.requires_grad_()
print(v, state(v))
(v * 2).sum().backward()
print(a.grad)

# a view made under no_grad of a leaf, changed under no_grad: Invalid
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    u = w[:2]
print(u, u.requires_grad)
with torch.no_grad():
    u.add_(1)
print(u)
step("grad_fn", lambda: u.grad_fn)
