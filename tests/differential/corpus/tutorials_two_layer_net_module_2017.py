# Source: https://github.com/pytorch/tutorials/blob/6f53cd7c257a9ace7f6198bc3d22bdd8547414fd/beginner_source/examples_nn/two_layer_net_module.py
# License: BSD-3-Clause, Copyright (c) 2017-present, PyTorch contributors (https://github.com/pytorch/tutorials/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added, sizes 8, 20, 10, 3 and 5 steps (not 64, 1000, 100, 10 and 500); prose comments cut.
# An old version, kept as written: size_average=False warns, and loss.data[0] fails on a 0-d loss.
"""PyTorch: Custom nn Modules"""
import torch
from torch.autograd import Variable

torch.manual_seed(0)


class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        y_pred = self.linear2(h_relu)
        return y_pred


# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 8, 20, 10, 3

x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = TwoLayerNet(D_in, H, D_out)

criterion = torch.nn.MSELoss(size_average=False)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
for t in range(5):
    y_pred = model.forward(x)

    loss = criterion(y_pred, y)
    print(t, loss.data[0])

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
