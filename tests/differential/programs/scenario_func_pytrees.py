# torch.func transforms over {name: tensor} dicts (per-sample gradients with
# functional_call), jacrev's has_aux, an input handed back as aux, torch.vmap,
# and relu's gradient where the unit is off (+0, whatever the sign upstream).
import torch
from torch.func import functional_call, grad, jacrev, vmap

torch.manual_seed(11)
net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
params = {k: v.detach() for k, v in net.named_parameters()}
xs, ys = torch.randn(4, 3), torch.randn(4, 1)


def loss_of(p, x, y):
    pred = functional_call(net, (p, {}), (x.unsqueeze(0),))
    return ((pred - y.unsqueeze(0)) ** 2).mean()


g = grad(loss_of)(params, xs[0], ys[0])
print(type(g).__name__, list(g), g["2.bias"])
per_sample = vmap(grad(loss_of), in_dims=(None, 0, 0))(params, xs, ys)
print({k: tuple(v.shape) for k, v in per_sample.items()})
print(per_sample["0.weight"][1])
pair = grad(lambda a, b: (a * b["w"]).sum(), argnums=(0, 1))(xs[0], {"w": xs[1]})
print(pair)

target = torch.rand(3)
guess = torch.rand(3, requires_grad=True)
gs, aux = (
    grad(lambda t, p: ((p - t) ** 2).sum(), argnums=(0, 1), has_aux=False)(
        target, guess
    ),
    None,
)
print(gs)
_, back = grad(lambda t, p: (((p - t) ** 2).sum(), p), argnums=1, has_aux=True)(
    target, guess
)
print(back is guess, back)
jac, side = jacrev(lambda v: (v.exp(), v.sum()), has_aux=True)(target)
print(jac, side)
print(jacrev(torch.cos, chunk_size=1)(target).shape)
print(torch.vmap is torch.func.vmap, torch.vmap(torch.dot)(xs, xs))

z = torch.tensor([-2.0, 1.0, 0.0], requires_grad=True)
z.relu().backward(torch.tensor([-3.0, -3.0, -3.0]))
print(z.grad)

# jacrev of a parameter dict (the neural tangent kernel recipe), batched by vmap
jac = vmap(jacrev(lambda p, x: functional_call(net, p, (x,))), (None, 0))(params, xs)
print({k: tuple(j.shape) for k, j in jac.items()}, jac["2.bias"][0])
