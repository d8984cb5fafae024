# Module hooks: forward pre-hooks and forward hooks (which may replace args and
# output), full backward pre-hooks and hooks (BackwardHookFunctionBackward
# nodes around the module; grad_input replaced; fired from the outputs when no
# input requires grad), their order in a Sequential, and the deprecated
# register_backward_hook.
import warnings

import torch
import torch.nn as nn

lin = nn.Linear(2, 1)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.0]]))
    lin.bias.fill_(0.1)
log = []
lin.register_forward_pre_hook(lambda m, args: log.append(("pre", len(args))))
h = lin.register_forward_hook(
    lambda m, args, out: log.append(("fwd", tuple(out.shape)))
)
lin.register_full_backward_pre_hook(
    lambda m, gout: log.append(("bpre", [g.tolist() for g in gout]))
)
lin.register_full_backward_hook(
    lambda m, gin, gout: log.append(
        (
            "bwd",
            [None if g is None else g.tolist() for g in gin],
            [g.tolist() for g in gout],
        )
    )
)
x = torch.tensor([[1.0, 2.0]], requires_grad=True)
y = lin(x)
print(y, y.grad_fn, y.grad_fn.next_functions[0][0].name())
n = y.grad_fn.next_functions[0][0]
print([e[0].name() if e[0] else None for e in n.next_functions])
(y * 3).sum().backward()
print(log, x.grad)
log.clear()
y2 = lin(torch.tensor([[1.0, 2.0]]))
with warnings.catch_warnings(record=True) as caught:  # (its URL is PyTorch's page)
    warnings.simplefilter("always")
    (y2 * 3).sum().backward()
print([str(w.message).split(" See ")[0] for w in caught])
print(log, lin.weight.grad)
h.remove()
log.clear()
lin(x).sum().backward()
print(log)
lin2 = nn.Linear(2, 1)
with torch.no_grad():
    lin2.weight.fill_(2.0)
    lin2.bias.fill_(0.25)
lin2.register_full_backward_hook(lambda m, gin, gout: (gin[0] * 10,))
lin2.register_forward_pre_hook(lambda m, args: (args[0] * 2,))
lin2.register_forward_hook(lambda m, args, out: out + 1)
x3 = torch.ones(1, 2, requires_grad=True)
out = lin2(x3)
out.sum().backward()
print(x3.grad, lin2.weight.grad, out - lin2.bias)
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 1))
with torch.no_grad():
    for p in seq.parameters():
        p.fill_(0.5)
order = []
for name, m in seq.named_children():
    m.register_full_backward_hook(
        lambda m, gi, go, name=name: order.append(
            (name, [None if g is None else g.shape for g in gi])
        )
    )
seq(torch.ones(3, 2, requires_grad=True)).sum().backward()
print(order)
old = nn.Linear(2, 1)
old.register_backward_hook(
    lambda m, gi, go: print(
        "old",
        [None if g is None else tuple(g.shape) for g in gi],
        [tuple(g.shape) for g in go],
    )
)
old(torch.ones(1, 2, requires_grad=True)).sum().backward()
