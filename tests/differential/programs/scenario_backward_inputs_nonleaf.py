# backward(inputs=[t]): PyTorch calls t.retain_grad() on every input (so a
# non-leaf input retains its grad afterwards, and an input that does not
# require grad raises retain_grad's error), and it runs the input's grad_fn
# (node hooks fire, saved tensors are unpacked: freed graphs raise).  An input
# that already retains its grad gets it once, not twice.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
y = a * 2
z = y * 3
y.grad_fn.register_hook(lambda gi, go: print("node hook", type(y.grad_fn).__name__))
z.sum().backward(inputs=[y], retain_graph=True)
print(y.retains_grad, y.grad, a.grad)
z.sum().backward(inputs=[y])
print(y.retains_grad, y.grad, a.grad)
try:
    z.sum().backward(inputs=[torch.ones(2)])
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    z.sum().backward(inputs=[])
except RuntimeError as e:
    print("RuntimeError:", e)

b = torch.tensor([1.0, 2.0], requires_grad=True)
w = b * 2
w.retain_grad()
(w * 3).sum().backward(inputs=[w])
print(w.grad)

c = torch.tensor([1.0, 2.0], requires_grad=True)
d = c @ c
d.backward(inputs=[d])
try:
    d.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
print(c.grad)
