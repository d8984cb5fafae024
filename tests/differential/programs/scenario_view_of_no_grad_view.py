# A view made in grad mode of a view made under no_grad keeps its creation
# mode, as PyTorch's CreationMeta does: it has history, but an in-place change
# of it in grad mode is refused ("Output 0 of Slice is a view of a view which
# was created in no_grad mode..."), and so is its use after its base changed
# in place; a detached copy of it may be changed.
import torch


def attempt(name, f):
    try:
        r = f()
        print(name, "ok", None if r is None else (r.requires_grad, r.grad_fn))
    except RuntimeError as e:
        print(name, "RuntimeError:", e)


x = torch.ones(2, 3, requires_grad=True)
b = x * 1
with torch.no_grad():
    v = b.view(6)
w = v[1:]
attempt("view of the view", lambda: w)
attempt("its mul_", lambda: w.mul_(2))
attempt("the no_grad view's mul_", lambda: v.mul_(2))
print(b, b._version)

b = x * 1
with torch.no_grad():
    v = b[0]
w = v.view(3)
attempt("setitem", lambda: w.__setitem__(0, 5.0))
attempt("detached mul_", lambda: w.detach().mul_(2))

with torch.no_grad():
    v = x.t()
attempt("of a leaf", lambda: v[0].add_(1))
attempt("of a leaf, deeper", lambda: v[0][1:].add_(1))

b = x * 1
with torch.no_grad():
    v = b.t()
    u = v[0]
attempt("both under no_grad", lambda: u.mul_(1))

b = x * 1
with torch.no_grad():
    v = b.t()
w = v[0]
b.mul_(2)
attempt("read after the base changed", lambda: w * 1)
attempt("the no_grad view, read after", lambda: v * 1)
print(x.grad)

# retain_grad() on a view made under no_grad whose base then changed: it never
# had a grad_fn of its own, so PyTorch takes it for a leaf and does nothing
a = torch.tensor(0.0, requires_grad=True)
with torch.no_grad():
    r = a.reshape(-1)
    a.add_(2.0)
attempt("retain_grad", lambda: r.retain_grad())
print(r.retains_grad, r.requires_grad)
attempt("its grad_fn", lambda: r.grad_fn)

# an in-place change of a no_grad view whose base also changed under no_grad:
# PyTorch refuses the write itself ("is being modified") before it regenerates
# the view's grad_fn
t = a.exp()
with torch.no_grad():
    u = t.reshape(-1)
    t.add_(2.0)
attempt("write after the base changed", lambda: u.add_(2.0))
