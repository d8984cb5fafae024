# Custom Functions under func.vmap / func.grad: setup_context is required,
# generate_vmap_rule=True or a vmap staticmethod gives vmap support (the
# values and gradients through it), and having neither or both is an error.
# (A rule inside a larger mapped function: scenario_vmap_rule_inside.py.)
import torch
import torch.func


class Twice(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Sin(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.sin()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()


class GeneratedSin(Sin):
    generate_vmap_rule = True


class RuleSin(Sin):
    @staticmethod
    def vmap(info, in_dims, x):
        assert info.randomness == "error" and isinstance(in_dims, tuple)
        return Sin.apply(x), in_dims[0]


class BothSin(GeneratedSin):
    @staticmethod
    def vmap(info, in_dims, x):
        return Sin.apply(x), in_dims[0]


x = torch.arange(6.0).reshape(3, 2) / 4
for name, f in [
    ("twice", lambda: torch.func.vmap(Twice.apply)(x)),
    ("grad of twice", lambda: torch.func.grad(lambda t: Twice.apply(t).sum())(x)),
    ("no rule", lambda: torch.func.vmap(Sin.apply)(x)),
    ("grad, no rule", lambda: torch.func.grad(lambda t: Sin.apply(t).sum())(x)),
    ("generated", lambda: torch.func.vmap(GeneratedSin.apply)(x)),
    ("rule", lambda: torch.func.vmap(RuleSin.apply)(x)),
    ("rule, dim 1", lambda: torch.func.vmap(RuleSin.apply, in_dims=1)(x)),
    ("rule, out dim 1", lambda: torch.func.vmap(RuleSin.apply, out_dims=1)(x)),
    ("both", lambda: torch.func.vmap(BothSin.apply)(x)),
    (
        "vmap of grad",
        lambda: torch.func.vmap(torch.func.grad(lambda t: GeneratedSin.apply(t).sum()))(
            x
        ),
    ),
]:
    try:
        print(name, "->", f())
    except RuntimeError as e:
        print(name, "RuntimeError:", e)

w = x.clone().requires_grad_()
torch.func.vmap(RuleSin.apply)(w).sum().backward()
print(w.grad)
