# Edge values: sum/mean over an empty dim list reduce every dim, sign and sgn of
# nan are 0, chunk of an empty dim gives `chunks` empty pieces.
import torch

x = torch.arange(6.0).reshape(2, 3).requires_grad_()
for y in (x.sum(dim=[]), x.mean(dim=[]), x.sum(dim=()), x.sum(dim=[], keepdim=True)):
    print(y, y.shape, type(y.grad_fn).__name__)
x.mean(dim=[]).backward()
print(x.grad)
v = torch.tensor([float("nan"), -1.0, 0.0, 2.0])
print(v.sign(), v.sgn(), torch.sign(v))
print(torch.ones(0, 2).chunk(3))
print(torch.ones(2, 0).chunk(2, 1))
print(torch.ones(0).chunk(1))
print(torch.ones(5).chunk(2))
