# Values PyTorch refuses or computes where minigrad once guessed: mv of two
# matrices, float sizes and indices (never truncated), tensors inside a nested
# list (each one number, dtypes promoted), cat/stack of a bare Tensor (not its
# rows), the legacy empty tensor in cat, softmax and matmul with a zero-size dim.
import warnings

import torch

warnings.simplefilter("ignore")  # the requires_grad-to-scalar warning's suffix differs


def step(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


m = torch.arange(6.0).reshape(2, 3)
step("mv matrix", lambda: torch.mv(m, torch.ones(3, 2)))
step("mv vector", lambda: torch.ones(3).mv(torch.ones(3)))
step("mv", lambda: m.mv(torch.ones(3)))
for a, b in (((2, 0), (0, 3)), ((0, 2), (2, 3)), ((4, 0, 2), (2, 3)), ((0,), (0,))):
    x = torch.ones(*a, requires_grad=True)
    w = torch.ones(*b, requires_grad=True)
    y = x @ w
    y.sum().backward()
    print(y, type(y.grad_fn).__name__, x.grad.shape, w.grad)
for shape in ((0,), (2, 0), (0, 3)):
    x = torch.ones(*shape, requires_grad=True)
    y = x.softmax(-1) + x.log_softmax(-1)
    y.sum().backward()
    print(y, x.grad)
step("x[1.5]", lambda: m[1.5])
step("x[0, 1.5]", lambda: m[0, 1.5])
step("x[1.5] = 0", lambda: m.__setitem__(1.5, 0.0))
print(m)
for f in (torch.ones, torch.zeros, torch.empty, torch.rand, torch.randn):
    step(f.__name__, lambda f=f: f(2, 3.5))
step("ones(3.5)", lambda: torch.ones(3.5))
step("ones([2, 3.5])", lambda: torch.ones([2, 3.5]))
step("ones(size=)", lambda: torch.ones(size=(2, 3.5)))
step("ones(-1)", lambda: torch.ones(2, -1))
step("full", lambda: torch.full((2, 3.5), 1.0))
step("full(2.5)", lambda: torch.full(2.5, 1.0))
step("ones(tensor)", lambda: torch.ones(torch.tensor(2), 1))
step("view", lambda: m.view(2, 3.0))
step("view(2.5)", lambda: m.view(2.5))
step("reshape", lambda: m.reshape(2, 3.0))
step("reshape(2.5)", lambda: m.reshape(2.5))
step("expand", lambda: m.expand(2, 3.0))
step("repeat", lambda: m.repeat(2, 1.0))
step("permute", lambda: m.permute(0, 1.0))
step("new_ones", lambda: m.new_ones(2, 3.5))
step("tile", lambda: m.tile(2, 1.5))
step("[t, t]", lambda: torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
step("[int, int]", lambda: torch.tensor([torch.tensor(1), torch.tensor(2)]))
step("[f64, int]", lambda: torch.tensor([torch.tensor(1.0, dtype=torch.float64), 2]))
step("[i32, 2.0]", lambda: torch.tensor([torch.tensor(1, dtype=torch.int32), 2.0]))
step("[[t], [t]]", lambda: torch.tensor([[torch.ones(1)], [torch.ones(1)]]))
step("[t(1, 1)]", lambda: torch.tensor([torch.ones(1, 1)]))
step("[t(2)]", lambda: torch.tensor([torch.ones(2), torch.ones(2)]))
step("[t(0)]", lambda: torch.tensor([torch.ones(0)]))
step("int from float", lambda: torch.tensor([torch.tensor(1.5)], dtype=torch.int64))
step("bool from int", lambda: torch.tensor([torch.tensor(2)], dtype=torch.bool))
step("requires grad", lambda: torch.tensor([torch.tensor(1.0, requires_grad=True)]))
for fn in ("cat", "stack", "concat", "hstack", "vstack", "dstack", "column_stack"):
    step(fn, lambda fn=fn: getattr(torch, fn)(m))
    step(fn + " pair", lambda fn=fn: getattr(torch, fn)((m, m)).shape)
step("cat int", lambda: torch.cat([m, 1]))
step("stack int", lambda: torch.stack([m, 1]))
x = torch.ones(2, 3, requires_grad=True)
e = torch.tensor([], requires_grad=True)
y = torch.cat([e, x, e], 1)
y.sum().backward()
print(y.shape, type(y.grad_fn).__name__, e.grad, x.grad)
step(
    "legacy dtype", lambda: torch.cat([m, torch.tensor([], dtype=torch.float64)]).dtype
)
step("all legacy", lambda: torch.cat([torch.tensor([]), torch.tensor([])]).shape)
step("legacy dim", lambda: torch.cat([torch.tensor([]), m], 2))
step("legacy sizes", lambda: torch.cat([torch.tensor([]), m, torch.ones(3, 3)], 0))
