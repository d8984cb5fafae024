# backward() without gradient checks "scalar output" (Python _make_grads, by
# requires_grad) before "has a grad_fn" (engine): a non-scalar view made in
# no_grad of a leaf that requires grad has requires_grad=True, no grad_fn.
import torch

a = torch.tensor([1.0, 1.5], requires_grad=True)
with torch.no_grad():
    v = a.view(2)
print(v.requires_grad, v.is_leaf, v.grad_fn)
try:
    v.backward()
except RuntimeError as e:
    print("RuntimeError:", e)
