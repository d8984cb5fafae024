# AccumulateGrad: .variable is the leaf, one node per leaf reused by graphs.
import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
acc = (a * 2).grad_fn.next_functions[0][0]
print(type(acc).__name__, acc.name())
print(acc.variable is a)
print((a * 3).grad_fn.next_functions[0][0] is acc)
print((a + 1).exp().grad_fn.next_functions[0][0].next_functions[0][0] is acc)
print(acc.next_functions)
print(acc)
b = torch.tensor([3.0], requires_grad=True)
acc_b = (a * b).grad_fn.next_functions[1][0]
print(acc_b.variable is b, acc_b is acc)
y = a * a
nf = y.grad_fn.next_functions
print(nf[0][0] is nf[1][0], [(type(f).__name__, nr) for f, nr in nf])
