# Custom Function misuse in PyTorch's words: what backward returns, what
# save_for_backward / mark_dirty / mark_non_differentiable accept, inputs
# returned as outputs, and the versions and state each case leaves.
import numpy as np
import torch


def make(forward, backward=lambda ctx, *g: g):
    class F(torch.autograd.Function):
        pass

    F.forward = staticmethod(forward)
    F.backward = staticmethod(backward)
    return F


def run(name, f):
    try:
        print(name, "->", f())
    except Exception as e:
        print(name, type(e).__name__, repr(str(e)))


def double(ctx, a, *rest):
    return a * 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
for name, bw, args in [
    ("float", lambda ctx, g: 1.0, (x,)),
    ("int", lambda ctx, g: 3, (x,)),
    ("list", lambda ctx, g: [g], (x,)),
    ("array", lambda ctx, g: np.ones(2), (x,)),
    ("too many", lambda ctx, g: (g, g), (x,)),
    ("extra None", lambda ctx, g: (g, None), (x,)),
    ("too few", lambda ctx, g: g, (x, x)),
    ("too few, number", lambda ctx, g: (g,), (x, 2.0)),
    ("shape", lambda ctx, g: g[:1], (x,)),
    ("broadcast", lambda ctx, g: torch.ones(3, 2), (x,)),
    ("dtype", lambda ctx, g: g.double(), (x,)),
    ("integer", lambda ctx, g: g.long(), (x,)),
]:
    x.grad = None
    F = make(double, bw)
    run(name, lambda F=F, args=args: F.apply(*args).sum().backward() or x.grad)


def saving(*objs):
    def forward(ctx, a):
        ctx.save_for_backward(*[a if o == "input" else o for o in objs])
        return a * 2

    return forward


class Foo:
    pass


run("save int", lambda: make(saving("input", 3)).apply(x))
run("save list", lambda: make(saving([x])).apply(x))
run("save array", lambda: make(saving(np.ones(2))).apply(x))
run("save object", lambda: make(saving("input", None, Foo())).apply(x))
run(
    "save_for_forward int",
    lambda: make(lambda ctx, a: ctx.save_for_forward(3)).apply(x),
)


def intermediate(ctx, a):
    ctx.save_for_backward(a + 1, None)
    return a * 2


def read_back(ctx, g):
    t, none = ctx.saved_tensors
    print("saved:", t, t.requires_grad, t.grad_fn, none)
    return g * t


run(
    "save intermediate", lambda: make(intermediate, read_back).apply(x).sum().backward()
)


def dirty(*marked, returns="input"):
    def forward(ctx, a):
        a.add_(1)
        ctx.mark_dirty(*[a if m == "input" else m for m in marked])
        return a if returns == "input" else a * 2

    return forward


run("dirty number", lambda: make(dirty(3)).apply(x.clone()))
run("dirty then number", lambda: make(dirty("input", 3)).apply(x.clone()))
run(
    "non-differentiable number",
    lambda: make(lambda ctx, a: (ctx.mark_non_differentiable(3), a * 2)[1]).apply(x),
)
run(
    "non-differentiable non-output",
    lambda: make(lambda ctx, a: (ctx.mark_non_differentiable(a * 3), a * 2)[1]).apply(
        x
    ),
)
h = x * 1
run("dirty not returned", lambda: make(dirty("input", returns="other")).apply(h))
print(h._version, h.grad_fn.name())
run("dirty leaf", lambda: make(dirty("input")).apply(x))
print(x._version, x.grad)
run("dirty view of a leaf", lambda: make(dirty("input")).apply(x[:1]))
print(x._version)


def dirty_output(ctx, a):
    o = a * 2
    ctx.mark_dirty(o)
    return o


run("dirty output", lambda: make(dirty_output).apply(x.clone()))
r = make(dirty("input")).apply(h)
print(r is h, h._version, h.grad_fn.name())
with torch.no_grad():
    r = make(dirty("input")).apply(x)
    print(r is x, r.requires_grad, r._version, x._version, r.is_leaf, r._is_view())
    r = make(lambda ctx, a: a).apply(x)
    print(r is x, r.requires_grad, r._is_view())
    run(
        "dirty not returned, no_grad",
        lambda: make(dirty("input", returns="other")).apply(x),
    )
r = make(lambda ctx, a: a).apply(x)
print(r is x, r.requires_grad, r._is_view(), r.grad_fn.name())
r = make(lambda ctx, a: a).apply(torch.ones(2))
print(r.requires_grad, r._is_view())
run("returns a number", lambda: make(lambda ctx, a: 3.0).apply(x))
run("returns a list", lambda: make(lambda ctx, a: [a * 2]).apply(x))
