# Source: https://github.com/d2l-ai/d2l-en/blob/master/chapter_preliminaries/linear-algebra.md (the PyTorch tab's code cells)
# License: MIT-0 (d2l's modified MIT sample-code license), Copyright 2019 Amazon.com, Inc. or its affiliates (https://github.com/d2l-ai/d2l-en/blob/master/LICENSE-SAMPLECODE)
# Shrunk for minigrad's corpus: a seed added; the value each notebook cell displays is printed.
import torch
torch.manual_seed(0)

x = torch.tensor(3.0)
y = torch.tensor(2.0)

print(x + y, x * y, x / y, x**y)

x = torch.arange(3)
print(x)

print(x[2])

print(len(x))

print(x.shape)

A = torch.arange(6).reshape(3, 2)
print(A)

print(A.T)

A = torch.tensor([[1, 2, 3], [2, 0, 4], [3, 4, 5]])
print(A == A.T)

print(torch.arange(24).reshape(2, 3, 4))

A = torch.arange(6, dtype=torch.float32).reshape(2, 3)
B = A.clone()  # Assign a copy of A to B by allocating new memory
print(A, A + B)

print(A * B)

a = 2
X = torch.arange(24).reshape(2, 3, 4)
print(a + X, (a * X).shape)

x = torch.arange(3, dtype=torch.float32)
print(x, x.sum())

print(A.shape, A.sum())

print(A.shape, A.sum(axis=0).shape)

print(A.shape, A.sum(axis=1).shape)

print(A.sum(axis=[0, 1]) == A.sum())  # Same as A.sum()

print(A.mean(), A.sum() / A.numel())

print(A.mean(axis=0), A.sum(axis=0) / A.shape[0])

sum_A = A.sum(axis=1, keepdims=True)
print(sum_A, sum_A.shape)

print(A / sum_A)

print(A.cumsum(axis=0))

y = torch.ones(3, dtype = torch.float32)
print(x, y, torch.dot(x, y))

print(torch.sum(x * y))

print(A.shape, x.shape, torch.mv(A, x), A@x)

B = torch.ones(3, 4)
print(torch.mm(A, B), A@B)

u = torch.tensor([3.0, -4.0])
print(torch.norm(u))

print(torch.abs(u).sum())

print(torch.norm(torch.ones((4, 9))))

