# Engine fuzzer finding: an elementwise result is laid out in memory as
# PyTorch's TensorIterator lays it out, the first input deciding when the
# inputs disagree; so .stride(), is_contiguous() and view() agree with PyTorch.
# So do cat, stack, softmax, masked_fill, roll, layer_norm (row-major), flip,
# sort and the *_like factories (the input's order) and nonzero (column-major).
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

x = torch.arange(1.0, 25.0).view(2, 3, 4)
p = x.permute(2, 0, 1)  # (4, 2, 3), non-contiguous
f = x[0].t()  # (4, 3)
cases = {
    "sum1": lambda: p.sum(1),
    "mean0": lambda: p.mean(0),
    "sumk": lambda: p.sum(1, keepdim=True),
    "max1": lambda: p.max(1).values,
    "amax": lambda: p.amax(2),
    "cumsum": lambda: p.cumsum(1),
    "cumprod": lambda: p.cumprod(0),
    "var": lambda: p.var(1),
    "std": lambda: p.std(0),
    "norm": lambda: p.norm(dim=1),
    "prod": lambda: p.prod(2),
    "logsumexp": lambda: p.logsumexp(1),
    "sort": lambda: p.sort(1).values,
    "argmax": lambda: p.argmax(1),
    "topk": lambda: p.topk(1, 1).values,
    "gather": lambda: p.gather(1, torch.zeros(4, 1, 3, dtype=torch.long)),
    "index_select": lambda: p.index_select(1, torch.tensor([1, 0])),
    "roll": lambda: p.roll(1, 0),
    "tile": lambda: f.tile(2, 1),
    "repeat": lambda: p.repeat(1, 1, 2),
    "expand_clone": lambda: f[:, :1].expand(4, 3).clone(),
    "contiguous": lambda: p.contiguous(),
    "tril": lambda: f.tril(),
    "diag_embed": lambda: f.diag_embed(),
    "where_s": lambda: torch.where(p > 3, p, 0.0),
    "clamp": lambda: p.clamp(2, 9),
    "lerp": lambda: p.lerp(p * 2, 0.5),
    "addcmul": lambda: p.addcmul(p, p),
    "pow_t": lambda: p**p,
    "atan2": lambda: torch.atan2(p, p + 1),
    "maximum": lambda: torch.maximum(p, p.contiguous()),
    "relu": lambda: p.relu(),
    "gelu": lambda: torch.nn.functional.gelu(p),
    "leaky": lambda: torch.nn.functional.leaky_relu(p),
    "silu": lambda: torch.nn.functional.silu(p),
    "softplus": lambda: torch.nn.functional.softplus(p),
    "elu": lambda: torch.nn.functional.elu(p),
    "hardtanh": lambda: torch.nn.functional.hardtanh(p),
    "dropout_eval": lambda: torch.nn.functional.dropout(p, 0.5, False),
    "linear": lambda: torch.nn.functional.linear(p, torch.ones(5, 3)),
    "matmul3": lambda: p @ torch.ones(3, 2),
    "bmm": lambda: torch.bmm(p, p.transpose(1, 2)),
    "mm_t": lambda: f.t() @ f,
    "mv": lambda: f @ torch.ones(3),
    "layer_norm": lambda: torch.nn.functional.layer_norm(p, (3,)),
    "mse_none": lambda: torch.nn.functional.mse_loss(p, p * 2, reduction="none"),
    "abs": lambda: p.abs(),
    "sign": lambda: p.sign(),
    "round": lambda: p.round(),
    "nan_to_num": lambda: p.nan_to_num(),
    "to_double": lambda: p.double(),
    "type_int": lambda: p.long(),
    "clone": lambda: p.clone(),
    "neg": lambda: -p,
    "masked_select": lambda: p.masked_select(p > 5),
    "nonzero": lambda: p.nonzero(),
    "flatten": lambda: p.flatten(),
    "reshape": lambda: p.reshape(4, 6),
    "mul_scalar": lambda: p * 2,
    "add_cont": lambda: p + p.contiguous(),
    "cont_add": lambda: p.contiguous() + p,
    "sub_bcast": lambda: p - p[:, :1, :],
    "div_f": lambda: f / f.contiguous(),
    "eq": lambda: p == p,
    "logical": lambda: (p > 2) & (p < 9),
    "zeros_like": lambda: torch.zeros_like(p),
    "ones_like": lambda: torch.ones_like(p),
    "empty_like": lambda: torch.empty_like(p),
    "rand_like": lambda: torch.rand_like(p),
    "full_like": lambda: torch.full_like(p, 2.0),
}
for k, fn in cases.items():
    try:
        r = fn()
        print(k, tuple(r.shape), r.stride())
    except Exception as e:
        print(k, "ERR", type(e).__name__, str(e)[:80])
