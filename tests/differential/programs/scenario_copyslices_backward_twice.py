# CopySlices drops its wrapped node when the graph is freed: a second
# backward through an in-place-modified slice raises, even when no node on
# the way saved a tensor.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
t = a.clone()
t[1:] = -1.0
t.sum().backward()
print(a.grad)
try:
    t.sum().backward()
    print(a.grad)
except RuntimeError as e:
    print("RuntimeError:", e)
