"""bfloat16, which numpy lacks: it can be named and asked about (finfo), but
making a tensor of it is refused with an error naming the limitation, never a
silent float32 (README, known differences). The rest of the dtype API is
compared with PyTorch in tests/differential/programs/scenario_default_dtype_finfo.py."""

import pytest

import minigrad

LIMITATION = "minigrad.bfloat16 is not supported: numpy, which holds minigrad's data"


@pytest.mark.parametrize(
    "make",
    [
        lambda: minigrad.zeros(2, dtype=minigrad.bfloat16),
        lambda: minigrad.tensor([1.0], dtype=minigrad.bfloat16),
        lambda: minigrad.ones(2).bfloat16(),
        lambda: minigrad.ones(2).to(minigrad.bfloat16),
        lambda: minigrad.ones(2).type("torch.BFloat16Tensor"),
        lambda: minigrad.BFloat16Tensor(2, 3),
        lambda: minigrad.set_default_dtype(minigrad.bfloat16),
    ],
)
def test_bfloat16_is_refused_by_name(make) -> None:
    with pytest.raises(TypeError, match=LIMITATION):
        make()
    assert minigrad.get_default_dtype() is minigrad.float32


def test_bfloat16_can_be_asked_about() -> None:
    x = minigrad.ones(1)
    assert not isinstance(x, minigrad.BFloat16Tensor)
    assert repr(minigrad.bfloat16) == "minigrad.bfloat16"
    assert minigrad.finfo(minigrad.bfloat16).eps == 2.0**-7
