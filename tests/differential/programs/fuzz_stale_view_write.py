# Engine fuzzer finding: writing into a view whose base turned into a graph
# tensor after the view was made (base += x). The write must see the view's
# refreshed history, so the base's history becomes a CopySlices.
import torch

a = torch.tensor([0.0, 0.0], requires_grad=True)
with torch.no_grad():
    base = a.exp()
    ng_view = a.reshape(-1)
view = base.reshape(-1)
print(view.grad_fn, view.requires_grad)
base += ng_view  # base now has history; view was made before
view[0] = 2.0  # nothing asked view for its grad_fn in between
print(
    base.grad_fn.name(), [(type(f).__name__, n) for f, n in base.grad_fn.next_functions]
)
print(view.grad_fn.name(), view.grad_fn.next_functions[0][0].name(), view._version)
print(base, view)
other = torch.tensor([1.0, 2.0])
v2 = other[:1]
other.mul_(3)
print((v2 * 2).requires_grad, v2.grad_fn)
