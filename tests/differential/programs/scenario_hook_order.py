# Order of tensor hooks, node hooks/prehooks and post-accumulate hooks in one
# backward (n = m*m, m = a2*3).
import torch

a2 = torch.tensor([1.0, 2.0], requires_grad=True)
m = a2 * 3
n = m * m
acc = m.grad_fn.next_functions[0][0]


def shapes(ts):
    return [None if t is None else tuple(t.shape) for t in ts]


n.grad_fn.register_prehook(lambda go: print("node_prehook(n)", shapes(go)))
n.grad_fn.register_hook(lambda gi, go: print("node_hook(n)", shapes(gi), shapes(go)))
m.register_hook(lambda g: print("tensor_hook(m)", g))
m.grad_fn.register_hook(lambda gi, go: print("node_hook(m)", shapes(gi), shapes(go)))
a2.register_hook(lambda g: print("tensor_hook(a2)", g))
acc.register_prehook(lambda go: print("acc_prehook", shapes(go)))
a2.register_post_accumulate_grad_hook(lambda p: print("post_acc(a2)", p.grad))
acc.register_hook(lambda gi, go: print("acc_hook", gi, shapes(go)))
n.sum().backward()
print(a2.grad)
