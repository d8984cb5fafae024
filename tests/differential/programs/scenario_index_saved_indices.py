# IndexBackward0 saves its index tensors: backward frees them, so a second
# backward through a[[0, 0]] (or a[mask]) raises, and so does _saved_indices.
import torch

a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
for key in ([0, 0], (slice(None), [0, 2]), a > 2):
    y = a[key]
    y.sum().backward()
    try:
        y.sum().backward()
        print("twice ok", a.grad)
    except RuntimeError as e:
        print("RuntimeError:", e)
    try:
        print(y.grad_fn._saved_indices)
    except RuntimeError as e:
        print("RuntimeError:", e)
