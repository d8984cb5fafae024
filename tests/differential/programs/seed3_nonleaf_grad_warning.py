# Seed 3: reading .grad of the non-leaf reshape results gives (None, None)
# with one UserWarning per access.
import torch

xx = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
ww = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(1, 10)
yy = ww @ xx
yy.backward()
print((xx.grad, ww.grad))  # (None, None)
