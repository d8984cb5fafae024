# Writes whose operand partly overlaps the written memory are refused (PyTorch
# detects it: the result would depend on its kernel's order); full overlap and
# zero-size tensors are fine.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


u = torch.arange(5.0)


def shifted_set():
    u[:2] = u[1:3]


step("u[:2] = u[1:3]", shifted_set)
print(u, u._version)
step("copy_ shifted", lambda: u[1:].copy_(u[:-1]))
step("add_ shifted", lambda: u[1:].add_(u[:-1]))
step("mul_ shifted", lambda: u[:-1].mul_(u[1:]))
print(u, u._version)
step("copy_ itself", lambda: u.copy_(u))
step("add_ itself", lambda: u.add_(u))
print(u, u._version)
m = torch.arange(4.0).reshape(2, 2)
step("add_ transpose", lambda: m.add_(m.t()))
print(m, m._version)
z = torch.zeros(3)
step("zero-size copy_", lambda: z[:0].copy_(z[1:1]))
step("zero-size add_", lambda: z[:0].add_(z[1:1]))
step("zero-size expanded", lambda: torch.zeros(0).expand(2, 0).add_(1))
step("expanded", lambda: torch.zeros(3).expand(2, 3).add_(1))
e = torch.zeros(0)
step("empty copy_ itself", lambda: e.copy_(e))
print(z, e)
