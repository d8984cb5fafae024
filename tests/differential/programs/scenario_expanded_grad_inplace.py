# sum()'s gradient is its output's gradient expanded to the input's shape: where
# nothing actually repeats (0-d, all-ones dims) it can be written in place, else
# PyTorch refuses (one memory location for several elements). Found by the
# engine fuzzer.
import torch

for shape in [(), (1,), (1, 1), (3,), (2, 1)]:
    a = torch.zeros(shape, requires_grad=True)
    (g,) = torch.autograd.grad(a.sum(), [a])
    try:
        with torch.no_grad():
            g.add_(2.0)
        print(shape, g.tolist(), g._version)
    except RuntimeError as e:
        print(shape, "RuntimeError:", e)
    b = torch.zeros(shape, requires_grad=True)
    b.sum().backward()
    b.grad.add_(1)
    print(b.grad.tolist())
