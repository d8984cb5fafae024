# A node with no derivative (a // b, 2 % a) is an error node without a sequence
# number (UINT64_MAX): when it is ready together with a sibling, the engine runs
# it first, so backward fails before the sibling branch gives a leaf its .grad.
import torch

a = torch.ones(2, requires_grad=True)
b = torch.ones(2, requires_grad=True)
for make in (lambda: (b // 2) + (a * 2), lambda: (a * 2) + (2 % b)):
    y = make().sum()
    for node, _ in y.grad_fn.next_functions[0][0].next_functions:
        print(type(node).__name__, node._sequence_nr() == 2**64 - 1)
    try:
        y.backward()
    except RuntimeError as e:
        print("RuntimeError:", e)
    print(a.grad, b.grad)
