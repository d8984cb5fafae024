# sum/mean over all elements or along dims: node names and gradients.
import torch

M = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)


def name(t):
    return type(t.grad_fn).__name__


print(M.sum(), name(M.sum()))
print(M.sum(0), name(M.sum(0)))
print(M.sum(1, keepdim=True), name(M.sum(dim=1, keepdim=True)))
print(M.mean(), name(M.mean()))
print(M.mean(1), name(M.mean(1)))
print(M.mean(dim=0, keepdim=True))
print(torch.sum(M, dim=(0, 1)), torch.mean(M, dim=-1))
mg = M.mean(1).grad_fn
print(mg._saved_dim, mg._saved_keepdim, mg._saved_self_sym_sizes)
M.sum(1).sum().backward()
print(M.grad)
M.grad = None
(M.mean(0) * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print(M.grad)
M.grad = None
M.mean().backward()
print(M.grad)
