# Gradients meeting at one input are summed by PyTorch's InputBuffer, which
# (without create_graph) adds into the first one in place when it is dense, no
# view and held by the buffer alone, so its _version moves; an expanded one (a
# sum's), a view (t(), view) or one sent to two places (x + x) is added out
# of place, and the order the gradients arrive in decides which is first. An
# index's gradient (index_put_ into zeros) starts at version 1. A leaf that
# takes the buffer as its .grad keeps its version; a copied .grad is at 1.
import torch


def run(label, build, create_graph=False):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = torch.tensor([2.0, 3.0, 4.0], requires_grad=True)
    (g,) = torch.autograd.grad(build(x, a).sum(), x, create_graph=create_graph)
    x2 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    build(x2, a).sum().backward()
    values = [round(v, 4) for v in g.tolist()]  # (float32 exp rounds apart)
    print(label, values, g._version, x2.grad._version)
    return g


run("x * a + x * a", lambda x, a: x * a + x * a)
run("three products", lambda x, a: x * a + x * a + x * 2)
run("x + x", lambda x, a: x + x)
run("x * x", lambda x, a: x * x)
run("x * x * x", lambda x, a: x * x * x)
run("x + x * a", lambda x, a: x + x * a)
run("x * a + x", lambda x, a: x * a + x)
run("exp + tanh", lambda x, a: x.exp() + x.tanh())
run("x[0] + x", lambda x, a: x[0] + x)
run("x + x[0]", lambda x, a: x + x[0])
run("slices", lambda x, a: x[1:] * 2 + x[:2] * 3)
run("index", lambda x, a: x[[0, 0]] * 2)
run("index then product", lambda x, a: x[[0, 0]].sum() * x)
run("index_select", lambda x, a: x.index_select(0, torch.tensor([2, 0, 2])) * a)
run("sum + product", lambda x, a: x.sum() + x * 2)
run("product + sum", lambda x, a: x * 2 + x.sum())
run("mean + mean", lambda x, a: x.mean() + x.mean())
run("views", lambda x, a: x.view(3, 1) * a.view(1, 3) + x.view(3, 1) * 2)
run("t()", lambda x, a: x.view(1, 3).t() * 2 + x.view(3, 1) * 3)
run("-x + x * 2", lambda x, a: -x + x * 2)
run("x * 2 - x", lambda x, a: x * 2 - x)
run("x - x * 2", lambda x, a: x - x * 2)
run("four terms", lambda x, a: x * a + x + x * 3 + x.exp())
run("create_graph", lambda x, a: x * a + x * a, create_graph=True)
run("create_graph index", lambda x, a: x[[0, 1]] * a[:2], create_graph=True)

# a gradient held elsewhere (grad_outputs) is added out of place
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1
go = torch.ones(2)
(g,) = torch.autograd.grad([y, x * 2], [x], grad_outputs=[go, torch.ones(2)])
print("held", g.tolist(), g._version, go._version)

# the version shows in a version error of a tensor saved after the write
x = torch.tensor([1.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad((x * x).sum(), x)
w = torch.ones(2, requires_grad=True)
z = (w * g).sum()
g.mul_(2)
try:
    z.backward()
except RuntimeError as e:
    print(e)

# non-leaf inputs: the gradient captured at a node's input
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3
(g,) = torch.autograd.grad((h * h + h.exp()).sum(), h)
print("non-leaf", g._version)
gv = g.view(2, 1)
print("its view", gv._version)

# .grad of a leaf, first and later
x = torch.ones(3, requires_grad=True)
x.backward(torch.ones(3))
print("given gradient", x.grad._version)
x = torch.ones(3, requires_grad=True)
x.sum().backward()
print("expanded", x.grad._version)
x.sum().backward()
print("second", x.grad._version)
x = torch.ones(3, requires_grad=True)
x.expand(2, 3).sum().backward()
print("summed", x.grad._version)

# a view regenerated after its base changed: AsStridedBackward0's gradient is
# written into zeros (version 1), a view that is added out of place
b = torch.ones(2, 3, requires_grad=True) * 1
v = b[:, :2]
b.mul_(2)
(g,) = torch.autograd.grad(v.sum(), [b], retain_graph=True)
print(type(v.grad_fn).__name__, g._version)
(g,) = torch.autograd.grad(v.sum() + (b * 2).sum(), [b])
print("with a product", g._version)
t = torch.tensor(2.0, requires_grad=True) * 1
t5 = t.reshape(-1)
with torch.no_grad():
    t.add_(2.0)
(g,) = torch.autograd.grad(t5, [t])
print("0-d", g._version)
