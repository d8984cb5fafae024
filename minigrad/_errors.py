"""Autograd's refusals, worded like PyTorch's: the texts and the checks that raise them.

The teaching core names these where they apply (``SavedTensor.unpack`` raises
``version_error``, ``accumulate_into`` calls ``refuse_overlap``...); their wording
lives here so the algorithm reads without it. Nothing here imports the core: a
node is read through its ``name()`` and attributes, a tensor through its own.

- backward twice, inference tensors saved, a non-leaf's ``.grad`` read;
- a saved tensor modified in place (``version_error``, ``first_stale``), naming
  the forward op as PyTorch 2.13 does (``forward_op_name``);
- in-place changes refused: to a leaf that requires grad (``check_inplace``),
  into overlapping memory (``refuse_overlap``, ``refuse_partial_overlap``);
- an assigned ``.grad`` of the wrong type, dtype or size
  (``check_grad_assignment``); ``detach_()`` of a view.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._dtype import from_numpy_dtype

ERR_BACKWARD_TWICE = (
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the "
    "graph are freed when you call .backward() or autograd.grad(). Specify "
    "retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward."
)

ERR_INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors "
    "created in inference mode in computation tracked by autograd. To work around "
    "this, you can make a clone to get a normal tensor and use it in autograd, or "
    "use `minigrad.no_grad()` instead of `minigrad.inference_mode()`."
)

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
    "Its .grad attribute won't be populated during autograd.backward(). If you "
    "indeed want the .grad field to be populated for a non-leaf Tensor, use "
    ".retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by "
    "mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)

ERR_DETACH_VIEW = (
    "Can't detach views in-place. Use detach() instead. If you are using "
    "DistributedDataParallel (DDP) for training, and gradient_as_bucket_"
    "view is set as True, gradients are views of DDP buckets, and hence "
    "detach_() cannot be called on these gradients. To fix this error, "
    "please refer to the Optimizer.zero_grad() function in "
    "torch/optim/optimizer.py as the solution."
)


# ------------------------------------------------- a saved tensor changed in place
def forward_op_name(node: Any) -> str:
    """``MulBackward0`` -> ``Mul``, ``SumBackward1`` -> ``Sum1``, as PyTorch 2.13
    names ops in its messages."""
    name = node.name()
    stem = name.rstrip("0123456789")
    if not stem.endswith("Backward"):
        return name
    overload = name[len(stem) :]
    return stem[: -len("Backward")] + ("" if overload == "0" else overload)


def version_error(saved: Any, owner: Any) -> str:
    """The message for a ``SavedTensor`` whose version moved on. PyTorch 2.13
    names the forward op that produced the tensor: the tensor's current grad_fn
    for a saved input, the owning node for a saved output (for the output of
    an in-place op on a view, the view's grad_fn made then, while it lives)."""
    data = saved.tensor._data if saved.tensor is not None else saved.data
    legacy = from_numpy_dtype(data.dtype)._legacy
    desc = f"[minigrad.{legacy} {list(data.shape)}]"
    fn = owner if saved.tensor is None else saved.tensor.grad_fn
    if saved.view_grad_fn is not None and saved.view_grad_fn() is not None:
        fn = saved.view_grad_fn()  # a view written in place: its grad_fn then
    where = ""
    if fn is not None:
        where = f", which is output {saved.output_nr} of {forward_op_name(fn)},"
    return (
        "one of the variables needed for gradient computation has been modified "
        f"by an inplace operation: {desc}{where} is at version {saved.vc.value}; "
        f"expected version {saved.version} instead. Hint: enable anomaly detection "
        "to find the operation that failed to compute its gradient, with "
        "minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


def first_stale(owner: Any, stale: Any) -> Any:
    """The stale saved tensor PyTorch reports when several are: its nodes unpack
    their saved variables in the order of their names (``other`` before
    ``self``, ``mat2`` before ``self``)."""
    saved = owner._held or ()
    names = getattr(owner, "_slot_names", ()) or ()
    if len(names) != len(saved):
        return stale
    for _, s in sorted(zip(names, saved), key=lambda p: p[0]):
        if s is not None and s.hooks is None and s.vc.value != s.version:
            return s
    return stale


# ------------------------------------------------------------ in-place refusals
def check_inplace(t: Any) -> None:
    """PyTorch refuses in-place changes to leaves that require grad (and views of
    them) while recording, since their old value may be needed for backward."""
    base = t._base
    if base is not None and t._grad_fn is None and t._view_version != t._vc.value:
        # a view whose base got its history after the view was made: PyTorch
        # reads the view's own grad_fn, still unset until something asks for
        # it, so it takes the view for a leaf that requires grad
        if base._grad_fn is not None:
            raise RuntimeError(LEAF_INPLACE)
    if not t.requires_grad:
        return
    if base is not None and base.grad_fn is None:  # also a view made a leaf
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an "
            "in-place operation."
        )
    if t.grad_fn is None:
        raise RuntimeError(LEAF_INPLACE)


LEAF_INPLACE = (
    "a leaf Variable that requires grad is being used in an in-place operation."
)


def refuse_overlap(data: np.ndarray) -> None:
    """PyTorch refuses to write in place into an expanded tensor, where several
    elements share one memory location."""
    strides = data.strides
    if (
        0 in strides
        and data.size
        and any(st == 0 and n > 1 for st, n in zip(strides, data.shape))
    ):
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor "
            "refers to a single memory location. Please clone() the tensor before "
            "performing the operation."
        )


def dense(a: np.ndarray) -> bool:
    """Non-overlapping and dense: the elements fill one block of memory, each
    once (the strides are a permutation of row-major). Dims of size 0 or 1 are
    skipped, as c10's ``is_non_overlapping_and_dense`` skips them."""
    expected = a.itemsize
    for st, n in sorted((st, n) for st, n in zip(a.strides, a.shape) if n > 1):
        if st != expected:
            return False
        expected *= n
    return True


def obeys_layout_contract(g: np.ndarray, leaf: np.ndarray) -> bool:
    """AccumulateGrad's "gradient layout contract": may ``g`` become ``leaf``'s
    first ``.grad`` as it is? Yes when it has the leaf's strides on the dims
    longer than 1 (and no 0 stride on the others) for a dense leaf, when it is
    row-major for any other leaf."""
    if g.flags.c_contiguous and leaf.flags.c_contiguous and 1 not in leaf.shape:
        return bool(leaf.size)  # the common case: both row-major, same strides
    if not dense(leaf):
        return g.flags.c_contiguous  # (skipping size-1 dims, as is_contiguous)
    return all(
        gs == ls if n != 1 else gs != 0
        for n, gs, ls in zip(leaf.shape, g.strides, leaf.strides)
    )


def grad_buffer(leaf: np.ndarray) -> np.ndarray:
    """An empty buffer for a leaf's first ``.grad`` when the gradient cannot be
    taken as it is (``clone_obey_contract``): the leaf's own strides when it is
    dense, else row-major."""
    if (leaf.flags.c_contiguous and 1 not in leaf.shape) or not dense(leaf):
        return np.empty(leaf.shape, leaf.dtype)
    memory = np.empty(max(leaf.size, 1), leaf.dtype)
    return np.lib.stride_tricks.as_strided(memory, leaf.shape, leaf.strides)


def refuse_partial_overlap(out: np.ndarray, src: np.ndarray) -> None:
    """PyTorch's assert_no_partial_overlap: an operand that is the written memory
    itself is fine, one that overlaps it otherwise is refused (the result would
    depend on the kernel's order). Like PyTorch it compares address ranges of
    dense layouts only, and finds nothing in empty or strided ones."""
    if out is src or not (out.size and src.size and dense(out) and dense(src)):
        return
    a, b = out.__array_interface__["data"][0], src.__array_interface__["data"][0]
    a_end, b_end = a + out.nbytes, b + src.nbytes
    full = a == b and a_end == b_end and out.strides == src.strides
    if not full and a < b_end and b < a_end:
        raise RuntimeError(
            "unsupported operation: some elements of the input tensor and the "
            "written-to tensor refer to a single memory location. Please clone() "
            "the tensor before performing the operation."
        )


# ------------------------------------------------------------- assigning .grad
def check_grad_assignment(t: Any, value: Any, tensor_cls: type) -> None:
    """``t.grad = value`` takes a Tensor (not ``t`` itself) of ``t``'s dtype
    (PyTorch 2.13's grad_dtype default) and size."""
    if not isinstance(value, tensor_cls):
        raise TypeError(
            f"assigned grad expected to be a Tensor or None but got grad of "
            f"type {type(value).__name__}"
        )
    if value is t:
        raise RuntimeError("can't assign Variable as its own grad")
    if value.dtype is not t.dtype:
        raise RuntimeError(
            f"attempting to assign a gradient with dtype "
            f"'{value.dtype._cpp}' to a tensor with grad_dtype "
            f"'{t.dtype._scalar_type}'. The gradient must match the "
            "tensor's grad_dtype (defaults to the tensor's dtype). You can "
            "set the tensor's grad_dtype attribute with a specific dtype, or "
            "None to allow any dtype. Set grad_dtype with caution. Diverging "
            "the dtypes of a tensor and its gradient may break downstream "
            "systems that assume they match."
        )
    if value.shape != t.shape:
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(value.shape)}' "
            f"to a tensor of size '{list(t.shape)}'. Please ensure that "
            "the gradient and the tensor are the same size"
        )
