# ModuleDict, ParameterList and ParameterDict: registration, names, reprs (also
# nested), tensors made Parameters.
import torch
import torch.nn as nn

pl = nn.ParameterList([nn.Parameter(torch.ones(2, 3)), nn.Parameter(torch.zeros(4))])
print(pl)
print([n for n, _ in pl.named_parameters()])
pl.append(nn.Parameter(torch.ones(1)))
pl.append(torch.zeros(2))
print(len(pl), type(pl[3]).__name__, pl[3].requires_grad, [p.shape for p in pl])
pd = nn.ParameterDict(
    {
        "a": nn.Parameter(torch.ones(2)),
        "b": nn.Parameter(torch.zeros(1, 2, dtype=torch.float64)),
    }
)
print(pd)
print([n for n, _ in pd.named_parameters()], list(pd.keys()), "a" in pd, pd["b"].shape)
md = nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.ReLU()})
print(md)
print(list(md.keys()), "lin" in md, len(md), [n for n, _ in md.named_parameters()])
md["out"] = nn.Linear(3, 1)
print(md, md.pop("act"), list(md))
print(nn.ParameterList(), nn.ModuleDict(), nn.ParameterDict())


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleDict({"a": nn.Linear(2, 2), "b": nn.Tanh()})
        self.scales = nn.ParameterList([nn.Parameter(torch.tensor(2.0))])

    def forward(self, x):
        return self.blocks["b"](self.blocks["a"](x)) * self.scales[0]


net = Net()
print(net, [n for n, _ in net.named_parameters()], list(net.state_dict()))
