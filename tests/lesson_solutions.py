"""Answers to the lessons' exercises, injected by tests/test_notebooks.py.

The notebooks ship each exercise's answer cell as a blank (`...`) for the
student to fill in. The tests run every lesson with these cells in place of the
blanks (the checks must pass), and the lessons listed here once more with the
blanks (every check must fail, so a check cannot pass for anything).

SOLUTIONS maps a notebook's stem to {answer cell id: the solution's source};
CHECKS maps it to the ids of the cells that check those answers.
"""

SOLUTIONS: dict[str, dict[str, str]] = {
    "01_tensors_and_leaves": {
        "l01-44": """\
# Your predictions (True / False):
leaf_w = True
leaf_scaled = True
leaf_h = False
leaf_frozen = True
leaf_cut = True
""",
        "l01-47": 'has_grad = {"w"}',
        "l01-50": "w_grad = [20.0, 30.0]",
    },
    "02_grad_fn_and_saved_tensors": {
        "l02-37": 'none_slot = "_saved_other"',
        "l02-40": 'sigmoid_slot = "_saved_result"',
        "l02-43": "n_accumulate = 1",
        "l02-57": "n_pack = 3",
    },
    "03_backward_step_by_step": {
        "l03-20": 'third_node = "l3"',
        "l03-23": "w1_grad_after_5 = None\nw3_grad_after_5 = 10.0",
        "l03-26": "l1_step = 7\nl1_grad_in = 7.0",
        "l03-29": "w2_grad_with_hook = 8.0",
        "l03-52": """\
def my_backward(loss):
    counts = dependencies(loss.grad_fn)  # section 1: gradients each node waits for
    buffers = {loss.grad_fn: torch.ones_like(loss)}  # the input buffers
    ready, leaf_grads = [loss.grad_fn], {}
    while ready:
        node = ready.pop()
        grad = buffers.pop(node)
        if type(node).__name__ == "AccumulateGrad":
            leaf_grads[node.variable] = sum_to(grad, node.variable.shape)
            continue
        with torch.no_grad():
            outs = node(grad)
        if not isinstance(outs, tuple):
            outs = (outs,)
        for (next_node, _), g in zip(node.next_functions, outs):
            if next_node is None:
                continue
            if g is not None:  # sum the contributions in the input buffer
                buffers[next_node] = buffers.get(next_node, 0) + g
            counts[next_node] -= 1
            if counts[next_node] == 0:
                ready.append(next_node)
    return leaf_grads
""",
    },
    "04_non_leaf_grads_and_hooks": {
        "l04-29": "y_grad = [5.0, 5.0, 5.0]",
        "l04-32": "x_grad_with_hook = [2.0, 4.0, 6.0]",
        "l04-35": "position_of_post_accumulate = 7",
        "l04-71": "step_of_n_hook = 2",
    },
    "05_vector_jacobian_products": {
        "l05-28": "answer_1 = [2.0, 0.0, -6.0]",
        "l05-31": "answer_2 = [12.0, 10.0, 4.0]",
        "l05-34": "answer_3 = [0.25, 0.25, 0.25, 0.25]",
    },
    "06_inplace_and_versions": {
        "l06-37": "t_version = 3",
        "l06-40": 'raises = ["A", "C"]',
        "l06-43": "d_grad = [0.0, 0.0]",
    },
    "07_retain_graph_and_higher_order": {
        "l07-29": "answer_1 = 12.0",
        "l07-32": "answer_2 = 12.0",
        "l07-35": 'answer_3 = ["A"]',
    },
    "08_custom_function": {
        "l08-29": """\
def cube_backward(x, grad_output):
    return grad_output * 3 * x ** 2
""",
        "l08-32": 'node_name = "MyCubeBackward"',
        "l08-35": "needs = (False, True)",
        "l08-61": '''\
def numerical_grad(f, x, eps=1e-6):
    """Central differences of f at x, one element of x at a time."""
    grad = torch.zeros(x.numel(), dtype=x.dtype)
    for i in range(x.numel()):
        step = torch.zeros(x.numel(), dtype=x.dtype)
        step[i] = eps
        step = step.reshape(x.shape)
        grad[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return grad.reshape(x.shape)
''',
    },
    "09_training_with_nn_and_optim": {
        "l09-42": "n_accumulate = 4",
        "l09-45": "first_weight_grad_shape = (16, 2)",
        "l09-48": "times = 3",
        "l09-51": "accuracy_without_zero_grad = 0.5",
        "l09-63": '''\
def train(model, optimizer, steps):
    """broken_train, repaired."""
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()  # the previous step's gradients are not this step's
        probs = model(X).softmax(dim=1)
        target = 0.8 * F.one_hot(y, 2).float() + 0.2 * probs.detach()  # a constant
        probs = probs.clamp(min=1e-6)  # out of place: softmax saved probs
        loss = -(target * probs.log()).sum(dim=1).mean()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses
''',
    },
    "10_minigrad_vs_pytorch": {
        "l10-41": 'same_on_both = ["A", "C"]',
    },
    "11_backprop_through_time": {
        "b4d396cd": "edges_for_five_steps = 5",
        "461ff133": 'h1_vs_h3 = "smaller"',
        "6ebbd698": """\
gru_default = "StackBackward0"
gru_batch_first = "TransposeBackward1"
""",
    },
    "12_convolutions": {
        "7dcb5479": "edges_without_bias = 3",
        "cfb842cb": "output_padding_for_7 = 0",
        "b121026b": "transposed_flag = True",
    },
    "13_forward_mode": {
        "e97b4114": """\
forward_passes = 5
reverse_passes = 100
""",
        "a27c718b": "sin_tangent = 2.0",
        "1a76a360": "argmax_has_tangent = False",
    },
}

CHECKS: dict[str, list[str]] = {
    "01_tensors_and_leaves": ["l01-45", "l01-48", "l01-51"],
    "02_grad_fn_and_saved_tensors": ["l02-38", "l02-41", "l02-44", "l02-58"],
    "03_backward_step_by_step": ["l03-21", "l03-24", "l03-27", "l03-30", "l03-53"],
    "04_non_leaf_grads_and_hooks": ["l04-30", "l04-33", "l04-36", "l04-72"],
    "05_vector_jacobian_products": ["l05-29", "l05-32", "l05-35"],
    "06_inplace_and_versions": ["l06-38", "l06-41", "l06-44"],
    "07_retain_graph_and_higher_order": ["l07-30", "l07-33", "l07-36"],
    "08_custom_function": ["l08-30", "l08-33", "l08-36", "l08-62"],
    "09_training_with_nn_and_optim": ["l09-43", "l09-46", "l09-49", "l09-52", "l09-64"],
    "10_minigrad_vs_pytorch": ["l10-42"],
    "11_backprop_through_time": ["1ac00418", "ecc3236f", "282eb851"],
    "12_convolutions": ["a040d8e4", "bfc5ee8d", "fd591fa3"],
    "13_forward_mode": ["7d656423", "cc7b98bd", "de8fcffb"],
}


# ---- lesson 14 (cutting gradients on purpose): kept in its own block, merged
# into the tables above, so edits to the other lessons' entries never touch it
SOLUTIONS["14_cutting_gradients"] = {
    "l14-37": 'g_grad_without_detach = "tensor"',
    "l14-40": "unfrozen_weight_changed = True",
    "l14-43": 'outputs_with_grad_fn = ["eval"]',
    "l14-46": '''def clipped(grads, max_norm):
    """The gradients after clip_grad_norm_(params, max_norm), as a list of tensors."""
    total = torch.stack([g.norm() for g in grads]).norm()
    coef = min(1.0, max_norm / (total.item() + 1e-6))
    return [g * coef for g in grads]''',
    "l14-49": '''def carry(h):
    """What the next chunk starts from."""
    return h.detach()''',
}
CHECKS["14_cutting_gradients"] = ["l14-38", "l14-41", "l14-44", "l14-47", "l14-50"]
