# Walking next_functions of a small graph, with node names.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = torch.tensor([5.0, 6.0])
y = (a * b + c).exp().sum()


def walk(fn, depth=0):
    nf = [(type(f).__name__ if f else None, nr) for f, nr in fn.next_functions]
    print("  " * depth + f"{type(fn).__name__} {fn.name()} {nf}")
    for f, _ in fn.next_functions:
        if f is not None:
            walk(f, depth + 1)


walk(y.grad_fn)
print(type(y.grad_fn.next_functions), type(y.grad_fn.next_functions[0]))
print(len(y.grad_fn.next_functions[0][0].next_functions))
print(a.grad_fn, c.grad_fn)
