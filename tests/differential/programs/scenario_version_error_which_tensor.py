# When several saved tensors of a node were modified in place, PyTorch reports
# the one whose saved name sorts first (its nodes unpack in that order): `other`
# before `self`, `mat2` before `self`, `self` before `target`. Here both operands
# share one version counter; the view's grad_fn is regenerated (AsStrided).
# Found by the engine fuzzer.
import torch
import torch.nn.functional as F


def probe(name, f, shape=(2, 2)):
    leaf = torch.ones(shape, requires_grad=True)
    base = leaf * 1.5
    a, b = base, base.t() if len(shape) == 2 else base[:]
    out = f(a, b)
    with torch.no_grad():
        base.add_(1)
    try:
        out.sum().backward()
        print(name, "no error")
    except RuntimeError as e:
        print(name, str(e).split("which is ")[1].split(",")[0])


probe("mul", lambda a, b: a * b)
probe("div", lambda a, b: a / b)
probe("mm", lambda a, b: a @ b)
probe("pow", lambda a, b: a**b)
probe("maximum", lambda a, b: torch.maximum(a, b))
probe("minimum", lambda a, b: torch.minimum(a, b))
probe("mse", lambda a, b: F.mse_loss(a, b))
probe("bce", lambda a, b: F.binary_cross_entropy(a.sigmoid(), b.sigmoid()))
probe("bce_logits", lambda a, b: F.binary_cross_entropy_with_logits(a, b))
probe("bmm", lambda a, b: torch.bmm(a.unsqueeze(0), b.unsqueeze(0)))
probe("linear", lambda a, b: F.linear(a, b))
probe("linear_bias", lambda a, b: F.linear(a, b, a[0]))
probe("mv", lambda a, b: torch.mv(a, b[0]))
probe("dot", lambda a, b: torch.dot(a, b), (2,))
probe("outer", lambda a, b: torch.outer(a, b), (2,))
probe("matmul", lambda a, b: torch.matmul(a, b))
