# The dims that gradients record under create_graph, as PyTorch's formulas
# pass them on: a dim the op was given counting from the end stays negative
# in the gradient's nodes (unsqueeze(-2)'s SqueezeBackward1 saves -2,
# sum(-1)'s UnsqueezeBackward0 -1, cumsum's and flip's -1, stack's
# SelectBackward0s, unbind's StackBackward0, gather's ScatterAddBackward0...),
# while several reduced dims are put back counted from the front, in
# increasing order, and sum/mean over dim=[] expand their 0-d gradient as it
# is. vector_norm(dim=()) and logsumexp(dim=()) reduce every dim (minigrad
# returned |x| and x; PyTorch's logsumexp then refuses a result without
# keepdim). A squeeze's gradient unsqueezes each squeezed size-1 dim
# (PyTorch's unsqueeze_to; no node at all when nothing was squeezed),
# squeeze(dims) included. Each case prints the forward node, the gradient's
# graph with its saved numbers and shapes, and the gradient and second
# derivative values (to 12 digits: numpy's reductions and PyTorch's add in
# other orders).
import torch

torch.manual_seed(0)


def saved(fn):
    out = {}
    for name in dir(fn):
        if name.startswith("_saved_"):
            v = getattr(fn, name)
            out[name] = list(v.shape) if isinstance(v, torch.Tensor) else v
    return out


def graph(fn, seen):
    if fn is None or fn in seen:
        return []
    seen.add(fn)
    lines = [f"    {type(fn).__name__} {saved(fn)}"]
    for nxt, _ in fn.next_functions:
        lines += graph(nxt, seen)
    return lines


def values(t):
    return [float(f"{v:.12g}") for v in t.reshape(-1).tolist()]


x = torch.rand(2, 3, 4, dtype=torch.float64, requires_grad=True)
v = torch.rand(4, dtype=torch.float64, requires_grad=True)
s = torch.rand((), dtype=torch.float64, requires_grad=True)
idx = torch.tensor([[[0], [3], [1]], [[2], [2], [0]]])
cases = {
    "unsqueeze(-2)": (x, lambda t: t.unsqueeze(-2)),
    "unsqueeze(-4)": (x, lambda t: t.unsqueeze(-4)),
    "unsqueeze(1)": (x, lambda t: t.unsqueeze(1)),
    "0-d unsqueeze(-1)": (s, lambda t: t.unsqueeze(-1)),
    "squeeze()": (x, lambda t: t[:, :1].squeeze()),
    "squeeze(-2)": (x, lambda t: t[:, :1].squeeze(-2)),
    "squeeze(-1) of size 4": (x, lambda t: t.squeeze(-1)),
    "0-d squeeze(0)": (s, lambda t: t.squeeze(0)),
    "squeeze((0, -1))": (x, lambda t: t[:1, :, :1].squeeze((0, -1))),
    "squeeze((-1, 1))": (x, lambda t: t[:1, :, :1].squeeze((-1, 1))),
    "squeeze_((-3, -1))": (x, lambda t: t[:1, :, :1].clone().squeeze_((-3, -1))),
    "sum(-1)": (x, lambda t: t.sum(-1)),
    "sum((-1,))": (x, lambda t: t.sum((-1,))),
    "sum(-1, keepdim)": (x, lambda t: t.sum(-1, keepdim=True)),
    "sum((-1, -3))": (x, lambda t: t.sum((-1, -3))),
    "sum(dim=[])": (x, lambda t: t.sum([])),
    "1-d sum(-1)": (v, lambda t: t.sum(-1)),
    "0-d sum(-1)": (s, lambda t: t.sum(-1)),
    "mean(-2)": (x, lambda t: t.mean(-2)),
    "mean((-1, 0))": (x, lambda t: t.mean((-1, 0))),
    "mean(dim=[])": (x, lambda t: t.mean([])),
    "nansum(-2)": (x, lambda t: t.nansum(-2)),
    "nansum()": (x, lambda t: t.nansum()),
    "var(-1)": (x, lambda t: t.var(-1)),
    "var(-3)": (x, lambda t: t.var(-3)),
    "var((-1, -2))": (x, lambda t: t.var((-1, -2))),
    "1-d var(-1)": (v, lambda t: t.var(-1)),
    "std(-2)": (x, lambda t: t.std(-2)),
    "logsumexp(-1)": (x, lambda t: t.logsumexp(-1)),
    "logsumexp((-2, -1))": (x, lambda t: t.logsumexp((-2, -1))),
    "logsumexp(dim=(), keepdim)": (x, lambda t: t.logsumexp((), keepdim=True)),
    "norm(dim=-1)": (x, lambda t: t.norm(dim=-1)),
    "vector_norm(1, -1)": (x, lambda t: torch.linalg.vector_norm(t, 1, -1)),
    "vector_norm(3, -2)": (x, lambda t: torch.linalg.vector_norm(t, 3, -2)),
    "vector_norm(dim=(-1, -3))": (
        x,
        lambda t: torch.linalg.vector_norm(t, dim=(-1, -3)),
    ),
    "vector_norm(dim=())": (x, lambda t: torch.linalg.vector_norm(t, dim=())),
    "var(dim=[])": (x, lambda t: t.var([])),
    "prod(-2)": (x, lambda t: (t + 1).prod(-2)),
    "cumsum(-1)": (x, lambda t: t.cumsum(-1)),
    "cumsum(1)": (x, lambda t: t.cumsum(1)),
    "flip(-1)": (x, lambda t: t.flip(-1)),
    "flip((0, -1))": (x, lambda t: t.flip((0, -1))),
    "stack(-1)": (x, lambda t: torch.stack([t, t * 2], -1)),
    "unbind(-1)": (x, lambda t: t.unbind(-1)[1]),
    "gather(-1)": (x, lambda t: t.gather(-1, idx)),
    "scatter(-1)": (
        x,
        lambda t: torch.zeros(2, 3, 4, dtype=torch.float64).scatter(
            -1, idx, t[..., :1]
        ),
    ),
    "scatter_add(-1)": (x, lambda t: t.scatter_add(-1, idx, t[..., :1])),
    "cummax(-1)": (x, lambda t: t.cummax(-1).values),
    "softmax(-1)": (x, lambda t: t.softmax(-1)),
    "log_softmax(-2)": (x, lambda t: t.log_softmax(-2)),
    "select(-1, 2)": (x, lambda t: t.select(-1, 2)),
    "narrow(-2, 1, 2)": (x, lambda t: t.narrow(-2, 1, 2)),
    "transpose(-1, -3)": (x, lambda t: t.transpose(-1, -3)),
    "movedim(-1, 0)": (x, lambda t: t.movedim(-1, 0)),
    "amax(-1)": (x, lambda t: t.amax(-1)),
    "max(-1)": (x, lambda t: t.max(-1).values),
    "index_select(-1)": (x, lambda t: t.index_select(-1, torch.tensor([0, 2]))),
    "diagonal(0, -1, -2)": (x, lambda t: t.diagonal(0, -1, -2)),
    "split(2, -1)": (x, lambda t: t.split(2, -1)[1]),
}
for name, (leaf, fn) in cases.items():
    y = fn(leaf)
    print(name, type(y.grad_fn).__name__, saved(y.grad_fn))
    go = torch.rand(y.shape, dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(y, leaf, go, create_graph=True)
    print("\n".join(graph(g.grad_fn, set())))
    print("    grad", values(g))
    (gg,) = torch.autograd.grad((g * g).sum(), go)
    print("    grad of grad", values(gg))

for shape in ((3,), (2, 3), (0, 3)):
    try:
        print(shape, torch.ones(shape).logsumexp(()))
    except RuntimeError as e:
        print(shape, "RuntimeError:", e)
