# A custom autograd.Function: ctx.save_for_backward, saved_tensors,
# needs_input_grad, node name and attributes.
import torch


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, scale):
        result = x.exp() * scale
        ctx.save_for_backward(result)
        ctx.scale = scale
        print("forward grad enabled:", torch.is_grad_enabled())
        return result

    @staticmethod
    def backward(ctx, grad_output):
        print("needs_input_grad:", ctx.needs_input_grad)
        (result,) = ctx.saved_tensors
        return grad_output * result, None


a = torch.tensor([0.0, 1.0], requires_grad=True)
y = MyExp.apply(a, 2.0)
print(y)
gf = y.grad_fn
print(type(gf).__name__, gf.name())
print([(type(f).__name__ if f else None, nr) for f, nr in gf.next_functions])
print(gf.scale, gf.needs_input_grad)
print(gf.saved_tensors)
y.sum().backward()
print(a.grad)

b = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([3.0, 4.0])
z = MyExp.apply(b * c, 1.0)
print(type(z.grad_fn).__name__, type(z.grad_fn.next_functions[0][0]).__name__)
z.sum().backward()
print(b.grad)
with torch.no_grad():
    print(MyExp.apply(b, 1.0).grad_fn)
print(MyExp.apply(c, 1.0).requires_grad)
