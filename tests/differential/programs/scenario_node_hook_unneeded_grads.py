# With backward(inputs=...) / autograd.grad, a node computes only the grads
# its needed edges want: a node hook sees None for the others.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = a * b
y.grad_fn.register_hook(lambda gi, go: print("node hook", gi, go))
y.sum().backward(inputs=[a], retain_graph=True)
print(a.grad, b.grad)
print(torch.autograd.grad(y.sum(), [b]))
