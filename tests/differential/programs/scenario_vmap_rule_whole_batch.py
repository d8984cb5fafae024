# vmap(MyFunction.apply) of a Function with its own vmap staticmethod: the rule
# is called once with the whole batch, its size and each input's batch dim
# (None for an unmapped input), as PyTorch calls it; a result it calls
# unbatched (out_dims None) is the same for every element. Batches of one and
# of three, in_dims and out_dims, gradients through the rule.
import torch
from torch.func import vmap


class Add(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x + y

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g, g

    @staticmethod
    def vmap(info, in_dims, x, y):
        print("  rule sees", info.batch_size, in_dims, tuple(x.shape), tuple(y.shape))
        xb, yb = in_dims
        x = x.movedim(xb, 0) if xb is not None else x.expand(info.batch_size, *x.shape)
        y = y.movedim(yb, 0) if yb is not None else y.expand(info.batch_size, *y.shape)
        return Add.apply(x, y), 0


class Total(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sum()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.shape = inputs[0].shape

    @staticmethod
    def backward(ctx, g):
        return g.expand(ctx.shape)

    @staticmethod
    def vmap(info, in_dims, x):
        return Total.apply(x), None  # one total of the whole batch


class Pair(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x * 2, x.sum()

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g1, g2):
        return g1 * 2 + g2

    @staticmethod
    def vmap(info, in_dims, x):
        (xb,) = in_dims
        return (x * 2, x.sum(dim=xb + 1)), (xb, 0)


for B in (1, 3):
    print("batch", B)
    x = torch.arange(B * 2.0).reshape(B, 2)
    print(vmap(Add.apply, in_dims=(0, None))(x, torch.ones(2)))
    print(vmap(Add.apply, in_dims=(1, 0))(x.t().contiguous(), x))
    print(vmap(Add.apply, in_dims=(-1, 0), out_dims=1)(x.t().contiguous(), x).shape)
    print(vmap(Total.apply)(x))
    a, s = vmap(Pair.apply)(x)
    print(a, s)
    a, s = vmap(Pair.apply, out_dims=(1, 0))(x)
    print(a.shape, s.shape)
    w = x.clone().requires_grad_()
    out = vmap(Add.apply, in_dims=(0, None))(w, torch.ones(2))
    print(type(out.grad_fn).__name__)
    out.sum().backward()
    print(w.grad)
