# nn containers edited in place, as transfer-learning and course code does:
# Sequential item assignment, deletion (renumbered), slices, insert/extend/pop,
# + and * of Sequentials; ModuleList the same, with its errors; the modules
# and parameters they register afterwards.
import re

import torch
import torch.nn as nn


def attempt(fn):
    try:
        out = fn()
        print("ok", out if not isinstance(out, nn.Module) else type(out).__name__)
    except Exception as e:  # noqa: BLE001 - the error is what is compared
        # class paths differ (torch.nn.modules.activation.ReLU, minigrad.nn.layers.ReLU)
        print(type(e).__name__, re.sub(r"<class '[\w.]*\.(\w+)'>", r"<\1>", str(e)))


torch.manual_seed(0)
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
seq[2] = nn.Linear(3, 4)
seq[-2] = nn.Tanh()
print(seq)
print([n for n, _ in seq.named_parameters()])
attempt(lambda: seq.__setitem__(3, nn.ReLU()))
attempt(lambda: seq.__setitem__(-4, nn.ReLU()))
del seq[1]
print(seq, list(seq._modules))
seq.insert(1, nn.Sigmoid())
seq.insert(-1, nn.Identity())
seq.insert(len(seq), nn.Softmax(dim=-1))
print(seq)
attempt(lambda: seq.insert(10, nn.ReLU()))
attempt(lambda: seq.insert(0, "relu"))
popped = seq.pop(1)
print(type(popped).__name__, list(seq._modules))
seq.extend(nn.Sequential(nn.ReLU(), nn.Dropout(0.5)))
seq.extend([nn.ELU()])
print(seq)
del seq[1:3]
print(seq)
print(seq[1:], seq[::2], seq[-1])
two = nn.Sequential(nn.ReLU()) + nn.Sequential(nn.Tanh(), nn.Sigmoid())
print(two)
attempt(lambda: nn.Sequential(nn.ReLU()) + nn.ReLU())
print(nn.Sequential(nn.Linear(1, 1), nn.ReLU()) * 2)
print(3 * nn.Sequential(nn.ReLU()))
attempt(lambda: nn.Sequential(nn.ReLU()) * 0)
attempt(lambda: nn.Sequential(nn.ReLU()) * 1.5)
s = nn.Sequential(nn.ReLU(), nn.Tanh())
s *= 2
print(s)
s += nn.Sequential(nn.Sigmoid())
print(s, len(s))
lin = nn.Linear(2, 2)
shared = nn.Sequential(lin, nn.ReLU()) * 2
print(len(list(shared.parameters())), shared[0] is shared[2])
x = torch.ones(1, 2)
print(nn.Sequential(nn.Linear(2, 2), nn.ReLU())[0](x).shape)

ml = nn.ModuleList([nn.Linear(2, 2), nn.ReLU()])
ml[1] = nn.Tanh()
ml[-1] = nn.Sigmoid()
attempt(lambda: ml.__setitem__(2, nn.ReLU()))
attempt(lambda: ml[5])
ml.insert(0, nn.Identity())
ml.insert(2, nn.ELU())
print(ml, list(ml._modules))
print(type(ml.pop(0)).__name__, list(ml._modules))
del ml[0]
print(ml)
ml += [nn.ReLU(), nn.ReLU()]
print(ml)
ml2 = ml + nn.ModuleList([nn.Tanh()])
print(type(ml2).__name__, len(ml2), len(ml))
attempt(lambda: ml.extend(nn.ReLU()))
attempt(lambda: ml.extend(5))
del ml[::2]
print(ml, list(ml._modules))
print(ml[1:], ml[-1])
print(nn.ModuleList() + [nn.ReLU()])

md = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
md.update([("c", nn.Sigmoid())])
print(md, list(md.keys()), "a" in md, len(md))
print(type(md.pop("a")).__name__, list(md))
attempt(lambda: md["zz"])
md.clear()
print(md)
