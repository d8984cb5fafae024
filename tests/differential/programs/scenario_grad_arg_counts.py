# autograd.grad / backward count their tensors and gradients, and refuse empty
# inputs, before running anything.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
one = torch.tensor(1.0)
step("2 vs 1", lambda: print(torch.autograd.grad([y, y], [x], grad_outputs=[one])))
step("1 vs 2", lambda: print(torch.autograd.grad([y], [x], grad_outputs=[one, one])))
step("no inputs", lambda: print(torch.autograd.grad(y, [])))
step("no inputs tuple", lambda: print(torch.autograd.grad(y, ())))
step("backward 2 vs 1", lambda: torch.autograd.backward([y, y], [one]))
step("backward 1 vs 2", lambda: torch.autograd.backward([y], [one, one]))
print(x.grad)
step("both", lambda: print(torch.autograd.grad([y, y], [x], grad_outputs=[one, one])))
print(x.grad)
