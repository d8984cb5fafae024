# 1-D @ 2-D matmul is mm(v.unsqueeze(0), M).squeeze_(0) in PyTorch: the result
# is at _version 1 (with and without grad).
import torch

v = torch.tensor([1.0, 2.0])
m = torch.ones(2, 3)
print((v @ m)._version, (m.t() @ v)._version, (v @ v)._version)
w = torch.tensor([1.0, 2.0], requires_grad=True)
r = w @ m
print(r._version, type(r.grad_fn).__name__)
