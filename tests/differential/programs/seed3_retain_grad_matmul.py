# Seed 3: with retain_grad() the non-leaf reshape results get their grads.
import torch

xx = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(10, 1)
ww = torch.arange(10, dtype=torch.float32, requires_grad=True).reshape(1, 10)
yy = ww @ xx
xx.retain_grad()
ww.retain_grad()
yy.backward()
print((xx.grad, ww.grad))
