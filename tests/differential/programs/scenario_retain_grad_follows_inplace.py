# retain_grad() follows a tensor to the grad_fn an in-place op gives it (the
# gradient of its new value), while a hook registered before stays with the old
# node; a view's retain_grad survives the regeneration of its grad_fn. Found by
# the engine fuzzer.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.retain_grad()
y.register_hook(lambda g: print("hook before mul_", g))
y.mul_(3)
y.register_hook(lambda g: print("hook after mul_", g))
(y * y).sum().backward()
print("y.grad", y.grad, "x.grad", x.grad, y.grad_fn.name())

x.grad = None
y = x * 2
v = y[:1]
v.retain_grad()
y.mul_(3)  # v's grad_fn is regenerated (AsStridedBackward0) when next read
(v * 5).sum().backward()
print("v.grad", v.grad, "x.grad", x.grad, v.grad_fn.name())

x.grad = None
b = x * 1
b.retain_grad()
w = b[1:]
w.retain_grad()
w.mul_(10)  # b's history becomes CopySlices, w's AsStridedBackward0
(b * b).sum().backward()
print("b.grad", b.grad, "w.grad", w.grad, b.grad_fn.name(), w.grad_fn.name())
print("x.grad", x.grad)
