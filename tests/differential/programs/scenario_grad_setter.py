# Assigning .grad checks the type, the dtype, the size and the device, in
# PyTorch 2.13's words, and leaves .grad as it was when it refuses.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


x = torch.ones(3, requires_grad=True)


def set_grad(v):
    x.grad = v


step("int64", lambda: set_grad(torch.ones(3, dtype=torch.int64)))
print(x.grad)
step("float64", lambda: set_grad(torch.ones(3, dtype=torch.float64)))
print(x.grad)
step("bool", lambda: set_grad(torch.ones(3, dtype=torch.bool)))
step("size", lambda: set_grad(torch.ones(2)))
step("0-d", lambda: set_grad(torch.tensor(1.0)))
print(x.grad)
step("list", lambda: set_grad([1.0, 2.0, 3.0]))
step("itself", lambda: set_grad(x))
print(x.grad)
step("fine", lambda: set_grad(torch.full((3,), 2.0)))
print(x.grad)
step("None", lambda: set_grad(None))
print(x.grad)
i = torch.ones(2, dtype=torch.int64)
step("int tensor", lambda: setattr(i, "grad", torch.ones(2, dtype=torch.int64)))
print(i.grad)
d = torch.ones(2, dtype=torch.float64)
step("float64 leaf float32", lambda: setattr(d, "grad", torch.ones(2)))
print(d.grad)
