# Source: https://github.com/pytorch/tutorials/blob/29c5caad33fdcd34418e62e7cfdddab5c3bd2021/beginner_source/examples_nn/two_layer_net_optim.py
# License: BSD-3-Clause, Copyright (c) 2017-present, PyTorch contributors (https://github.com/pytorch/tutorials/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added, sizes 8, 20, 10, 3 and 5 steps (not 64, 1000, 100, 10 and 500); prose comments cut.
# An old version, kept as written: size_average=False warns, and loss.data[0] fails on a 0-d loss.
"""PyTorch: optim"""
import torch
from torch.autograd import Variable

torch.manual_seed(0)

# N is batch size; D_in is input dimension;
# H is hidden dimension; D_out is output dimension.
N, D_in, H, D_out = 8, 20, 10, 3

x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = torch.nn.Sequential(
          torch.nn.Linear(D_in, H),
          torch.nn.ReLU(),
          torch.nn.Linear(H, D_out),
        )
loss_fn = torch.nn.MSELoss(size_average=False)

learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
for t in range(5):
  y_pred = model(x)

  loss = loss_fn(y_pred, y)
  print(t, loss.data[0])
  
  optimizer.zero_grad()

  loss.backward()

  optimizer.step()
