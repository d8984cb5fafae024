# The memory order of an advanced index's result, as PyTorch's index kernel
# (a TensorIterator) lays it out: for a non-contiguous input it follows the
# input's strides, with the indexed dims where the index puts them, so that a
# following view(-1) works (or refuses) exactly when it does in PyTorch.
import torch

base = torch.arange(24.0).reshape(2, 3, 4)
layouts = {
    "contiguous": base,
    "permuted": base.permute(2, 0, 1),
    "transposed": base.transpose(0, 2),
    "sliced": base[:, ::2],
    "matrix.t()": torch.arange(12.0).reshape(3, 4).t(),
}
i = torch.tensor([0, 1, 1])
column = torch.tensor([[0], [1]])
for name, x in layouts.items():
    last = x.shape[-1]
    keys = {
        "x[i]": (i,),
        "x[:, i]": (slice(None), i),
        "x[..., i]": (Ellipsis, i % last),
        "x[i, i]": (i, i),
        "x[column, i]": (column, i),
        "x[i, :, i]": (i, slice(None), i % last) if x.dim() == 3 else (i,),
        "x[mask]": (x > 5,),
        "x[:, mask]": (slice(None), x[0] > 1),
    }
    for k, key in keys.items():
        y = x[key]
        try:
            flat = y.view(-1).shape
        except RuntimeError as e:
            flat = f"RuntimeError: {e}"
        print(name, k, tuple(y.shape), y.stride(), y.is_contiguous(), flat)
