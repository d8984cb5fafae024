# F.embedding / nn.Embedding: lookups, EmbeddingBackward0's saved attributes,
# padding_idx (negative too), scale_grad_by_freq, max_norm renormalization, the
# EmbeddingDenseBackwardBackward0 of create_graph, from_pretrained, reprs, errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

w = torch.tensor(
    [
        [0.5, -1.0, 2.0],
        [1.0, 0.25, -0.5],
        [2.0, 1.5, 0.0],
        [-1.5, 0.5, 1.0],
        [0.1, 0.2, 0.3],
    ],
    dtype=torch.float64,
    requires_grad=True,
)
i = torch.tensor([[0, 2], [4, 2]])
for kw in [
    {},
    {"padding_idx": 2},
    {"padding_idx": -1},
    {"scale_grad_by_freq": True},
    {"padding_idx": 0, "scale_grad_by_freq": True},
]:
    y = F.embedding(i, w, **kw)
    fn = y.grad_fn
    print(
        kw,
        y,
        fn.name(),
        [(a, getattr(fn, a)) for a in sorted(dir(fn)) if a.startswith("_saved_")],
    )
    (g,) = torch.autograd.grad((y * y).sum(), w, create_graph=True)
    print(
        g,
        g.grad_fn.name(),
        [
            (a, getattr(g.grad_fn, a))
            for a in sorted(dir(g.grad_fn))
            if a.startswith("_saved_")
        ],
    )
    (g2,) = torch.autograd.grad((g * g).sum(), w)
    print(g2)
e = nn.Embedding.from_pretrained(w.detach().clone())
print(e, e.weight.requires_grad, e(torch.tensor([1, 3])))
e2 = nn.Embedding.from_pretrained(w.detach().clone(), freeze=False, padding_idx=1)
print(e2, e2.weight.requires_grad)
m = nn.Embedding(4, 2, padding_idx=-1)
print(m, m.padding_idx, m.weight.shape, m.weight[3], m.weight.requires_grad)
print(nn.Embedding(10, 3, max_norm=1.0, scale_grad_by_freq=True))
big = w.detach().clone() * 3
y = F.embedding(torch.tensor([0, 1]), big, max_norm=1.5)
print(big, big._version, y)
for f in [
    lambda: F.embedding(torch.tensor([5]), w),
    lambda: F.embedding(torch.tensor([0.0]), w),
    lambda: F.embedding(torch.tensor([-1]), w),
    lambda: F.embedding(torch.tensor([1]), w, padding_idx=7),
    lambda: F.embedding(torch.tensor([1]), w[0]),
]:
    try:
        f()
    except Exception as ex:
        print(type(ex).__name__, ex)
