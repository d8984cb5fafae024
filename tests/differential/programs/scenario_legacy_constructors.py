# The legacy constructors old lessons use: torch.Tensor(2, 3) is an
# uninitialised float32 2x3 tensor (only its shape and dtype are printed),
# torch.Tensor(data) is float32 even for int data, FloatTensor & co. make their
# dtype and answer isinstance by dtype; their errors, and ragged nested lists.
import warnings

import numpy as np
import torch


def show(name, f):
    try:
        t = f()
        print(name, t.shape, t.dtype, t.type(), t.is_leaf)
    except Exception as e:
        print(name, f"{type(e).__name__}: {e}")


show("sizes", lambda: torch.Tensor(2, 3))
show("Size", lambda: torch.Tensor(torch.Size([2, 3])))
show("numpy int size", lambda: torch.Tensor(np.int64(3)))
show("0-d int tensor in sizes", lambda: torch.Tensor(torch.tensor(2), 3))
show("empty", lambda: torch.Tensor())
show("zero", lambda: torch.Tensor(0, 3))
show("size=", lambda: torch.Tensor(size=(2,)))
show("data=", lambda: torch.Tensor(data=[1, 2]))
show("device", lambda: torch.Tensor(2, device="cpu"))
print(torch.Tensor([1, 2]), torch.Tensor((2, 3)), torch.Tensor([[True], [False]]))
print(torch.Tensor([]), torch.Tensor([[]]), torch.Tensor([torch.tensor(1.5), 2]))
print(torch.Tensor(np.array([1, 2])), torch.Tensor(np.array([0.5], dtype=np.float32)))
shared = np.array([1.0, 2.0], dtype=np.float32)
torch.Tensor(shared)[0] = 7.0
print("shares a float32 array", shared)
for name in (
    "FloatTensor DoubleTensor HalfTensor LongTensor IntTensor ShortTensor "
    "CharTensor ByteTensor BoolTensor"
).split():
    cls = getattr(torch, name)
    show(name, lambda cls=cls: cls(2, 3))
    print(name, cls([1.7, -0.0]), cls(), isinstance(cls([1]), cls), cls.dtype)
print(torch.LongTensor([1.7, -2.7]), torch.BoolTensor([0, 2.5]), torch.ByteTensor([3]))
x = torch.zeros(2)
print(isinstance(x, torch.FloatTensor), isinstance(x, torch.DoubleTensor))
print(isinstance(x.double(), torch.DoubleTensor), isinstance(x, torch.Tensor))
print(isinstance(torch.nn.Parameter(x), torch.FloatTensor))
print(isinstance(x, (torch.LongTensor, torch.FloatTensor)), type(torch.FloatTensor(2)))
print(
    issubclass(torch.FloatTensor, torch.Tensor),
    torch.FloatTensor,
    type(torch.IntTensor),
)
print(x.type(), x.long().type(), x.bool().type(), x.half().type(), x.int().type())
print(x.type(torch.float64).type(), x.type("torch.LongTensor").type())
print(x.type(torch.IntTensor).type(), x.type(torch.FloatTensor) is x)

# a tensor is aliased (same data, an AliasBackward0 node when it requires grad)
w = torch.tensor([1.0, 2.0], requires_grad=True)
a = torch.Tensor(w)
print(a is w, a.grad_fn, a.requires_grad, a._base is w)
a.sum().backward()
print(w.grad)
i = torch.tensor([1, 2])
print(torch.Tensor(i).dtype, torch.LongTensor(i).dtype)

show("float", lambda: torch.Tensor(2.5))
show("bool", lambda: torch.Tensor(True))
show("None", lambda: torch.Tensor(None))
show("numpy float", lambda: torch.Tensor(np.float64(2.0)))
show("str", lambda: torch.Tensor("a"))
show("str in list", lambda: torch.Tensor(["a"]))
show("str item", lambda: torch.Tensor([1, "a"]))
show("None item", lambda: torch.Tensor([None]))
show("negative", lambda: torch.Tensor(2, -1))
show("float size", lambda: torch.Tensor(2, 3.5))
show("list size", lambda: torch.Tensor(2, [3]))
show("ragged", lambda: torch.Tensor([[1, 2], [3, 4, 5]]))
show("not a sequence", lambda: torch.Tensor([[1, 2], 3]))
show("list for a number", lambda: torch.Tensor([1, [2]]))
show("list for an int", lambda: torch.LongTensor([1, [2]]))
show("list for a bool", lambda: torch.BoolTensor([1, [2]]))
show("deep ragged", lambda: torch.tensor([[[1], [2]], [[1], [2, 3]]]))
show("empty row", lambda: torch.tensor([[1, 2], []]))
show("tensor ragged", lambda: torch.tensor([[1, 2], [3, 4, 5]]))
show("tensor str", lambda: torch.tensor([1, "a"]))
show("tensor str list", lambda: torch.tensor(["a"]))
show("tensor None", lambda: torch.tensor([None]))
show("tensor object", lambda: torch.tensor(object()))
show("multi-element items", lambda: torch.Tensor([torch.ones(2), torch.ones(2)]))
show("other dtype", lambda: torch.FloatTensor(i))
show("other dtype long", lambda: torch.LongTensor(x))
show("overflow", lambda: torch.ByteTensor([256]))
show("dtype=", lambda: torch.Tensor([1, 2], dtype=torch.float64))
show("requires_grad=", lambda: torch.FloatTensor([1], requires_grad=True))
show("sizes dtype=", lambda: torch.Tensor(2, 3, dtype=torch.float64))
show("only dtype=", lambda: torch.Tensor(dtype=torch.float64))
show("two lists", lambda: torch.Tensor([1, 2], [3]))
show("three args", lambda: torch.Tensor([1, 2], 3, 4))
show("tuples", lambda: torch.Tensor((1, 2), (3, "a")))
show("float first", lambda: torch.Tensor(2.5, 3))
show("tensor first", lambda: torch.Tensor(torch.ones(1), 2))
show("meta", lambda: torch.Tensor(2, device="meta"))
show("bad type name", lambda: x.type("foo"))
show("bad type", lambda: x.type(3))

# copying a tensor through tensor() or new_tensor() warns, each naming its call
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    src = torch.ones(2)
    copies = [torch.tensor(src), src.new_tensor(src), src.new_tensor([1, 2])]
print([str(m.message).split("rather than ")[1] for m in caught])
print([(c.dtype, c.requires_grad, c.is_leaf) for c in copies])
