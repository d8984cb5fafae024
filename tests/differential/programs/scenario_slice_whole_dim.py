# Which slices PyTorch records: a slice written as the whole dim is an alias (or
# nothing, next to other indices); any other start records SliceBackward0, even
# on an empty dim. Found by the engine fuzzer.
import torch

for shape in [(2, 3), (2, 0), (3,)]:
    a = torch.zeros(*shape, requires_grad=True) * 1
    for key in [
        (slice(None),),
        (Ellipsis, slice(0, None)),
        (Ellipsis, slice(1, None)),
        (Ellipsis, slice(0, 5)),
        (Ellipsis, slice(-3, None)),
        (Ellipsis, slice(5, 7)),
        (slice(None, None, 2),),
        (Ellipsis, slice(0, 2)),
    ]:
        r = a[key]
        print(shape, key, type(r.grad_fn).__name__, tuple(r.shape))

t3 = torch.zeros(2, 3, requires_grad=True).sum(1, keepdim=True)
with torch.no_grad():
    t5 = t3[..., 1:]
t6 = t5[..., 1:]
print(t6.is_leaf, t6.requires_grad, t6.grad_fn.name(), t6.grad_fn.next_functions)
