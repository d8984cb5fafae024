# Source: https://github.com/pytorch/tutorials/blob/15bfd259a60e64010d98cc9ed47c2ba45b12726b/beginner_source/examples_autograd/two_layer_net_autograd.py
# License: BSD-3-Clause, Copyright (c) 2017-present, PyTorch contributors (https://github.com/pytorch/tutorials/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added, sizes 8, 20, 10, 3 and 300 steps (not 64, 1000, 100, 10 and 500); prose comments cut.
"""PyTorch: Tensors and autograd"""
import torch

torch.manual_seed(0)

dtype = torch.float
device = torch.device("cpu")
# device = torch.device("cuda:0") # Uncomment this to run on GPU

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 8, 20, 10, 3

x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)

w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(300):
    y_pred = x.mm(w1).clamp(min=0).mm(w2)

    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())

    loss.backward()

    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad

        w1.grad.zero_()
        w2.grad.zero_()
