# A leaf that is a view (reshape of arange, then requires_grad_()) refuses in-place
# ops with PyTorch's view-of-a-leaf message and stays a leaf that gets .grad.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


w = torch.arange(4.0).reshape(2, 2).requires_grad_()
print(w.is_leaf, w._base is not None, w.requires_grad, w.grad_fn)


def setitem():
    w[0, 0] = 1


step("setitem", setitem)
print(w.is_leaf, w.grad_fn, w._version)
step("add_", lambda: w.add_(1))
step("sigmoid_", lambda: w.sigmoid_())
step("zero_", lambda: w.zero_())
print(w.is_leaf, w.grad_fn, w._version, w)
with torch.no_grad():
    v = w.t()
print("no_grad t()", v.requires_grad, v.is_leaf, v.grad_fn)
with torch.no_grad():
    v = w[0]
print("no_grad [0]", v.requires_grad, v.is_leaf)
with torch.no_grad():
    w.add_(1)  # allowed: no graph is recorded
print(w, w._version)
(w * 2).sum().backward()
print(w.grad)

# a view of a plain tensor made to require grad
x = torch.ones(4)
xv = x[:2]
xv.requires_grad_()
print(xv.is_leaf, xv.requires_grad)
step("xv.add_", lambda: xv.add_(1))


def xv_set():
    xv[0] = 5


step("xv setitem", xv_set)
print(x, xv.is_leaf)
