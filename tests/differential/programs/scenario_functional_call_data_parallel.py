# torch.func.functional_call (a dict or a tuple of dicts, strict=, tie_weights=,
# args and kwargs) and nn.DataParallel on a machine without CUDA: a
# pass-through with PyTorch's repr, .module and parameter names.
import torch
import torch.nn as nn
from torch.func import functional_call

torch.manual_seed(0)
m = nn.Linear(2, 1)
m.register_buffer("scale", torch.tensor(2.0))
x = torch.ones(1, 2)
w = torch.tensor([[1.0, 2.0]], requires_grad=True)
b = torch.tensor([0.5])


def step(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


step("dict", lambda: functional_call(m, {"weight": w, "bias": b}, (x,)))
step("partial", lambda: functional_call(m, {"weight": w}, x))
step("tuple of dicts", lambda: functional_call(m, ({"weight": w}, {"bias": b}), (x,)))
step("repeated", lambda: functional_call(m, ({"weight": w}, {"weight": w}), (x,)))
step("strict missing", lambda: functional_call(m, {"weight": w}, (x,), strict=True))
every = {"weight": w, "bias": b, "scale": torch.tensor(1.0)}
step("strict", lambda: functional_call(m, every, (x,), strict=True))
step("unexpected", lambda: functional_call(m, {"weight": w, "foo": b}, (x,)))
step("unexpected strict", lambda: functional_call(m, {"foo": b}, (x,), strict=True))
lin = nn.Linear(2, 1)
step("kwargs", lambda: functional_call(lin, {"weight": w}, (), {"input": x}))
step("not dicts", lambda: functional_call(m, [w], (x,)))
step("no args", lambda: functional_call(nn.Identity(), {}, None, {"input": x}))
print(m.weight, m.bias, m.scale, hasattr(m, "foo"))
y = functional_call(m, {"weight": w}, (x,))
y.sum().backward()
print(w.grad, m.weight.grad, y.grad_fn.name())


class Tied(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2, bias=False)
        self.b = nn.Linear(2, 2, bias=False)
        self.b.weight = self.a.weight

    def forward(self, x):
        return self.b(self.a(x))


t = Tied()
w2 = torch.eye(2) * 3
step("tied", lambda: functional_call(t, {"a.weight": w2}, (x,)))
step("untied", lambda: functional_call(t, {"a.weight": w2}, (x,), tie_weights=False))
step("tied twice", lambda: functional_call(t, {"a.weight": w2, "b.weight": w2 * 2}, x))
step("tied same", lambda: functional_call(t, {"a.weight": w2, "b.weight": w2}, x))
step("tied strict", lambda: functional_call(t, {"b.weight": w2}, x, strict=True))
seq = nn.Sequential(nn.Linear(2, 1))
step("nested", lambda: functional_call(seq, {"0.weight": w}, (x,)))
step("nested bad", lambda: functional_call(seq, {"0.foo.weight": w}, (x,)))
print(t.b.weight is t.a.weight, seq[0].weight.requires_grad)

dp = nn.DataParallel(nn.Linear(2, 1))
print(dp)
print(dp.module, type(dp.module).__name__, dp(x).shape, dp(input=x).grad_fn.name())
print([n for n, _ in dp.named_parameters()], list(dp.state_dict()), dp.device_ids)
print(nn.DataParallel(nn.Sequential(nn.Linear(2, 2), nn.ReLU()), device_ids=None))
print(nn.parallel.DataParallel is nn.DataParallel, isinstance(dp, nn.Module))
