# Source: https://github.com/pytorch/pytorch/blob/01bcc2a219f01ea508749bce7d29bd47da3ef0d0/docs/source/notes/autograd.rst (the requires_grad and multithreaded autograd listings)
# License: BSD-3-Clause, Copyright (c) 2016- Facebook, Inc. and PyTorch contributors (https://github.com/pytorch/pytorch/blob/main/LICENSE)
# Shrunk for minigrad's corpus: a seed added; the doctest's displayed values printed; train_fn's
# gradient printed once the threads are done (the listing only computes it); the torchvision
# fine-tuning listing left out (it downloads a pretrained resnet).
import threading

import torch

torch.manual_seed(0)

x = torch.randn(5, 5)  # requires_grad=False by default
y = torch.randn(5, 5)  # requires_grad=False by default
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad)

grads = []

# Define a train function to be used in different threads
def train_fn():
    x = torch.ones(5, 5, requires_grad=True)
    # forward
    y = (x + 3) * (x + 4) * 0.5
    # backward
    y.sum().backward()
    # potential optimizer update
    grads.append(x.grad)


# User write their own threading code to drive the train_fn
threads = []
for _ in range(10):
    p = threading.Thread(target=train_fn, args=())
    p.start()
    threads.append(p)

for p in threads:
    p.join()

print(len(grads), all(g.equal(grads[0]) for g in grads))
print(grads[0])
