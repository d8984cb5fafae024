# torch.utils.data: TensorDataset, DataLoader (batches, drop_last, shuffle,
# batch_size=None), default_collate, random_split, Subset, and a training loop
# over a loader. (Shuffled orders differ from PyTorch's stream: sorted here.)
import numpy as np
import torch
from torch.utils.data import (
    DataLoader,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)

x = torch.arange(10.0).view(5, 2)
y = torch.arange(5)
ds = TensorDataset(x, y)
print(len(ds), ds[1], type(ds[1]).__name__)
dl = DataLoader(ds, batch_size=2)
print(len(dl))
for xb, yb in dl:
    print(xb, yb)
print(
    len(DataLoader(ds, batch_size=2, drop_last=True)),
    list(DataLoader(ds, batch_size=2, drop_last=True))[-1],
)
try:
    TensorDataset(x, torch.arange(3))
except AssertionError as e:
    print("AssertionError:", e)
print(default_collate([1.5, 2.5]), default_collate([1, 2]))
print(default_collate([(1, 2.0), (3, 4.0)]), default_collate([{"a": 1}, {"a": 2}]))
print(default_collate([np.ones(2), np.zeros(2)]), default_collate(["a", "b"]))
a, b = random_split(range(10), [0.7, 0.3])
print(len(a), len(b), type(a).__name__, sorted(list(a) + list(b)))
print(Subset(ds, [0, 2])[1])
print(next(iter(DataLoader([1, 2, 3], batch_size=2))))
shuffled = [int(v) for _, yb in DataLoader(ds, batch_size=2, shuffle=True) for v in yb]
print(sorted(shuffled))
print(list(DataLoader(ds, batch_size=None))[0])
try:
    DataLoader(ds, batch_size=0)
except ValueError as e:
    print("ValueError:", e)
# a tiny training loop over a loader
torch.manual_seed(0)
model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(0.1)
    model.bias.fill_(0.0)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for xb, yb in DataLoader(ds, batch_size=2):
        loss = torch.nn.functional.mse_loss(model(xb).squeeze(1), yb.float())
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss)
