# Engine fuzzer finding: an elementwise result is laid out in memory as
# PyTorch's TensorIterator lays it out, the first input deciding when the
# inputs disagree; so .stride(), is_contiguous() and view() agree with PyTorch.
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
