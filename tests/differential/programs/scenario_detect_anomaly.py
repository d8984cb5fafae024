# autograd.detect_anomaly: a nan gradient raises, naming the node and output,
# and the warning shows where the forward op was called; check_nan=False
# lets nan through.
import warnings

import torch

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        x = torch.zeros(1, requires_grad=True)
        y = x / x
        try:
            y.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
        print(list(y.grad_fn.metadata.keys()), torch.is_anomaly_enabled())
for m in w:  # (the traceback's last frame: the program's own line)
    lines = str(m.message).split(" (Triggered")[0].splitlines()
    print(lines[0], [ln.strip() for ln in lines if ln.strip().startswith("y =")])
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
with torch.autograd.detect_anomaly(check_nan=False):
    x = torch.zeros(1, requires_grad=True)
    (x / x).sum().backward()
    print(x.grad)
