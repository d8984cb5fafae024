# matmul does not promote dtypes: float64 @ float32 raises in PyTorch.
import torch

m64 = torch.ones(2, 3, dtype=torch.float64)
m32 = torch.ones(3, 2)
v32 = torch.ones(3)
for label, f in [
    ("mm", lambda: m64 @ m32),
    ("mv", lambda: m64 @ v32),
    ("vm", lambda: v32 @ m32.double()),
    ("dot", lambda: v32 @ v32.double()),
]:
    try:
        print(label, (f()).dtype)
    except RuntimeError as e:
        print(label, "RuntimeError:", e)
