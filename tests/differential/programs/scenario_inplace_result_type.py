# An in-place op whose result type cannot be cast to the written tensor's dtype
# (a float result into an integer or bool tensor) raises and leaves it unchanged.
import torch


def step(name, f):
    try:
        f()
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


i = torch.tensor([1, 2, 4])
step("sqrt_", lambda: i.sqrt_())
step("exp_", lambda: i.exp_())
step("sigmoid_", lambda: i.sigmoid_())
print(i, i._version)


def true_div():
    global i
    i /= 2


step("/= 2", true_div)
step("div_(2)", lambda: i.div_(2))
step("add_(0.5)", lambda: i.add_(0.5))
step("mul_(1.5)", lambda: i.mul_(1.5))
step("sub_(float tensor)", lambda: i.sub_(torch.tensor([0.5, 0.5, 0.5])))
step("pow_(0.5)", lambda: i.pow_(0.5))
step("clamp_(0.5)", lambda: i.clamp_(0.5, 2.5))
print(i, i._version)
step("add_(1)", lambda: i.add_(1))
step("div_ floor", lambda: i.div_(2, rounding_mode="floor"))
print(i, i._version)

b = torch.tensor([True, False])
step("bool add_(1)", lambda: b.add_(1))
step("bool mul_(2)", lambda: b.mul_(2))
step("bool add_(0.5)", lambda: b.add_(0.5))
print(b, b._version)
step("bool add_(True)", lambda: b.add_(True))
print(b, b._version)


def put_float():
    i[torch.tensor([0])] = torch.tensor([0.5])


step("index put float", put_float)
print(i, i._version)


def put_scalar():
    i[0] = 2.5  # a Python number is cast, as in PyTorch


step("setitem number", put_scalar)
print(i, i._version)
f = torch.zeros(3)
step("copy_ int", lambda: f.copy_(torch.tensor([1, 2, 3])))
step("add_ float64", lambda: f.add_(torch.tensor([1.5, 1.0, 1.0], dtype=torch.float64)))
print(f, f._version)
step("int copy_ float", lambda: i.copy_(torch.tensor([1.5, 2.5, 3.5])))
print(i, i._version)
