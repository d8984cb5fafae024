# A Function's own vmap rule applied inside a larger mapped function sees the
# whole batch, as in PyTorch: its size, in_dim 0 for a value computed from the
# mapped input (None for an unmapped one), the batched tensors; several such
# calls in one function, a rule whose body applies another Function with a
# rule, the input passed straight through (its own in_dim), results used
# further and differentiated; and the extending-func docs' numpy sort/take
# pair (a vmap rule each, backward through the other Function).
import numpy as np
import torch
from torch.func import vmap


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(x, w):
        return x * w

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        return g * w, (g * x).sum(0)

    @staticmethod
    def vmap(info, in_dims, x, w):
        print("  Scale rule:", info.batch_size, in_dims, tuple(x.shape), tuple(w.shape))
        xb, wb = in_dims
        x = x.movedim(xb, 0) if xb is not None else x.expand(info.batch_size, *x.shape)
        w = w.movedim(wb, 0) if wb is not None else w
        return Shift.apply(Scale.apply(x, w), 1.0), 0


class Shift(torch.autograd.Function):
    @staticmethod
    def forward(x, by):
        return x + by

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g, None

    @staticmethod
    def vmap(info, in_dims, x, by):
        print("  Shift rule:", info.batch_size, in_dims, tuple(x.shape))
        return Shift.apply(x, by), in_dims[0]


w = torch.tensor([2.0, -1.0])
x = torch.arange(6.0).reshape(3, 2)
for B in (1, 3):
    xs = x[:B]
    print("batch", B)
    print(vmap(lambda t: Scale.apply(t.sin(), w).sum())(xs))
    print(vmap(lambda t: Scale.apply(t, w))(xs))
    print(vmap(lambda t: Scale.apply(t, w), in_dims=1)(xs.t().contiguous()))
    print(
        vmap(
            lambda t, v: Scale.apply(t * 2, v) * Shift.apply(t, 2.0), in_dims=(0, None)
        )(xs, w)
    )
    print(vmap(lambda t, v: Shift.apply(Scale.apply(v, t), -1.0).exp())(xs, xs + 1))
    leaf = (xs + 0.5).requires_grad_()
    out = vmap(lambda t: Scale.apply(t.cos(), w).sum())(leaf)
    out.sum().backward()
    print(out.detach(), leaf.grad)


def to_numpy(t):
    return t.detach().numpy()


class NumpySort(torch.autograd.Function):
    @staticmethod
    def forward(x, dim):
        order = np.argsort(to_numpy(x), axis=dim, kind="stable")
        inverse = np.argsort(order, axis=dim, kind="stable")
        result = np.take_along_axis(to_numpy(x), order, axis=dim)
        return torch.tensor(result), torch.tensor(order), torch.tensor(inverse)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, dim = inputs
        _, order, inverse = output
        ctx.mark_non_differentiable(order, inverse)
        ctx.save_for_backward(order, inverse)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, g, _order, _inverse):
        order, inverse = ctx.saved_tensors
        return NumpyTake.apply(g, inverse, order, ctx.dim), None

    @staticmethod
    def vmap(info, in_dims, x, dim):
        print("  sort rule:", info.batch_size, in_dims, tuple(x.shape))
        x = x.movedim(in_dims[0], 0)
        dim = dim if dim >= 0 else dim + x.dim() - 1
        return NumpySort.apply(x, dim + 1), (0, 0, 0)


class NumpyTake(torch.autograd.Function):
    @staticmethod
    def forward(x, index, inverse, dim):
        return torch.tensor(np.take_along_axis(to_numpy(x), to_numpy(index), axis=dim))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, index, inverse, dim = inputs
        ctx.save_for_backward(index, inverse)
        ctx.dim = dim

    @staticmethod
    def backward(ctx, g):
        index, inverse = ctx.saved_tensors
        return NumpyTake.apply(g, inverse, index, ctx.dim), None, None, None

    @staticmethod
    def vmap(info, in_dims, x, index, inverse, dim):
        print("  take rule:", info.batch_size, in_dims, tuple(x.shape))
        front = [
            t.expand(info.batch_size, *t.shape) if d is None else t.movedim(d, 0)
            for t, d in zip((x, index, inverse), in_dims[:3])
        ]
        logical = x.dim() if in_dims[0] is None else x.dim() - 1
        dim = dim if dim >= 0 else dim + logical
        return NumpyTake.apply(*front, dim + 1), 0


data = torch.tensor([[3.0, 1.0, 2.0], [0.5, -1.0, 4.0]])
values, order, _ = vmap(NumpySort.apply, in_dims=(0, None))(data, 0)
print(values, order)
print(vmap(lambda t: NumpySort.apply(t * 10, 0)[0][-1])(data))
print(
    vmap(lambda t, i, j: NumpyTake.apply(t, i, j, 0), in_dims=(0, 0, None))(
        data, order, order[0]
    )
)
leaf = data.clone().requires_grad_()
best = vmap(lambda t: NumpySort.apply(t.exp(), -1)[0][1:].sum())(leaf)
best.sum().backward()
print(best.detach(), leaf.grad)
