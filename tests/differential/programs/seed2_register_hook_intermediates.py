# Seed 2, method 2: register_hook only shows the grads, it does not store them.
# (Built on a fresh graph: the lesson presents it as an alternative to
# method 1.)  Afterwards .grad of an intermediate is None with a warning.
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

l1.register_hook(lambda grad: print("l1 grad: ", grad))
l4.register_hook(lambda grad: print("l4 grad: ", grad))
loss.register_hook(lambda grad: print("loss grad: ", grad))

loss.backward()
# The lesson says accessing the intermediate grads after this "errors":
print(l1.grad)
print(w1.grad, w2.grad, w3.grad)
