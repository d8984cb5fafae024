# A range is an index like the list of its ints (the makemore lectures pick
# each row's target with logprobs[range(n), Yb], read and written); an empty
# list or range picks nothing.
import torch

torch.manual_seed(3)
scores = torch.randn(3, 4, requires_grad=True)
picks = torch.tensor([2, 0, 3])
chosen = scores[range(3), picks]
print(chosen, chosen.grad_fn.name())
chosen.sum().backward()
print(scores.grad)
print(scores[range(1, 3)].shape, scores[range(0, 3, 2), 1:].detach())
print(scores[:, range(0)].shape, scores[[]].shape, scores[:, []].shape)
grad = torch.zeros(3, 4)
grad[range(3), picks] = 0.5
grad[range(3), picks] -= 2
print(grad)
print(grad[range(2)][:, range(2)])
