# Source: https://github.com/pytorch/tutorials/blob/4ba126213d3cfa9e10ecde3faaf3d93e9d9d02c1/beginner_source/examples_autograd/two_layer_net_custom_function.py
# License: BSD-3-Clause, Copyright (c) 2017-present, PyTorch contributors (https://github.com/pytorch/tutorials/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added, sizes 8, 20, 10, 3 and 50 steps (not 64, 1000, 100, 10 and 500); prose comments cut.
"""PyTorch: Defining new autograd functions"""
import torch

torch.manual_seed(0)


class MyReLU(torch.autograd.Function):

    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


dtype = torch.float
device = torch.device("cpu")
# dtype = torch.device("cuda:0") # Uncomment this to run on GPU

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 8, 20, 10, 3

x = torch.randn(N, D_in, device=device, dtype=dtype)
y = torch.randn(N, D_out, device=device, dtype=dtype)

w1 = torch.randn(D_in, H, device=device, dtype=dtype, requires_grad=True)
w2 = torch.randn(H, D_out, device=device, dtype=dtype, requires_grad=True)

learning_rate = 1e-6
for t in range(50):
    relu = MyReLU.apply

    y_pred = relu(x.mm(w1)).mm(w2)

    loss = (y_pred - y).pow(2).sum()
    print(t, loss.item())

    loss.backward()

    with torch.no_grad():
        w1 -= learning_rate * w1.grad
        w2 -= learning_rate * w2.grad

        w1.grad.zero_()
        w2.grad.zero_()
