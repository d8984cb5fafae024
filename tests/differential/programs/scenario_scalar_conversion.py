# float() of a tensor that requires grad warns (the value has no history), as in
# PyTorch 2.13; int(), .item() and formatting do not.
import torch

x = torch.tensor(2.5, requires_grad=True)
print(float(x))
print(float(x * 2))
print(int(x), x.item(), f"{x.item():.2f}")
print(float(x.detach()), float(torch.tensor([1.5])))
