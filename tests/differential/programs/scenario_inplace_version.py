# In-place ops bump _version (plain tensors too) and return self.
import torch

x = torch.zeros(3)
print(x._version)
r = x.add_(1)
print(r is x, x, x._version)
x.sub_(0.5)
print(x, x._version)
x.mul_(4)
print(x, x._version)
x.div_(2)
print(x, x._version)
x.fill_(7)
print(x, x._version)
x.copy_(torch.tensor([1.0, 2.0, 3.0]))
print(x, x._version)
x.zero_()
print(x, x._version)
before = id(x)
x += 1
print(x, x._version, id(x) == before)
x[0] = 5
print(x, x._version)
x[1:] *= 2
print(x, x._version)
y = x + 1  # out-of-place: new tensor with its own counter
print(y._version, x._version)
x -= 1
x *= 3
x /= 2
print(x, x._version)
