# autograd.grad checks its outputs in backward()'s order: the implicit gradient
# of a non-scalar output first, then whether the output has a graph at all.
# Found by the engine fuzzer.
import torch

a = torch.zeros(2, 2, requires_grad=True)
with torch.no_grad():
    v = a.reshape(-1)  # requires grad (a no_grad view), but has no grad_fn
for call in (
    lambda: torch.autograd.grad(v, [a], allow_unused=True),
    lambda: v.backward(),
    lambda: torch.autograd.grad(v.sum(), [a]),
):
    try:
        call()
    except RuntimeError as e:
        print("RuntimeError:", e)
