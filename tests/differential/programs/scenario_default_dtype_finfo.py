# The dtype API lessons reach for: set_default_dtype / get_default_dtype (the
# factories, literals, Tensor() and printing follow it), finfo / iinfo, half.
import torch


def step(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


print(torch.get_default_dtype())
try:
    torch.set_default_dtype(torch.float64)
    print(torch.get_default_dtype(), torch.Tensor(2).dtype, torch.FloatTensor(2).dtype)
    print(torch.tensor([1.5]), torch.zeros(1).dtype, torch.arange(1.0).dtype)
    print(
        torch.ones(2).type(), torch.tensor(1).exp().dtype, (torch.tensor(1) * 1.5).dtype
    )
    print(
        torch.tensor([1.0], dtype=torch.float32), torch.tensor([], dtype=torch.float32)
    )
    print(torch.tensor([]), torch.rand(2).dtype, torch.full((1,), 2.0).dtype)
    print(torch.nn.Linear(2, 1).weight.dtype, torch.finfo().dtype)
    torch.set_default_dtype(torch.float16)
    print(torch.zeros(1), torch.tensor([1.0]))
    step("int64", lambda: torch.set_default_dtype(torch.int64))
    step("str", lambda: torch.set_default_dtype("float32"))
    step("None", lambda: torch.set_default_dtype(None))
    print(torch.get_default_dtype())
finally:
    torch.set_default_dtype(torch.float32)
print(torch.get_default_dtype(), torch.tensor([1.0]))

for d in (torch.float32, torch.float64, torch.float16, torch.half, torch.bfloat16):
    f = torch.finfo(d)
    print(f)
    print(f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.bits, f.resolution, f.dtype)
for d in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
    i = torch.iinfo(d)
    print(i, i.max, i.min, i.bits, i.dtype)
print(torch.finfo(torch.float32) == torch.finfo(torch.float32))
print(torch.finfo(torch.float32) == torch.finfo(torch.float64))
step("finfo int", lambda: torch.finfo(torch.int64))
step("finfo str", lambda: torch.finfo("float32"))
step("iinfo float", lambda: torch.iinfo(torch.float32))
step("iinfo bool", lambda: torch.iinfo(torch.bool))
print(torch.float16 is torch.half, torch.bfloat16, torch.bfloat16.is_floating_point)
print(torch.bfloat16.itemsize, torch.zeros(2).half(), torch.ones(1, dtype=torch.half))
print(torch.tensor([1.5, 2.25]).half().float())
