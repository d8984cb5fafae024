# sort/argsort/msort/topk/kthvalue/median: values, indices, return types, nodes
# with their saved dim/indices, gradients put back where values came from,
# NaN counted as the largest value, and PyTorch's errors for k out of range.
import torch

x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
for r in [
    x.sort(),
    x.sort(0, descending=True),
    x.sort(dim=1, stable=True),
    x.argsort(descending=True),
    x.msort(),
    x.topk(2),
    x.topk(1, 0, largest=False),
    x.kthvalue(2),
    x.kthvalue(1, 0, keepdim=True),
    x.median(),
    x.median(1),
    x.median(0, keepdim=True),
    torch.sort(x, 1),
    torch.topk(x, 2),
    torch.median(x),
]:
    print(r)
    v = r if isinstance(r, torch.Tensor) else r[0]
    if v.requires_grad:
        print(
            v.grad_fn,
            [
                (a, getattr(v.grad_fn, a))
                for a in dir(v.grad_fn)
                if a.startswith("_saved") and a not in ("_saved_self", "_saved_result")
            ],
        )
        (g,) = torch.autograd.grad((v * v).sum(), x)
        print(g)
n = torch.tensor([1.0, float("nan"), 0.0])
print(
    n.sort(descending=True),
    n.topk(1),
    n.kthvalue(3),
    n.median(),
    n.median(0),
    torch.tensor([]).median(),
    torch.tensor(3.0).sort(),
)
try:
    x.topk(4)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.kthvalue(0)
except RuntimeError as e:
    print("RuntimeError:", e)
