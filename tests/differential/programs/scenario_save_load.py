# minigrad.save / minigrad.load: tensors (a non-leaf loads as a leaf that
# requires grad), a model's state_dict round trip, Parameters, the weights-only
# default refusing other objects; Tensor.all/any.
import fractions
import io
import pickle

import torch
import torch.nn as nn

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
b = io.BytesIO()
torch.save(
    {"x": x, "y": y, "n": 3, "s": "text", "l": [torch.ones(2, dtype=torch.int64)]}, b
)
b.seek(0)
d = torch.load(b)
print(d, d["y"].grad_fn, d["x"].requires_grad, d["y"].requires_grad, d["y"].is_leaf)
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
b = io.BytesIO()
torch.save(net.state_dict(), b)
b.seek(0)
state = torch.load(b)
net2 = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
print(net2.load_state_dict(state), list(state), type(state).__name__)
print(
    all(bool((p1 == p2).all()) for p1, p2 in zip(net.parameters(), net2.parameters()))
)
p = nn.Parameter(torch.ones(2))
b = io.BytesIO()
torch.save(p, b)
b.seek(0)
q = torch.load(b)
print(type(q).__name__, q.requires_grad, q)


b = io.BytesIO()
torch.save(fractions.Fraction(1, 3), b)
b.seek(0)
try:
    torch.load(b)
except pickle.UnpicklingError as e:
    print("UnpicklingError:", str(e).startswith("Weights only load failed"))
b.seek(0)
print(type(torch.load(b, weights_only=False)).__name__)
