# The top-level in-place functions of ops whose in-place method came late:
# addmv_, deg2rad_, rad2deg_, logit_, nan_to_num_, xlogy_ (values, versions,
# nodes, gradients, and the refusals PyTorch gives).
import torch

w = torch.tensor([0.25, -0.5, 0.75], requires_grad=True)
inf = float("inf")
cases = [
    ("logit_", lambda x: torch.logit_(x)),
    ("logit_ eps", lambda x: torch.logit_(x, 0.3)),
    ("deg2rad_", lambda x: torch.deg2rad_(x)),
    ("rad2deg_", lambda x: torch.rad2deg_(x)),
    ("nan_to_num_", lambda x: torch.nan_to_num_(x / x.detach() * x, 1.0, 2.0, -2.0)),
    ("nan_to_num_ kw", lambda x: (x * torch.tensor([inf, 0.0, -inf])).nan_to_num_()),
    ("xlogy_ number", lambda x: torch.xlogy_(x, 2.0)),
    ("xlogy_ tensor", lambda x: torch.xlogy_(x, torch.tensor([1.0, 2.0, 3.0]))),
    ("xlogy_ method", lambda x: x.xlogy_(torch.tensor([0.5, 0.0, 3.0]))),
    (
        "addmv_",
        lambda x: torch.addmv_(
            x, torch.arange(6.0).reshape(3, 2), torch.ones(2), beta=2, alpha=3
        ),
    ),
    ("addmv_ plain", lambda x: x.addmv_(torch.ones(3, 2), torch.ones(2))),
]
for name, f in cases:
    w.grad = None
    try:
        y = f(w.abs() * 0.5)
        print(name, y, y._version, type(y.grad_fn).__name__)
        y.sum().backward()
        print("  grad", w.grad)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")

for name, f in [
    ("leaf", lambda: torch.xlogy_(w, 2.0)),
    ("number first", lambda: torch.xlogy_(2.0, w)),
    ("numbers", lambda: torch.xlogy_(2.0, 3.0)),
    ("list", lambda: torch.logit_([0.5])),
    ("int tensor", lambda: torch.deg2rad_(torch.tensor([1, 2]))),
    ("addmv_ shape", lambda: torch.addmv_(w * 1, torch.ones(2, 2), torch.ones(2))),
]:
    try:
        print(name, f())
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")
with torch.no_grad():
    z = torch.tensor([1.0, 2.0])
    print(torch.rad2deg_(z), z._version)
