# A leaf that stops requiring grad after the forward gets no .grad: PyTorch's
# AccumulateGrad skips a variable that no longer requires grad, so an optimizer
# does not train a frozen weight.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
w.requires_grad_(False)
y.backward()
print("requires_grad_(False)", w.grad, w.requires_grad, w.is_leaf)

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
w.detach_()
y.backward()
print("detach_()", w.grad, w.requires_grad, w.is_leaf)

w = torch.tensor([1.0, 2.0], requires_grad=True)
y = (w * 3).sum()
w.requires_grad = False
y.backward()
print("requires_grad = False", w.grad)

# frozen after a first backward: .grad keeps what it had
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 3).sum().backward()
y = (w * 5).sum()
w.requires_grad_(False)
y.backward()
print("kept", w.grad)

# the post-accumulate hook does not run either
w = torch.tensor([1.0, 2.0], requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("post hook", p.grad))
y = (w * 3).sum()
w.requires_grad_(False)
y.backward()
print("hooked", w.grad)

# a training step with a frozen weight leaves it as it was
w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
b = torch.nn.Parameter(torch.tensor([0.5]))
opt = torch.optim.SGD([w, b], lr=0.1)
loss = (w**2).sum() + (b * 2).sum()
w.requires_grad_(False)
loss.backward()
opt.step()
print("sgd", w.data, w.grad, b.data, b.grad)
