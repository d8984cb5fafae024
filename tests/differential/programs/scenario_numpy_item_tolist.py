# numpy() refuses tensors that require grad; item() and tolist() do not.
import torch

a = torch.tensor([1.5, 2.5], requires_grad=True)
try:
    a.numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 2).numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
n = a.detach().numpy()
print(n, n.dtype, type(n).__name__)
n[0] = 9.0  # shares memory with a
print(a)
print(a.tolist(), a[1].item(), (a * 2).sum().item())
print(torch.tensor([1.0, 2.0]).numpy())
print(torch.tensor([[1, 2], [3, 4]]).numpy().tolist())
try:
    a.item()
except RuntimeError as e:
    print("RuntimeError:", e)
