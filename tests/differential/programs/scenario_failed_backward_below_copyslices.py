# A backward that fails with the version error frees what the nodes that ran
# had saved, as PyTorch's does: a second backward through them says "backward
# through the graph a second time"; one that fails inside CopySlices (its
# wrapped node's saved tensor is stale) repeats the version error. With two
# stale saved tensors the error names the one PyTorch unpacks first.
import torch


def twice(f):
    for i in range(2):
        try:
            f()
            print(i, "ok")
        except RuntimeError as e:
            print(i, e)


# the failing node runs after CopySlices (its saved result was written into)
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a.exp()
y[0] = 5.0
twice(lambda: y.sum().backward())

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = a * 1
v = y[0:2]
v.exp_()
v.add_(1)
twice(lambda: y.sum().backward())

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
y = a * 1
v = y.t()
v.exp_()
v[0].mul_(2)
twice(lambda: y.sum().backward())

# the failing node is the one CopySlices wraps
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
y = a * 1
t = s * 1
y[0:2].mul_(t)
t.add_(1)
twice(lambda: y.sum().backward())

# two stale saved tensors: PyTorch's MulBackward0 unpacks other before self
for first, second in ((0, 1), (1, 0)):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    p, q = a.exp(), b.exp()
    m = p * q
    m[0] = 1.0
    (p, q)[first].add_(1)
    (p, q)[second].mul_(2)
    twice(lambda m=m: m.sum().backward())
    print(a.grad, b.grad)

# the view's grad_fn after an in-place op on it: named while it is held
for hold in (False, True):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = a * 1
    v = y[0:2]
    v.exp_()
    held = v.grad_fn if hold else None
    v.add_(1)
    twice(lambda y=y: y.sum().backward())
