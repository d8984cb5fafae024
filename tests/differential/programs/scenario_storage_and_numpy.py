# storage() shows the flat buffer a view shares (PyTorch's deprecated
# TypedStorage, printed one element a line); numpy() of a tensor that requires
# grad is refused only while grad mode is on: a custom Function's forward may
# use it, and writing through it must then be declared with mark_dirty.
import warnings

import torch

# (its deprecation warning comes once a process: whether it shows here depends
# on what ran before in the test process)
warnings.filterwarnings("ignore", "TypedStorage is deprecated")

base = torch.arange(6)
print(base.view(3, 2).storage())
print(len(base[2:].storage()), base[2:].storage().tolist(), base.storage()[4])
print(torch.tensor([0.25, -1.0]).storage().dtype, torch.zeros(0).storage())
print(torch.tensor([True, False]).storage())

leaf = torch.ones(3, requires_grad=True)
with torch.no_grad():
    print(leaf.numpy())
try:
    leaf.numpy()
except RuntimeError as e:
    print(e)


class TimesThreeByNumpy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.from_numpy(x.numpy() * 3)

    @staticmethod
    def backward(ctx, grad):
        return grad * 3


out = TimesThreeByNumpy.apply(leaf)
out.sum().backward()
print(out, leaf.grad)


class BumpInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.numpy()[...] += 1
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


a = torch.tensor(2.0, requires_grad=True, dtype=torch.double).clone()
sq = a * a
bumped = BumpInPlace.apply(a)
print(bumped, a._version)
try:
    sq.backward()
except RuntimeError as e:
    print(e)
