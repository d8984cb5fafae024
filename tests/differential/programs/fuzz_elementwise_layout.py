# Engine fuzzer finding: an elementwise result is laid out in memory as
# PyTorch's TensorIterator lays it out, the first input deciding when the
# inputs disagree; so .stride(), is_contiguous() and view() agree with PyTorch.
# So do cat/stack/softmax/masked_fill (row-major) and flip (input order).
import torch

a = torch.ones(2, 3)
b = torch.ones(3, 2)
for expr in (
    "a.t() * b",
    "b * a.t()",
    "a.t() + 1",
    "a.t().exp()",
    "a.t() * a.t()",
    "a.t() * b[0]",
    "b[:, :1] * a.t()",
    "torch.ones(3, 1) * a.t()",
    "a.t() * torch.ones(3, 1)",
    "a.t().unsqueeze(0) * b.unsqueeze(1)",
):
    r = eval(expr)
    print(len(expr), r.stride(), r.is_contiguous())
try:
    (a.t() * b).view(-1)
    print("view ok")
except RuntimeError as e:
    print("RuntimeError:", e)
x = torch.zeros(2, 3, requires_grad=True)
with torch.no_grad():
    v = (x.t() * x.reshape(3, 2)).reshape(-1)
print(v.requires_grad, v.is_leaf)

x = torch.arange(6.0).view(2, 3)
f = x.t()
for name, r in (
    ("stack", torch.stack([f, f])),
    ("stack1", torch.stack([f, f], 1)),
    ("cat", torch.cat([f, f])),
    ("cat1", torch.cat([f, f], 1)),
    ("clone", f.clone()),
    ("neg", -f),
    ("where", torch.where(f > 1, f, f)),
    ("mm", f @ x),
    ("mmT", x @ x.t()),
    ("bmm", torch.bmm(f.unsqueeze(0), x.unsqueeze(0))),
    ("exp", f.exp()),
    ("sum", f.sum(0)),
    ("softmax", f.softmax(0)),
    ("relu", f.relu()),
    ("pow", f**2),
    ("abs", f.abs()),
    ("flip", f.flip(0)),
    ("tril", f.tril()),
    ("masked_fill", f.masked_fill(f > 2, 0.0)),
    ("clamp", f.clamp(0, 3)),
    ("sigmoid", f.sigmoid()),
    ("to", f.double()),
    ("repeat", f.repeat(1, 2)),
    ("maximum", torch.maximum(f, x.t() * 2)),
):
    print(name, tuple(r.shape), r.stride())
