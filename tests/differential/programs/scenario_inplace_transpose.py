# In-place view ops transpose_ / t_: TransposeBackward1 / TBackward1, versions,
# gradients, and a view turned in place then written through.
import torch

a = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
b = a * 1
b.transpose_(0, 1)
print(
    b.grad_fn.name(),
    b.grad_fn._saved_dim0,
    b.grad_fn._saved_dim1,
    b._version,
    b.is_contiguous(),
    b.shape,
    b._base is None,
)
c = a * 1
c.t_()
print(c.grad_fn.name(), c._version, c.shape)
(b.sum() * 2 + (c * torch.arange(6.0).view(3, 2)).sum()).backward()
print(a.grad)
try:
    a.transpose_(0, 1)
except RuntimeError as e:
    print(e)
base = a * 1
v = base[0:1]
v.transpose_(0, 1)
print(v.grad_fn.name(), v.grad_fn.next_functions[0][0].name(), v.shape, v._base is base)
v.mul_(2)
print(base, v.grad_fn.name(), base.grad_fn.name())
a.grad = None
base.sum().backward()
print(a.grad)
d = torch.zeros(2, 3)
print(d.t_().shape, d._version, d.grad_fn)
