# Transposed convolutions: module reprs and weight shapes, ConvolutionBackward0
# with transposed=True, output_size, gradients, and PyTorch's errors (channels,
# output_padding, too small an output, kernel larger than the input).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
print(
    nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1, output_padding=1),
    nn.ConvTranspose1d(2, 4, 3, groups=2, bias=False, dilation=2),
    nn.ConvTranspose3d(2, 2, (1, 2, 3)),
)
m = nn.ConvTranspose2d(3, 4, 3, stride=2, padding=1).double()
print(m.weight.shape, m.bias.shape)
with torch.no_grad():
    n = m.weight.numel()
    m.weight.copy_(torch.linspace(-1, 1, n, dtype=torch.float64).view_as(m.weight))
    m.bias.copy_(torch.tensor([0.1, -0.2, 0.3, 0.0]))
x = torch.linspace(-2, 2, 2 * 3 * 4 * 4, dtype=torch.float64).view(2, 3, 4, 4)
x.requires_grad_()
y = m(x)
fn = y.grad_fn
print(y.shape, fn.name(), fn._saved_transposed, fn._saved_output_padding)
print(fn._saved_stride, fn._saved_padding, fn._saved_bias_sym_sizes_opt)
print(m(x, output_size=[8, 8]).shape, m(x, output_size=(2, 4, 7, 8)).shape)
(y * y).sum().backward()
print(x.grad.sum(), m.weight.grad.abs().sum(), m.bias.grad)
g = torch.autograd.grad(m(x).pow(2).sum(), x, create_graph=True)[0]
print(g.grad_fn.name(), g.grad_fn._saved_transposed)
print(torch.autograd.grad(g.sum(), m.weight)[0].abs().sum())
for bad in (
    lambda: m(x, output_size=[12, 12]),
    lambda: m(x, output_size=[8]),
    lambda: F.conv_transpose2d(x, m.weight[:2]),
    lambda: nn.ConvTranspose2d(3, 4, 3, output_padding=1).double()(x),
    lambda: F.conv_transpose2d(x, m.weight, padding=3),
    lambda: F.conv_transpose1d(x[0], m.weight[:, :, 0], padding=2),
    lambda: F.conv2d(x, m.weight.transpose(0, 1)[:, :, :, :1].repeat(1, 1, 5, 1)),
    lambda: nn.ConvTranspose2d(3, 4, 3, padding_mode="reflect"),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
