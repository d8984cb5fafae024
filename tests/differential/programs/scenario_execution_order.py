# Engine execution order observed with node pre-hooks (facts C4).
import torch


def record(t, order):
    seen = set()
    stack = [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        label = type(fn).__name__
        if label == "AccumulateGrad":
            label += f"({names[id(fn.variable)]})"
        fn.register_prehook(lambda go, label=label: order.append(label))
        stack.extend(f for f, _ in fn.next_functions)


p = torch.tensor([1.0, 2.0], requires_grad=True)
names = {id(p): "p"}
q = p * 2
r = q.exp()
s = q.sin()
t = r + s
u = t * q
order = []
record(u, order)
u.sum().backward()
print(order)

a = torch.tensor(1.0, requires_grad=True)
b = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(3.0, requires_grad=True)
names.update({id(a): "a", id(b): "b", id(c): "c"})
y = a * b
z = y * c
w = z.exp()
order = []
record(w, order)
w.backward()
print(order)
