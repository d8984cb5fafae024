# Forward AD through views and in-place ops: a view of a dual tensor has a view
# of its tangent, so writing through a view (or into a plain tensor) updates
# the owner's tangent in place, as in PyTorch.
import warnings

import torch
import torch.autograd.forward_ad as fwAD

warnings.filterwarnings("ignore", category=DeprecationWarning)
x = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
t = torch.tensor([1.0, 10.0, 100.0], dtype=torch.float64)
with fwAD.dual_level():
    d = fwAD.make_dual(x.clone(), t)
    v = d[0:2]
    print(fwAD.unpack_dual(v).tangent)
    v.mul_(2)
    print(fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(v).tangent)
    p = torch.zeros(3, dtype=torch.float64)
    p[1:] = d[:2]
    print(fwAD.unpack_dual(p).tangent)
    q = torch.zeros(3, dtype=torch.float64)
    q.copy_(d)
    print(fwAD.unpack_dual(q).tangent)
    r = d.clone()
    r += d
    print(fwAD.unpack_dual(r).tangent)
    s = d.detach()
    print(fwAD.unpack_dual(s).tangent)
    print(t)
    w = d.view(3, 1)[1:]
    w.add_(1.0)
    print(fwAD.unpack_dual(d).tangent, fwAD.unpack_dual(w).tangent)
    e = fwAD.make_dual(
        torch.ones(2, 2, dtype=torch.float64), torch.eye(2, dtype=torch.float64)
    )
    e.t().mul_(3)
    print(fwAD.unpack_dual(e))
    u = torch.zeros(2, dtype=torch.float64)
    u.add_(d[:2] * 0 + 1)
    print(fwAD.unpack_dual(u).tangent)
