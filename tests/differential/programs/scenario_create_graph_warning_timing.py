# backward(create_graph=True) warns about the reference cycle only once the
# call's arguments are checked, and the warning surfaces when backward()
# returns: after the hooks' output, and not at all for rejected calls.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
a.register_hook(lambda g: print("hook a", g))
a.register_post_accumulate_grad_hook(lambda p: print("post accumulate a", p.grad))
(a * 3).sum().backward(create_graph=True)
print("---")
try:
    torch.tensor(1.0).backward(create_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    (a * 2).backward(create_graph=True)
except RuntimeError as e:
    print("RuntimeError:", e)
print("--- a pass that raises still warns")
b = torch.tensor([1.0, 2.0], requires_grad=True)
y = b * b
y.backward(torch.ones(2), retain_graph=False)
try:
    y.backward(torch.ones(2), create_graph=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:40])
z = b.exp()
z.mul_(2)
try:
    z.sum().backward(create_graph=True)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:40])
