# A key mixing array items with ints, slices, None, Ellipsis and bools: PyTorch
# views the basic part first (b[1:, [0]] is IndexBackward0 <- SliceBackward0,
# an int next to an array is a select), then indexes what is left; a bool is an
# unsqueeze indexed by [True]/[False]; the result of a contiguous input is
# contiguous, so a[..., idx].view(-1) works.
import torch


def chain(fn):
    names = []
    while fn is not None:
        names.append(type(fn).__name__)
        nxt = [n for n, _ in fn.next_functions if n is not None]
        fn = nxt[0] if nxt else None
    return names


a = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
i = torch.tensor([2, 0])
mask = torch.tensor([True, False, True])
keys = [
    (slice(1, None), [0]),
    ([0], slice(1, None)),
    (0, [0, 1]),
    (0, slice(None), [0, 1]),
    ([1, 0], slice(None), [0, 1]),
    (Ellipsis, i),
    (None, 1, i),
    (slice(None, None, 2), mask),
    (1, mask, slice(1, 3)),
    (True,),
    (False,),
    (0, True),
    (Ellipsis, None, [1]),
    (mask.reshape(1, 3).expand(2, 3),),
    (torch.tensor(1), [0, 2]),
]
for key in keys:
    y = a[key]
    (g,) = torch.autograd.grad(y.sum() * 2, a)
    print(y.shape, y.stride(), chain(y.grad_fn), g.sum().item())
    print(y)
print(a.detach()[..., i].view(-1))
x = torch.zeros(2, 3)
x[True] = 5.0
x[0, False] = 7.0
print(x)
