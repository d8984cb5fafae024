# Device boilerplate: minigrad.device, cuda.is_available(), backends.mps,
# .to(device) / .cpu() on tensors and modules, and the errors of a CPU-only
# PyTorch for CUDA and unknown device types.
import torch

print(
    torch.device("cpu"),
    repr(torch.device("cpu")),
    torch.device("cuda:0"),
    repr(torch.device("cuda", 1)),
)
print(
    torch.device("cpu").type,
    torch.device("cuda", 1).index,
    torch.cuda.is_available(),
    torch.backends.mps.is_available(),
)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
x = torch.randn(2, 3, requires_grad=True)
print(
    x.to(device) is x,
    x.device,
    repr(x.device),
    x.cpu() is x,
    x.to("cpu") is x,
    x.is_cuda,
    x.device.type,
)
print(torch.device("cpu") == "cpu", str(x.device), x.device == torch.device("cpu"))
m = torch.nn.Linear(2, 2).to(device)
print(type(m).__name__, m.weight.device)
print(torch.tensor([1.0], device="cpu"), torch.zeros(2, device=torch.device("cpu")))
for bad in (
    lambda: x.to("cuda"),
    lambda: x.cuda(),
    lambda: torch.nn.Linear(2, 2).to("cuda"),
    lambda: torch.device("gpu"),
):
    try:
        bad()
    except (AssertionError, RuntimeError) as e:
        print(type(e).__name__ + ":", e)
