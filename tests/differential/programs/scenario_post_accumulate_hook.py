# register_post_accumulate_grad_hook runs after .grad is updated; removable.
import torch

p = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []


def post(param):
    seen.append(param is p)
    print("post hook, grad =", param.grad)


h = p.register_post_accumulate_grad_hook(post)
(p * 2).sum().backward()
(p * 3).sum().backward()
print(seen)
h.remove()
(p * 4).sum().backward()
print(p.grad, len(seen))


def sgd_step(param):
    # The classic use: update the parameter in the hook, then drop the grad.
    with torch.no_grad():
        param.sub_(param.grad * 0.5)
    param.grad = None


q = torch.tensor([1.0, 2.0], requires_grad=True)
q.register_post_accumulate_grad_hook(sgd_step)
(q * q).sum().backward()
print(q, q.grad, q._version)
