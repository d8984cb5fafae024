# The root's tensor hooks run even when backward(inputs=...) or
# autograd.grad does not need the root's node (engine.cpp evaluate_function:
# "We always want to call tensor pre-hooks"); its node prehooks do not.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([1.0, 2.0], requires_grad=True)
a.register_hook(lambda g: print("hook a", g))
a.backward(torch.ones(2), inputs=[b])
print(a.grad, b.grad)
y = a * 2
y.register_hook(lambda g: print("hook y", g))
y.grad_fn.register_prehook(lambda go: print("prehook y"))
y.backward(torch.ones(2), inputs=[b])
print(torch.autograd.grad(y, [b], torch.ones(2), allow_unused=True))

# the root's retain_grad runs too
c = torch.tensor([1.0, 2.0], requires_grad=True)
t = c.sum(0, keepdim=True)
t.retain_grad()
t.backward(torch.full((1,), -2.0), inputs=[b])
print(t.grad)
