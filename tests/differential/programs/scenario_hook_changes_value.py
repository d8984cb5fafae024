# A tensor hook must return a gradient of the same size and dtype (or None):
# PyTorch checks the value a hook returns, on leaves and non-leaves alike.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


def make(hook):
    x = torch.ones(3, requires_grad=True)
    x.register_hook(hook)
    return x


x = make(lambda g: torch.ones(2))
step("leaf size", lambda: (x * 2).sum().backward())
print(x.grad)
x = make(lambda g: g.double())
step("leaf dtype", lambda: (x * 2).sum().backward())
print(x.grad)
x = make(lambda g: g.int())
step("leaf int", lambda: (x * 2).sum().backward())
x = make(lambda g: [1.0, 2.0, 3.0])
step("leaf list", lambda: (x * 2).sum().backward())
print(x.grad)


def summed(g):
    return g.sum()


x = make(summed)
step("named", lambda: (x * 2).sum().backward())
x = make(lambda g: g * 2)
step("fine", lambda: (x * 2).sum().backward())
print(x.grad)

x = torch.ones(3, requires_grad=True)
y = x * 2
y.register_hook(lambda g: torch.ones(2))
step("non-leaf size", lambda: y.sum().backward())
print(x.grad)
y = x * 2
y.register_hook(lambda g: g.double())
step("non-leaf dtype", lambda: y.sum().backward())
print(x.grad)
y = x * 2
y.register_hook(lambda g: 3)
step("non-leaf int", lambda: y.sum().backward())
print(x.grad)
y = x * 2
y.register_hook(lambda g: g[:1])
step("non-leaf broadcastable", lambda: y.sum().backward())
print(x.grad)
