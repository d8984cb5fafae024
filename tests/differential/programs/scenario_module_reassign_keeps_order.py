# Reassigning a registered submodule, parameter or buffer keeps its place:
# the repr, named_parameters(), state_dict() and a Sequential's running order
# are unchanged (minigrad used to move it to the end, so a Sequential whose
# first layer was replaced ran it last).
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.fc2 = nn.Linear(3, 1)
        self.register_buffer("b", torch.zeros(1))
        self.c = nn.Parameter(torch.ones(1))
        self.d = nn.Parameter(torch.ones(1))


torch.manual_seed(0)
net = Net()
net.fc1 = nn.Linear(2, 3)
net.b = torch.ones(1)
net.c = nn.Parameter(torch.zeros(1))
print(net)
print([n for n, _ in net.named_parameters()], list(net.state_dict()))
seq = nn.Sequential(nn.Linear(2, 2), nn.Tanh())
setattr(seq, "0", nn.Linear(2, 2))
print(seq)
with torch.no_grad():
    seq[0].weight.fill_(2.0)
    seq[0].bias.fill_(-1.0)
print(seq(torch.ones(1, 2)))
