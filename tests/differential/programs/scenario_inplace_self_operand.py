# x.mul_(x): MulBackward0 saves x as it was (version 0) while x itself moves
# to version 1 with grad_fn Mul.  Backward through it must raise the version
# error, which names x's current grad_fn (Mul).
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
s = a.sum()
s.mul_(s)
try:
    s.backward()
    print(a.grad)
except RuntimeError as e:
    print("RuntimeError:", e)
t = a.exp()
t.mul_(t)
try:
    t.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
