# None is not a tensor operand: arithmetic, in-place ops, *_like factories and
# autograd.grad reject it with PyTorch's TypeErrors.
import torch

x = torch.ones(2)
for label, f in [
    ("None + x", lambda: None + x),
    ("x * None", lambda: x * None),
    ("x.mul_(None)", lambda: x.mul_(None)),
    ("full_like(None)", lambda: torch.full_like(None, 1.0)),
    ("grad(None)", lambda: torch.autograd.grad(None, [x])),
]:
    try:
        print(label, f())
    except Exception as e:
        print(label, f"{type(e).__name__}: {e}")
y = torch.ones(2, requires_grad=True) * 2
try:
    y.sum().backward(inputs=[None])
except Exception as e:
    print(f"{type(e).__name__}: {e}")
