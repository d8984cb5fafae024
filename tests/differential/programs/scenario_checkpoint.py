# Activation checkpointing (issue #20, lesson 14): what is saved, what is
# recomputed, the gradients, random ops replayed, and PyTorch's warnings/errors.
import gc
import weakref

import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

calls = []


def block(x, w):
    calls.append("block")
    h = torch.tanh(x * w)
    return (h * h).sum(dim=-1)


def grads(use_reentrant):
    x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    w = torch.tensor([1.5, 0.5, -0.25], requires_grad=True)
    calls.clear()
    out = checkpoint(block, x, w, use_reentrant=use_reentrant)
    print("  forward calls:", calls, out.grad_fn)
    out.sum().backward()
    print("  after backward:", calls)
    return x.grad, w.grad


x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
w = torch.tensor([1.5, 0.5, -0.25], requires_grad=True)
block(x, w).sum().backward()
print("plain:", x.grad, w.grad)
for reentrant in (False, True):
    print(f"use_reentrant={reentrant}")
    gx, gw = grads(reentrant)
    print("  grads:", gx, gw)

# what a checkpointed region keeps: count the tensors packed
packed = []
with torch.autograd.graph.saved_tensors_hooks(
    lambda t: packed.append(t.dim()) or t, lambda t: t
):
    y = block(x, w)
print("saved without checkpoint:", sorted(packed))
packed.clear()
with torch.autograd.graph.saved_tensors_hooks(
    lambda t: packed.append(t.dim()) or t, lambda t: t
):
    y = checkpoint(block, x, w, use_reentrant=False)
print("saved by the outer hooks with checkpoint:", packed)

# recomputation once per backward, early stop, and retain_graph
calls.clear()
x.grad = w.grad = None
out = checkpoint(block, x, w, use_reentrant=False)
out.sum().backward(retain_graph=True)
out.sum().backward()
print("two backward passes:", calls, x.grad)


def two_outputs(x):
    calls.append("two")
    a = x.exp()
    b = a.sin()
    return a, b


calls.clear()
a, b = checkpoint(two_outputs, x, use_reentrant=False)
(a.sum() + b.sum()).backward()
print("two outputs:", calls, x.grad)

# dropout inside: the recomputation replays the forward's random state
torch.manual_seed(0)
drop = torch.nn.Dropout(0.5)
v = torch.ones(8, requires_grad=True)
out = checkpoint(lambda t: drop(t * 2).exp(), v, use_reentrant=False)
out.sum().backward()
print("dropout:", out, v.grad)
torch.manual_seed(0)
v.grad = None
drop(v * 2).exp().sum().backward()
print("without checkpoint:", v.grad)

# a sequential model in two segments
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4), torch.nn.Tanh()
)
inp = torch.ones(2, 3, requires_grad=True)
out = checkpoint_sequential(model, 2, inp, use_reentrant=False)
out.sum().backward()
print("sequential:", out.grad_fn, inp.grad)

# under no_grad nothing is saved, so nothing is checkpointed
with torch.no_grad():
    print("no_grad:", checkpoint(block, x, w, use_reentrant=False).requires_grad)


def attempt(what, f):
    try:
        print(what, "->", f())
    except (RuntimeError, ValueError) as e:
        # (PyTorch's CheckpointError adds a tip on its debug mode and
        # torch.compile, which minigrad has not)
        print(what, "->", type(e).__name__ + ":", str(e).split("\nTip:")[0])


attempt("no use_reentrant", lambda: checkpoint(block, x, w).sum().backward())
attempt(
    "reentrant, no input requires grad",
    lambda: checkpoint(block, x.detach(), w.detach(), use_reentrant=True),
)
attempt(
    "reentrant, autograd.grad",
    lambda: torch.autograd.grad(checkpoint(block, x, w, use_reentrant=True).sum(), x),
)
attempt(
    "non-reentrant, autograd.grad",
    lambda: torch.autograd.grad(checkpoint(block, x, w, use_reentrant=False).sum(), x),
)
attempt(
    "reentrant, extra keyword",
    lambda: checkpoint(block, x, w, use_reentrant=True, scale=2),
)
attempt(
    "determinism_check",
    lambda: checkpoint(block, x, w, use_reentrant=False, determinism_check="strict"),
)

state = {"n": 0}


def changes(x):
    state["n"] += 1
    return x.exp() if state["n"] == 1 else x.exp().exp()


attempt(
    "more saved in recomputation",
    lambda: checkpoint(changes, x, use_reentrant=False).sum().backward(),
)
state["n"] = 0


def fewer(x):
    state["n"] += 1
    return x.exp().exp() if state["n"] == 1 else x.exp()


attempt(
    "fewer saved in recomputation",
    lambda: checkpoint(fewer, x, use_reentrant=False).sum().backward(),
)
state["n"] = 0


def shape_changes(x):
    state["n"] += 1
    return (x if state["n"] == 1 else x.expand(2, 3)).exp().sum()


attempt(
    "different metadata",
    lambda: checkpoint(shape_changes, x, use_reentrant=False).backward(),
)
state["n"] = 0
attempt(
    "no check",
    lambda: checkpoint(
        shape_changes, x, use_reentrant=False, determinism_check="none"
    ).backward(),
)


y = x * 1
out = checkpoint(lambda t: t.exp().sum(), y, use_reentrant=False)
with torch.no_grad():
    y.mul_(2)
attempt("input changed in place", out.backward)

# what the region keeps alive: its intermediate tensors die after the forward
inner = []


def traced(t):
    calls.append("traced")
    u = t.exp()
    inner.append(weakref.ref(u))
    return u.sin()


plain = traced(x)
gc.collect()
print("intermediate alive without checkpoint:", inner[-1]() is not None)
out = checkpoint(traced, x, use_reentrant=False)
gc.collect()
print("intermediate alive with checkpoint:", inner[-1]() is not None)

# reading a saved tensor outside backward recomputes, each time
calls.clear()
print("saved self:", out.grad_fn._saved_self)
print("saved self again:", out.grad_fn._saved_self.grad_fn)
print("recomputations:", calls)
calls.clear()
out.sum().backward()
print("then backward:", calls, x.grad)

# double backward through a checkpointed region: the recomputed tensors keep
# their place in the graph
x.grad = None
out = checkpoint(lambda t: (t.exp() * t).sin().sum(), x, use_reentrant=False)
(g,) = torch.autograd.grad(out, x, create_graph=True)
print("create_graph:", g)
g.sum().backward()
print("second order:", x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t.detach()):
    y = (x.exp() * x).sin()
    e = x.exp()
print("unpacked:", y.grad_fn._saved_self.grad_fn, y.grad_fn._saved_self is not x)
print("a saved leaf:", y.grad_fn.next_functions[0][0]._saved_other.requires_grad)
print("a saved result:", e.grad_fn._saved_result.grad_fn)
