# Source: https://github.com/pytorch/tutorials/blob/main/beginner_source/examples_nn/polynomial_nn.py
# License: BSD-3-Clause, Copyright (c) 2017-present, PyTorch contributors (https://github.com/pytorch/tutorials/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added, 200 points and 300 steps (not 2000 and 2000); prose comments cut.
"""PyTorch: nn"""
import torch
import math

torch.manual_seed(0)

x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)

p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)

model = torch.nn.Sequential(
    torch.nn.Linear(3, 1),
    torch.nn.Flatten(0, 1)
)

loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-6
for t in range(300):
    y_pred = model(xx)

    loss = loss_fn(y_pred, y)
    if t % 100 == 99:
        print(t, loss.item())

    model.zero_grad()

    loss.backward()

    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad

linear_layer = model[0]

print(f'Result: y = {linear_layer.bias.item()} + {linear_layer.weight[:, 0].item()} x + {linear_layer.weight[:, 1].item()} x^2 + {linear_layer.weight[:, 2].item()} x^3')
