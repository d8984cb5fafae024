# backward(inputs=...) and torch.autograd.backward accumulate only into the
# requested leaves.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = (a * b).sum()
y.backward(inputs=[a])
print(a.grad, b.grad)

y = (a * b).sum()
y.backward(inputs=[b], retain_graph=True)
print(a.grad, b.grad)
y.backward(inputs=[a, b])
print(a.grad, b.grad)

a.grad = b.grad = None
u = a * 2
v = b * 3
torch.autograd.backward([u, v], [torch.ones(2), torch.tensor([1.0, 10.0])])
print(a.grad, b.grad)
torch.autograd.backward((a * b).sum(), inputs=[b])
print(a.grad, b.grad)
