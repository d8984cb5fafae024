# inf and nan arise silently, in forward and in backward, as in PyTorch: numpy's
# floating-point warnings (overflow, inf - inf, 0/0, log 0, empty means) stay
# inside minigrad.
import torch

x = torch.tensor([1000.0, 1.0, -1000.0], requires_grad=True)
y = x.exp()
print(y, y - y, y / y, (-y).log(), (x - 2000).sqrt())
print(torch.tensor([0.0]) / torch.tensor([0.0]), torch.tensor([1.0, 0.0]).log())
(y * y).sum().backward()
print(x.grad)
print(torch.tensor([]).mean(), torch.ones(0, 3).mean(0), torch.ones(0).var())
e = torch.ones(0, requires_grad=True)
print(torch.nn.functional.mse_loss(e, torch.ones(0)))
s = torch.tensor([1e30, -1e30], requires_grad=True)
(s * s * s).sigmoid().sum().backward()
print(s.grad)
