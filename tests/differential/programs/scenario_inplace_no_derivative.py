# asinh_, acosh_ and atanh_ in place record AsinhBackward1 / AcoshBackward1 /
# AtanhBackward1, which PyTorch gives no derivative: backward through them
# raises (minigrad used to record the out-of-place node and give a gradient).
import torch

w = torch.tensor([0.25, -0.5, 0.75], requires_grad=True)
for name in "asinh_ acosh_ arccosh_ atanh_ arcsinh_ arctanh_".split():
    scale = 4.0 if "cosh" in name else 1.0
    y = (w * scale).abs() + 1.5 if "cosh" in name else w * scale
    getattr(y, name)()
    print(name, y, [type(n).__name__ for n, _ in y.grad_fn.next_functions])
    print([a for a in dir(y.grad_fn) if a.startswith("_saved")])
    try:
        (y * 2).sum().backward()
    except Exception as e:
        print(f"{type(e).__name__}: {e}", w.grad)
    y = w * scale
    print(getattr(torch, name)(y.abs() + 1.5 if "cosh" in name else y).grad_fn.name())
print(torch.asinh(w).grad_fn.name(), torch.atanh(w).grad_fn.name())
with torch.no_grad():
    print(torch.ones(2).atanh_(), torch.tensor([3.0]).acosh_())
