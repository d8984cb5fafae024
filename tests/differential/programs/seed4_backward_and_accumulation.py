# Seed 4, 2.3.3: backward of a scalar mean, then accumulation across
# backwards and clearing with zero_().
import torch

x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)
out.backward()  # same as out.backward(torch.tensor(1.))
print(x.is_leaf, y.is_leaf, z.is_leaf, out.is_leaf)
print(x.grad)
print(y.grad)
print(z.grad)
print(out.grad)

# backward once more
out2 = x.sum()
out2.backward()  # gradient is 1
print(x.grad)
out3 = x.sum()
x.grad.zero_()
x.grad.detach().zero_()
out3.backward()
print(x.grad)
