# no_grad (context and decorator), enable_grad, set_grad_enabled,
# is_grad_enabled.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    b = a * 2
    with torch.enable_grad():
        print(torch.is_grad_enabled())
        c = a * 2
    print(torch.is_grad_enabled())
print(torch.is_grad_enabled())
print(b.requires_grad, b.grad_fn, b.is_leaf)
print(c.requires_grad, type(c.grad_fn).__name__)


@torch.no_grad()
def doubled(t):
    return t * 2, torch.is_grad_enabled()


print(doubled(a))
print(torch.is_grad_enabled())

with torch.set_grad_enabled(False):
    d = a + 1
print(d.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(False)
e = a + 1
print(e.requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
f = a + 1
print(f.requires_grad, torch.is_grad_enabled())
with torch.set_grad_enabled(True):
    print((a * 3).grad_fn is not None)
