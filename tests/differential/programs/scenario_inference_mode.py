# inference_mode: inference tensors, what they refuse outside, and how it
# differs from no_grad (issue #20, lesson 14).
import torch


def attempt(what, f):
    try:
        print(what, "->", f())
    except RuntimeError as e:
        print(what, "-> RuntimeError:", e)


print("enabled outside:", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
n = torch.ones(3)
w = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    print("enabled inside:", torch.is_inference_mode_enabled(), torch.is_grad_enabled())
    a = torch.ones(3)
    b = n * 2
    y = w * 2
    v = n.view(3)
    vw = w.view(3)
    d = n.detach()
    print("inside: a", a.is_inference(), "b", b.is_inference(), "y", y.is_inference())
    print("y records:", y.requires_grad, y.grad_fn)
    print("view of a normal tensor:", v.is_inference(), "detach:", d.is_inference())
    print("view of w:", vw.is_inference(), vw.requires_grad, vw.grad_fn)
    with torch.inference_mode(False):
        print(
            "inference_mode(False):",
            torch.is_inference_mode_enabled(),
            torch.is_grad_enabled(),
            torch.ones(1).is_inference(),
        )
    a.add_(1)  # allowed inside
    print("a.add_ inside:", a)
with torch.no_grad():
    c = n * 2
print("no_grad result is inference:", c.is_inference(), torch.is_inference(c))
print("outside:", a.is_inference(), a.requires_grad, (a * 2).is_inference())
print("view / detach outside:", a.view(3).is_inference(), a.detach().is_inference())
print("clone outside:", a.clone().is_inference())

attempt("saved for backward (mul)", lambda: w * a)
attempt("saved for backward (matmul)", lambda: torch.matmul(w, a))
attempt("saved for backward (pow)", lambda: w.pow(a))
attempt("not saved (add)", lambda: (w + a).is_inference())
attempt("a clone can be saved", lambda: (w * a.clone()).sum().backward())
print("w.grad:", w.grad)
attempt("in-place outside", lambda: a.add_(1))
attempt("setitem outside", lambda: a.__setitem__(0, 5.0))


def under_no_grad():
    with torch.no_grad():
        a.mul_(2)


attempt("in-place under no_grad", under_no_grad)
attempt("requires_grad_()", lambda: a.requires_grad_())
attempt("requires_grad_(False)", lambda: a.requires_grad_(False).is_inference())
attempt("_version", lambda: a._version)
attempt("in-place on a view of a normal tensor", lambda: v.add_(1))
attempt("in-place on the view of w", lambda: vw.mul_(2))
with torch.no_grad():
    w.mul_(1)
attempt("the view of w after w changed", lambda: vw * 2)
print("copy into a normal tensor:", n.copy_(a))


@torch.inference_mode()
def infer(x):
    return x * 2, torch.is_inference_mode_enabled()


@torch.inference_mode
def infer_bare(x):
    return x * 3


out, on = infer(w)
print(
    "decorated:",
    on,
    out.is_inference(),
    out.requires_grad,
    infer_bare(w).is_inference(),
)
with torch.inference_mode():
    print("nested in no_grad:", torch.is_inference_mode_enabled())
with torch.no_grad():
    with torch.inference_mode(False):
        print("inference_mode(False) in no_grad:", torch.is_grad_enabled())
print("after:", torch.is_inference_mode_enabled(), torch.is_grad_enabled())

lin = torch.nn.Linear(3, 3)
with torch.inference_mode():
    z = lin(torch.ones(1, 3))
print("a model's output:", z.is_inference(), z.requires_grad, z.grad_fn)
attempt("training on it", lambda: lin(z).sum().backward())
attempt("training on its clone", lambda: lin(z.clone()).sum().backward())
print("lin.weight.grad is set:", lin.weight.grad is not None)

with torch.inference_mode():
    p = torch.nn.Parameter(a)
    print("a Parameter inside:", p.is_inference(), p.requires_grad)
attempt("a Parameter of it outside", lambda: torch.nn.Parameter(a))
print("requires_grad=False:", torch.nn.Parameter(a, requires_grad=False).is_inference())

with torch.inference_mode():
    with torch.enable_grad():
        b = w * 2
        print(
            "enable_grad inside:",
            torch.is_grad_enabled(),
            b.requires_grad,
            b.is_inference(),
            b.grad_fn,
        )
        with torch.no_grad():
            print("  no_grad inside that:", torch.is_grad_enabled())
        print("  back:", torch.is_grad_enabled())
    print("after enable_grad:", torch.is_grad_enabled())
    torch.set_grad_enabled(True)
    print("set_grad_enabled(True) inside:", torch.is_grad_enabled(), (w * 2).grad_fn)
    with torch.inference_mode(False):
        print("inference_mode(False) inside:", torch.is_grad_enabled(), (w * 2).grad_fn)
    print("back in inference_mode:", torch.is_grad_enabled())
print("outside:", torch.is_grad_enabled(), torch.is_inference_mode_enabled())

# every in-place write refuses an inference tensor outside (after writing, as
# PyTorch's version bump does): out=, nn.init, random fills, an optimizer step
with torch.inference_mode():
    c = torch.ones(2)
    q = torch.nn.Parameter(torch.ones(2))
attempt("out=", lambda: torch.add(torch.ones(2), 1, out=c))
attempt("nn.init.constant_", lambda: torch.nn.init.constant_(c, 3.0))
attempt("uniform_", lambda: c.uniform_())
q.grad = torch.ones(2)
attempt("SGD step", lambda: torch.optim.SGD([q], lr=0.1).step())
print("q after the step:", q)
