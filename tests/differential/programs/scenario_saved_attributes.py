# Saved tensors and saved non-tensor arguments on backward nodes.
import torch

a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
m = a * b
print(m.grad_fn._saved_self is a, m.grad_fn._saved_other is b)
k = a * 2
print(k.grad_fn._saved_self is None, k.grad_fn._saved_other)
print((a * 2.5).grad_fn._saved_other, (2.5 * a).grad_fn._saved_self is None)
p = a**2
print(p.grad_fn._saved_exponent, type(p.grad_fn._saved_exponent).__name__)
print(p.grad_fn._saved_self is a)
e = a.exp()
print(e.grad_fn._saved_result is e, e.grad_fn._saved_result)
print(torch.equal(e.grad_fn._saved_result, e))
s = a.sum()
print(s.grad_fn._saved_self_sym_sizes)
M = torch.ones(2, 3, requires_grad=True)
s0 = M.sum(0)
print(
    s0.grad_fn._saved_dim, s0.grad_fn._saved_keepdim, s0.grad_fn._saved_self_sym_sizes
)
s1 = M.sum(1, keepdim=True)
print(s1.grad_fn._saved_dim, s1.grad_fn._saved_keepdim)
d = a / b
print(d.grad_fn._saved_self is a, d.grad_fn._saved_other is b)
t = a.tanh()
print(t.grad_fn._saved_result)
ad = a.add(b, alpha=2)
print(ad.grad_fn._saved_alpha, ad)
t.sum().backward()
try:
    print(t.grad_fn._saved_result)
except RuntimeError as e:
    print("RuntimeError:", e)
