# Saved-tensor hooks in PyTorch's order: a node packs (and unpacks) its saved
# inputs by name (`other` before `self`, `bias` before `input`), then its
# saved outputs; what unpacking returns; SavedTensor.register_hooks and its
# errors; allow_mutation_on_saved_tensors.
import torch
import torch.nn.functional as F

a = torch.tensor([1.5, 2.0], requires_grad=True)
b = torch.tensor([0.5, 3.0], requires_grad=True)
names = {id(a): "a", id(b): "b"}


def pack(t):
    print("  pack", names.get(id(t), "other"), t.requires_grad, t.grad_fn)
    return t


def unpack(t):
    print("  unpack", names.get(id(t), "other"))
    return t


for op, f in [
    ("mul", lambda: a * b),
    ("div", lambda: a / b),
    ("pow", lambda: a**b),
    ("atan2", lambda: torch.atan2(a, b)),
    ("add", lambda: a + b),
    ("matmul", lambda: a @ b),
    ("mm", lambda: a.view(1, 2).mm(b.view(2, 1))),
    ("maximum", lambda: torch.maximum(a, b)),
    ("hypot", lambda: torch.hypot(a, b)),
    ("fmod", lambda: torch.fmod(a, b)),
    ("remainder", lambda: torch.remainder(a, b)),
    ("dot", lambda: torch.dot(a, b)),
    ("xlogy", lambda: torch.xlogy(a, b)),
    ("lerp", lambda: torch.lerp(a, b, 0.3)),
    ("lerp tensor", lambda: torch.lerp(a, b, b.sigmoid())),
    ("where", lambda: torch.where(a > 1.6, a, b)),
    ("mul scalar", lambda: a * 2),
    ("rpow", lambda: 2**a),
    ("fmax", lambda: torch.fmax(a, b)),
    ("logaddexp", lambda: torch.logaddexp(a, b)),
    ("mse", lambda: F.mse_loss(a, b)),
    ("outer", lambda: torch.outer(a, b)),
    ("addcmul", lambda: torch.addcmul(a, a, b)),
    ("addcdiv", lambda: torch.addcdiv(a, a, b)),
    ("clamp", lambda: a.clamp(b, b + 1)),
    ("layer_norm", lambda: F.layer_norm(a.view(1, 2), (2,), b, b * 2)),
]:
    print(op)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = f()
    y.sum().backward()

# what unpacking hands out keeps requires_grad and the tensor's place in the graph
with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t.detach()):
    y = a * b
    z = a.exp()
for t in (y.grad_fn._saved_other, y.grad_fn._saved_self, z.grad_fn._saved_result):
    print(t, t.requires_grad, t.grad_fn, t.is_leaf)


def run(name, f):
    try:
        print(name, "->", f())
    except Exception as e:
        print(name, type(e).__name__, e)


log = []


def box(t):
    log.append(("pack", t.requires_grad, t.grad_fn))
    return ("box", t.detach())


def unbox(p):
    log.append(("unpack", p[0]))
    return p[1]


y = a * a.exp()
raw = y.grad_fn._raw_saved_self
print(type(raw).__name__, raw is y.grad_fn._raw_saved_self)
raw.register_hooks(box, unbox)
print(log)
run("twice", lambda: raw.register_hooks(box, unbox))
print(y.grad_fn._saved_self, y.grad_fn._saved_self.requires_grad)
y.sum().backward(retain_graph=True)
print(a.grad, log)
run("not callable", lambda: y.grad_fn._raw_saved_other.register_hooks(1, 2))
run(
    "unpack gives a number",
    lambda: y.grad_fn._raw_saved_other.register_hooks(lambda t: t, lambda t: 3),
)
run("read it", lambda: y.grad_fn._saved_other)
z = a.exp()
z.grad_fn._raw_saved_result.register_hooks(box, unbox)
print(z.grad_fn._saved_result.grad_fn, log[-2:])
run("None slot", lambda: (a * 2).grad_fn._raw_saved_self.register_hooks(box, unbox))
y = a * a
r = y.grad_fn._raw_saved_self
y.sum().backward()
run("after free", lambda: r.register_hooks(box, unbox))
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    q = a.exp()
run(
    "under saved_tensors_hooks",
    lambda: q.grad_fn._raw_saved_result.register_hooks(box, unbox),
)
w = a * 1
s = w.sin()
w.add_(1)
run("stale", lambda: s.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t))

a.grad = None
with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
    print(type(ctx).__name__)
    c = a.clone()
    y = c * c
    c.mul_(10)
    print(c, c._version, y.grad_fn._saved_self)
    y.sum().backward()
    print(a.grad)
    d = a.clone()
    z = d.sin()
    d[0] = 5
    z.sum().backward()
    print(a.grad, d)
    e = a.clone()
    w = e.exp()
    w.add_(1)
    w.sum().backward()
    print(a.grad)
    f = a.clone()
    q = f.pow(2)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    f.mul_(2)
run("outside", lambda: q.sum().backward())
g = a.clone()
r = g * g
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    g.mul_(2)
    run("recorded before", lambda: r.sum().backward())
