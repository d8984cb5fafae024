# autograd.grad captures an input's gradient before that tensor's hooks when
# its node runs on (the hooks belong to running it), after them when it does
# not; and mv's gradient for the matrix is PyTorch's outer, grad.reshape(-1, 1)
# * vec. Found by the engine fuzzer.
import torch

a1 = torch.tensor(0.5, requires_grad=True)
t2 = a1.exp()
t2.register_hook(lambda g: g * 2)
g5, g6 = torch.autograd.grad(t2, [a1, t2], create_graph=True)
print(g5, g6)
(g,) = torch.autograd.grad(t2, [t2])  # its node does not run: hooks first
print(g)
A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
v = torch.tensor([0.5, -1.0], requires_grad=True)
(gA,) = torch.autograd.grad((A @ v).sum(), [A], create_graph=True)
edges = gA.grad_fn.next_functions
print(gA.grad_fn.name(), [(type(f).__name__ if f else None) for f, _ in edges])
