# shape/size()/dim()/dtype/torch.Size, item() and tolist().
import torch

m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
print(m.shape)
print(m.size())
print(m.size(0), m.size(1), m.size(-1))
print(m.dim(), m.ndim, m.numel())
print(m.dtype, m.shape == (2, 3), m.shape[0], tuple(m.shape))
print(torch.Size([2, 3]))
print(torch.Size([]))
print(torch.tensor(5.0).shape, torch.tensor(5.0).dim())
s = (m * 2).sum()
print(s.item(), type(s.item()).__name__)
print(m.tolist())
print(torch.tensor([1, 2]).tolist(), torch.tensor(3).item())
print(torch.tensor(2.5).tolist())
print(m.sum(0).shape, m[0].shape, m.t().shape)
print(len(m), len(m.shape))
