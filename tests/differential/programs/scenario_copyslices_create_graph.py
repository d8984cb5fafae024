# Gradients through a write into a view (CopySlices) and through index_put
# under create_graph, as PyTorch records them: CopySlices copies the gradient
# into a fresh tensor (CopyBackwards), hands the in-place op a clone of its
# strided view (CloneBackward0 <- AsStridedBackward0) and writes the op's
# gradient back with copy_ (a CopySlices of its own); a view read after its
# base was written gets as_strided's gradient (the view's expanded dims summed
# first: SumBackward1, then zeros written through their strided view); an
# in-place op saves a clone of the tensor it overwrites (CloneBackward0);
# index_put's gradient for self is an index_put of zeros. Values, graphs,
# second and third derivatives.
import warnings

import torch

warnings.simplefilter("ignore")


def chain(f):
    if f is None:
        return None
    return [type(f).__name__, [chain(g) for g, _ in f.next_functions]]


def r(t):
    return None if t is None else [round(v, 6) for v in t.reshape(-1).tolist()]


def slice_copy(b, w):
    b[1:4] = w * 2


def column(b, w):
    b.view(2, 3)[:, 1] = w[:2] * 3


def mul_slice(b, w):
    b[1:4].mul_(w)


def index_put(b, w):
    b[torch.tensor([0, 2, 4])] = w


def index_put_accumulate(b, w):
    b.index_put_((torch.tensor([1, 1, 5]),), w * 2, accumulate=True)


def row_copy(b, w):
    b.view(2, 3)[0].copy_(w)


def transposed(b, w):
    b.view(3, 2).t()[1, 1:].mul_(w[:2])


def view_of_view(b, w):
    b.view(2, 3)[1][0:3] = w * w


def diagonal(b, w):
    b.view(2, 3).diagonal().mul_(w[:2])


def exp_on_view(b, w):
    b[:2] = w[1:] * 3
    b[2:5].exp_()


def mask(b, w):
    b[b > 3] = w.sum()


for write in (
    slice_copy,
    column,
    mul_slice,
    index_put,
    index_put_accumulate,
    row_copy,
    transposed,
    view_of_view,
    diagonal,
    exp_on_view,
    mask,
):
    x = torch.arange(1.0, 7.0, dtype=torch.float64, requires_grad=True)
    w = torch.arange(2.0, 5.0, dtype=torch.float64, requires_grad=True)
    b = x * 1
    write(b, w)
    print(write.__name__, chain(b.grad_fn))
    gx, gw = torch.autograd.grad((b * b).sum(), [x, w], create_graph=True)
    print("  x", r(gx), chain(gx.grad_fn))
    print("  w", r(gw), chain(gw.grad_fn))
    hx, hw = torch.autograd.grad(gx.sum() + gw.sum(), [x, w], create_graph=True)
    print("  2nd", r(hx), r(hw))
    third = (hx * hx).sum() + hw.sum()
    if third.requires_grad:
        print("  3rd", [r(g) for g in torch.autograd.grad(third, [x, w])])

# a view expanded over its base, read after the base was written
x = torch.arange(1.0, 4.0, dtype=torch.float64, requires_grad=True)
b = x * 1
v = b.expand(2, 3)
b.mul_(2)
print(chain(v.grad_fn))
(v * torch.arange(6.0, dtype=torch.float64).view(2, 3)).sum().backward()
print(x.grad)
b = x * 1
v = b.expand(2, 3)
b.mul_(2)
(g,) = torch.autograd.grad((v * v).sum(), [x], create_graph=True)
print(r(g), chain(g.grad_fn))

# what an in-place op saves of the tensor it overwrites
w = torch.arange(2.0, 5.0, requires_grad=True)
b = torch.arange(1.0, 4.0, requires_grad=True) * 1
b.mul_(w)
print(b.grad_fn._saved_self, chain(b.grad_fn))
