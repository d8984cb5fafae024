# index_select/index_add (+ in-place), tril/triu (+ in-place), roll, tile, new_*,
# type_as: values, nodes with their saved attributes, gradients and errors.
import torch

x = torch.tensor(
    [[3.0, 1.0, 2.0, 0.5], [0.0, 5.0, 4.0, -1.0], [1.5, -2.0, 2.5, 0.25]],
    requires_grad=True,
)
i = torch.tensor([2, 0, 2])
outs = {
    "index_select": x.index_select(1, i),
    "index_select0": torch.index_select(x, 0, torch.tensor([1])),
    "index_add": x.index_add(0, torch.tensor([0, 2]), x[:2] * 2),
    "index_add_alpha": x.index_add(1, torch.tensor([3]), x[:, :1], alpha=0.5),
    "tril": x.tril(),
    "triu": torch.triu(x, 1),
    "tril_neg": x.tril(-1),
    "roll": x.roll(1, 1),
    "roll2": x.roll((1, -1), (0, 1)),
    "roll_flat": x.roll(2),
    "tile": x.tile(2),
    "tile2": x.tile((2, 1, 1)),
    "type_as": x.type_as(torch.ones(1, dtype=torch.float64)),
}
for k, v in outs.items():
    fn = v.grad_fn
    print(
        k,
        v,
        [
            (a, getattr(fn, a))
            for a in sorted(dir(fn))
            if a.startswith("_saved") and a not in ("_saved_self", "_saved_source")
        ],
    )
    (g,) = torch.autograd.grad((v * v).sum(), x)
    print(g)
print(
    x.new_zeros(2, 3),
    x.new_ones((2,), dtype=torch.int64),
    x.new_full((2,), 7),
    x.new_tensor([1, 2]),
    x.new_zeros(2, requires_grad=True),
    x.new_empty(0),
)
y = x.detach().clone()
y.index_add_(0, torch.tensor([1]), torch.ones(1, 4))
y.tril_()
print(y)
for f in [
    lambda: x.index_select(1, torch.tensor([[0]])),
    lambda: x.index_select(1, torch.tensor([0.0])),
    lambda: x.index_select(1, torch.tensor([4])),
    lambda: x.index_add(0, torch.tensor([5]), torch.ones(1, 4)),
    lambda: x.index_add(0, torch.tensor([0, 1]), torch.ones(1, 4)),
    lambda: x.index_add(0, torch.tensor([0]), torch.ones(1, 4).double()),
    lambda: torch.ones(3).tril(),
    lambda: x.roll(1, (0, 1)),
    lambda: x.roll((1, 2)),
]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
