# mean()'s gradient is expanded, then divided: a fresh contiguous tensor, so
# .view works on it (sum()'s stays an expanded view, and view refuses it).
# Found by the engine fuzzer.
import torch

a = torch.zeros(2, 3, requires_grad=True)
for reduce in (lambda t: t.mean(dim=0), lambda t: t.mean(), lambda t: t.sum(dim=0)):
    out = reduce(a)
    (g,) = torch.autograd.grad(out, [a], grad_outputs=torch.ones_like(out))
    try:
        print(g.view(-1), g.is_contiguous())
    except RuntimeError as e:
        print("RuntimeError:", e)
