# index_select with a 0-d index keeps the dim (a vector of one), its gradient
# too; index_add_ into a matrix with no element takes any index, even one out
# of range, and returns it unchanged, as PyTorch's CPU kernel does.
import torch

x = torch.arange(6.0, requires_grad=True)
y = x.view(2, 3).index_select(1, torch.tensor(2))
print(y, y.shape, y.grad_fn.name())
(g,) = torch.autograd.grad(
    (y * torch.tensor([[1.0], [2.0]])).sum(), [x], create_graph=True
)
print(g)
print(torch.tensor(5.0).index_select(0, torch.tensor(0)))

for shape, dim in [((0, 3), 0), ((0, 3), 1), ((2, 0), 1), ((2, 0, 3), 2)]:
    source_shape = list(shape)
    source_shape[dim] = 1
    z = torch.zeros(shape)
    print(z.index_add_(dim, torch.tensor([7]), torch.ones(source_shape)), z._version)
print(
    torch.zeros(2, 3).index_add_(
        1, torch.tensor([], dtype=torch.int64), torch.ones(2, 0)
    )
)
