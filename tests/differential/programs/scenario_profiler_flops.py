# The profiler with with_flops=True: the FLOPs PyTorch counts for the matrix
# products, conv2d (grouped, strided, dilated, padded; none for an unbatched
# input), mul and add (broadcasting: the first operand's elements), none for
# the other ops; key_averages sums them; the table's last column is PyTorch's
# "Total FLOPs" (in the unit of the smallest count). square and square_ are
# PyTorch's composite aten::square / aten::square_ around aten::pow / pow_.
# (Only top-level events are printed: PyTorch also records what runs inside
# its ops; times differ, so no time is printed.)
import torch
import torch.nn.functional as F

a, b, c = torch.ones(8, 16), torch.ones(16, 4), torch.ones(4)
A, B, C = torch.ones(3, 8, 16), torch.ones(3, 16, 4), torch.ones(3, 8, 4)
x, w, bias = torch.ones(2, 4, 8, 8), torch.ones(6, 2, 3, 3), torch.ones(6)
x0, col, row = torch.ones(4, 8, 8), torch.ones(8, 1), torch.ones(1, 16)
conv = torch.nn.Conv2d(4, 6, 3, padding=1)
with torch.profiler.profile(with_flops=True) as prof:
    a.mm(b)
    torch.addmm(c, a, b)
    torch.bmm(A, B)
    torch.baddbmm(C, A, B)
    F.conv2d(x, w, bias, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
    F.conv2d(x0, w, groups=2)
    conv(x)
    a * 2
    col * row
    row * col
    a + 1
    a - 1
    a.sin()
    a.mm(b)
    c.square()
    c.square_()
for e in prof.events():
    if e.cpu_parent is None:
        kids = [k.name for k in e.cpu_children if k.name in ("aten::pow", "aten::pow_")]
        print(e.name, e.flops, kids)
for e in sorted(prof.key_averages(), key=lambda e: e.key):
    if e.cpu_parent is None:
        print(e.key, e.count, e.flops)
print(prof.key_averages().table().splitlines()[1].split()[-2:])
with torch.profiler.profile() as plain:
    a.mm(b)
print(plain.key_averages().table().splitlines()[1].split()[-3:])
