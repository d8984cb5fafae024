# In-place on a leaf that requires grad (or a view of it) is an error.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
for label, op in [
    ("add_", lambda: a.add_(1)),
    ("mul_", lambda: a.mul_(2)),
    ("zero_", lambda: a.zero_()),
    ("fill_", lambda: a.fill_(1.0)),
    ("copy_", lambda: a.copy_(torch.ones(3))),
    ("setitem", lambda: a.__setitem__(0, 5.0)),
    ("view mul_", lambda: a[:2].mul_(2)),
    ("view add_", lambda: a.view(3, 1).add_(1)),
]:
    try:
        op()
    except RuntimeError as e:
        print(label, "RuntimeError:", e)
try:
    a += 1
except RuntimeError as e:
    print("+= RuntimeError:", e)
print(a, a._version, a.grad_fn)
b = torch.tensor([1.0, 2.0])
b.add_(1)  # no grad required: fine
print(b)
