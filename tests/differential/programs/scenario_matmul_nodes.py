# matmul/dot/mv/mm node names and gradients.
import torch

A = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
B = torch.tensor([[0.5, -1.0], [2.0, 1.0]], requires_grad=True)
v = torch.tensor([1.0, -2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)


def name(t):
    return type(t.grad_fn).__name__


print(name(A @ B), name(torch.mm(A, B)), name(A.mm(B)), name(torch.matmul(A, B)))
print(name(A @ v), name(torch.mv(A, v)), name(A.mv(v)))
print(name(v @ w), name(torch.dot(v, w)), name(v.dot(w)))
print(A @ B)
print(A @ v, v @ w)
(A @ B).sum().backward()
print(A.grad)
print(B.grad)
A.grad = None
(A @ v).sum().backward()
print(A.grad, v.grad)
v.grad = None
torch.dot(v, w).backward()
print(v.grad, w.grad)
print(
    torch.mm(A, B).grad_fn._saved_self is A, torch.dot(v, w).grad_fn._saved_tensor is w
)
