# Node hooks see (grad_inputs, grad_outputs); prehooks and hooks may replace
# grads by returning a tuple; handles remove them.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b


def hook(grad_inputs, grad_outputs):
    print("hook", grad_inputs, grad_outputs)


h = y.grad_fn.register_hook(hook)
y.sum().backward(retain_graph=True)
print(a.grad, b.grad)
h.remove()

a.grad = b.grad = None
ph = y.grad_fn.register_prehook(lambda go: (go[0] * 2,))
y.sum().backward(retain_graph=True)
print(a.grad, b.grad)
ph.remove()

a.grad = b.grad = None
y.grad_fn.register_hook(lambda gi, go: (gi[0], None))
y.sum().backward(retain_graph=True)
print(a.grad, b.grad)

a.grad = None
z = a.exp()
z.grad_fn.register_prehook(lambda go: None)
z.grad_fn.register_hook(lambda gi, go: (torch.zeros(2),))
z.sum().backward()
print(a.grad)
