# How PyTorch's argument parser names an argument's type in its errors
# (CPython's tp_name): a class written in Python by its bare name (Tensor,
# Parameter, a lesson's own class), a C type with its module (numpy.float64),
# the same in every error that shows types (where, the legacy constructor,
# view, indexing, sizes).
import numpy as np
import torch


class Foo:
    pass


c = torch.tensor([True])
x = torch.ones(1)
p = torch.nn.Parameter(torch.ones(1))
probes = [
    lambda: torch.where(c, x, [np.float64(1.0)]),
    lambda: torch.where(c, "s", np.float64(1)),
    lambda: torch.where(c, p, "s"),
    lambda: torch.where(c, x, Foo()),
    lambda: torch.Tensor(p, "s"),
    lambda: torch.Tensor(Foo()),
    lambda: torch.Tensor([1], np.int64(2), Foo()),
    lambda: torch.ones(1).view((2.5, p)),
    lambda: torch.ones(1).view(Foo()),
    lambda: torch.ones(2)[Foo()],
    lambda: torch.ones(2).reshape([1.5]),
    lambda: torch.zeros(Foo()),
]
for probe in probes:
    try:
        probe()
        print("no error")
    except (TypeError, IndexError, RuntimeError) as e:
        print(type(e).__name__, e)
