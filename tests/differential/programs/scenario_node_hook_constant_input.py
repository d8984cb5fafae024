# A node hook sees None for an input that needs no gradient (a wrapped Python
# number, a constant tensor), and the broadcast-undone gradient for the others.
# Found by the engine fuzzer.
import torch

a = torch.tensor(0.5, requires_grad=True)
t = 2.0 + a
t.grad_fn.register_hook(lambda gi, go: print("hook", gi, go))
t.backward(create_graph=True)
print(a.grad)

w = torch.ones(3, requires_grad=True)
c = torch.ones(2, 3)
u = c * w
u.grad_fn.register_hook(lambda gi, go: print("hook", gi, go))
u.sum().backward()
print(w.grad)
