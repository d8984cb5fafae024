# One draw from a categorical, with or without replacement, is PyTorch's
# exponential race (argmax of p / Exp(1)); several draws with replacement
# invert the cumulative weights. A generator makes both repeatable.
import torch

gen = torch.Generator().manual_seed(1234)
weights = torch.rand(3, 6, generator=gen)
print(
    [
        torch.multinomial(weights[0], 1, replacement=True, generator=gen).item()
        for _ in range(8)
    ]
)
print(torch.multinomial(weights, 1, True, generator=gen).tolist())
print(torch.multinomial(weights[1], 1, generator=gen).tolist())
print(torch.multinomial(weights[2], 5, replacement=True, generator=gen).tolist())
torch.manual_seed(7)
print(torch.multinomial(weights.double(), num_samples=1, replacement=True).tolist())
print(torch.rand(2, generator=gen))
