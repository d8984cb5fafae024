# setitem as PyTorch's set_item runs it: the basic items of the key (slices,
# ints, None) are views first, then one index_put_ of what they viewed
# (CopySlices around IndexPutBackward0); a key that views all of the tensor
# writes into the tensor itself (CopyBackwards, FillBackward3 for a number or
# a 0-d value); x[False] writes nothing.
import torch


def chain(f):
    if f is None:
        return None
    return [type(f).__name__, [chain(g) for g, _ in f.next_functions]]


def run(name, key, value, shape=(2, 3, 4)):
    a = torch.arange(24.0).reshape(2, 3, 4)[: shape[0], : shape[1], : shape[2]]
    a = a.clone().requires_grad_()
    v = value() if callable(value) else value
    x = a * 1
    try:
        x[key] = v
    except Exception as e:  # noqa: BLE001 - the error is compared
        print(name, type(e).__name__, e)
        return
    print(name, x.tolist(), x._version, chain(x.grad_fn))
    leaves = [t for t in (a, v) if isinstance(t, torch.Tensor) and t.requires_grad]
    gs = torch.autograd.grad((x * x).sum(), leaves, create_graph=True)
    print("  grads", [g.tolist() for g in gs], [g.requires_grad for g in gs])
    if any(g.requires_grad for g in gs):
        total = sum(g.sum() for g in gs if g.requires_grad)
        gg = torch.autograd.grad(total, leaves, allow_unused=True)
        print("  second", [None if g is None else g.tolist() for g in gg])


idx = torch.tensor([0, 1])
mask = torch.tensor([True, False, True])


def w(*shape):
    return lambda: torch.ones(*shape).mul(torch.arange(1.0, 2.0)).requires_grad_()


# an index beside slices or ints: the view first, then index_put_ into it
run("idx, 1:", (idx, slice(1, None)), w(2, 2, 4))
run("idx, 1: (leading 1)", (idx, slice(1, None)), w(1, 4))
run("1:, idx", (slice(1, None), idx), 3.0)
run("0, idx", (0, idx), w(2, 4))
run("idx, 0", (idx, 0), w(2, 4))
run("0, :, idx", (0, slice(None), idx), w(3, 2))
run("1, mask", (1, mask), 3.0)
run("None, idx", (None, idx), 3.0)
run("True, idx", (True, idx), 3.0)
run("list, 1:", ([0, 1], slice(1, None)), 3.0)
run("1:, [[0],[1]], idx", (slice(1, None), torch.tensor([[0], [1]]), idx), 3.0)
run("int tensor, :", (torch.tensor(1), slice(None)), 1.0)
run("mismatch", (idx, slice(1, None)), torch.ones(3, 4))
# no view in front: one IndexPutBackward0
run(":, idx", (slice(None), idx), w(2, 2, 4))
run("..., idx", (Ellipsis, idx), 3.0)
run("idx, :, idx", (idx, slice(None), idx), w(2, 3))
# a key that views the whole tensor writes into it
run(":", slice(None), w(4))
run("...", Ellipsis, w(3, 4))
run(":, :", (slice(None), slice(None)), w(1, 1, 4))
run("0:5", slice(0, 5), 1.0)
run("::1", slice(None, None, 1), 2.5)
run(
    ":, 0:9, ...",
    (slice(None), slice(0, 9), Ellipsis),
    lambda: torch.tensor(2.0, requires_grad=True),
)
run(
    ": (float64)",
    slice(None),
    lambda: torch.ones(4, dtype=torch.float64, requires_grad=True),
)
run(": (int64)", slice(None), torch.ones(4, dtype=torch.int64))
run("0-d ...", Ellipsis, 1.0, shape=(1, 1, 1))
# a view or a part: CopySlices
run("-2:", slice(-2, None), 1.0)
run("0", 0, w(3, 4))
run("None", None, 1.0)
run("True", True, w(3, 4))
run("(True,)", (True,), 1.0)
run("(False,)", (False,), 1.0)
run("False", False, 1.0)
run("0:0", slice(0, 0), 3.0)

# a leaf that does not require grad, a value that does
s = torch.tensor(2.0, requires_grad=True)
for key in (slice(None), Ellipsis, 0):
    z = torch.zeros(2, 3)
    z[key] = s * 1
    print(z.tolist(), z._version, chain(z.grad_fn))
    z.sum().backward()
    print(s.grad)
    s.grad = None

# a 0-d tensor: x[...] = v copies (its sizes match), a (1,)-value is viewed
b = torch.tensor(2.0, requires_grad=True)
x = b * 1
x[...] = torch.ones(1, requires_grad=True)
print(x, chain(x.grad_fn))

# leaves that require grad refuse each form in PyTorch's words
p = torch.ones(2, 3, requires_grad=True)
for key, value in (
    (slice(None), 1.0),
    (Ellipsis, torch.ones(3)),
    (0, 1.0),
    ((idx, slice(1, None)), 1.0),
):
    try:
        p[key] = value
    except RuntimeError as e:
        print(e)
print(p._version)
