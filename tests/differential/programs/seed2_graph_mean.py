# Seed 2: the l1..l4 graph reduced by mean(); grads of the three weights, and
# the same result through torch.autograd.backward(loss).
import torch

input = torch.ones([2, 2], requires_grad=False)
w1 = torch.tensor(2.0, requires_grad=True)
w2 = torch.tensor(3.0, requires_grad=True)
w3 = torch.tensor(4.0, requires_grad=True)

l1 = input * w1
l2 = l1 + w2
l3 = l1 * w3
l4 = l2 * l3
loss = l4.mean()

loss.backward()
print(loss)
print(w1.grad, w2.grad, w3.grad)
print(l1.grad_fn, l2.grad_fn, l3.grad_fn, l4.grad_fn, loss.grad_fn)
print(input.is_leaf, w1.is_leaf, l1.is_leaf, loss.is_leaf)

# or torch.autograd.backward(loss)
for w in (w1, w2, w3):
    w.grad = None
loss = ((input * w1 + w2) * (input * w1 * w3)).mean()
torch.autograd.backward(loss)
print(w1.grad, w2.grad, w3.grad)
