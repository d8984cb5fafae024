"""Recurrent layers: ``RNN``, ``LSTM``, ``GRU`` and their cells.

They are built from ordinary ops, recorded in the order PyTorch's CPU code
(``aten/src/ATen/native/RNN.cpp``) records them, so the graph a student draws has
PyTorch's nodes: one ``addmm`` projects the whole input sequence, ``unbind`` cuts
it into time steps, each step is one cell, and ``stack`` joins the outputs.
Backpropagation through time is then nothing special: the engine walks that graph.

One difference: PyTorch runs a float32 ``LSTM`` through oneDNN where available,
which records one fused ``MkldnnRnnLayerBackward0`` node per layer; minigrad
always records the steps (as PyTorch does for float64).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import creation
from .._tensor import Tensor
from .._warn import warn
from ..ops.join import cat, stack
from ..ops.linalg import matmul
from . import functional as F
from . import init
from .module import Module
from .parameter import Parameter


class _Weights(NamedTuple):
    """One layer-direction's parameters (PyTorch's ``CellParams``)."""

    w_ih: Tensor
    w_hh: Tensor
    b_ih: Tensor | None
    b_hh: Tensor | None
    w_hr: Tensor | None = None  # LSTM projection


# ------------------------------------------------------------------ one step
# Each cell takes the input (or, over a sequence, its projection W_ih x + b_ih,
# computed for all steps at once) and the previous hidden state.
def _rnn_cell(relu: bool) -> Callable:
    def cell(x: Tensor, h: Tensor, w: _Weights, projected: bool) -> Tensor:
        """h' = tanh(W_hh h + b_hh + W_ih x + b_ih)  (or relu)"""
        pre = F.linear(h, w.w_hh, w.b_hh).add_(
            x if projected else F.linear(x, w.w_ih, w.b_ih)
        )
        return pre.relu() if relu else pre.tanh()

    return cell


def _lstm_cell(x: Tensor, hc: tuple, w: _Weights, projected: bool) -> tuple:
    """i, f, g, o = σ, σ, tanh, σ of the gates; c' = f c + i g; h' = o tanh(c')"""
    h, c = hc
    gates = F.linear(h, w.w_hh, w.b_hh).add_(
        x if projected else F.linear(x, w.w_ih, w.b_ih)
    )
    i, f, g, o = gates.unsafe_chunk(4, 1)
    i, f, g, o = i.sigmoid_(), f.sigmoid_(), g.tanh_(), o.sigmoid_()
    c = (f * c).add_(i * g)
    h = o * c.tanh()
    if w.w_hr is not None:
        h = matmul(h, w.w_hr.t())
    return h, c


def _gru_cell(x: Tensor, h: Tensor, w: _Weights, projected: bool) -> Tensor:
    """r, z = σ(x_r + h_r), σ(x_z + h_z); n = tanh(x_n + r h_n); h' = (h - n) z + n"""
    x_r, x_z, x_n = (x if projected else F.linear(x, w.w_ih, w.b_ih)).unsafe_chunk(3, 1)
    h_r, h_z, h_n = F.linear(h, w.w_hh, w.b_hh).unsafe_chunk(3, 1)
    r = h_r.add_(x_r).sigmoid_()
    z = h_z.add_(x_z).sigmoid_()
    n = x_n.add(h_n.mul_(r)).tanh_()
    return (h - n).mul_(z).add_(n)


def _output_of(hidden: Any) -> Tensor:
    return hidden[0] if isinstance(hidden, tuple) else hidden


# ------------------------------------------------------------- whole sequence
def _run_layers(
    cell: Callable,
    input: Tensor,
    hiddens: list,
    weights: list[_Weights],
    num_layers: int,
    dropout: float,
    train: bool,
    directions: int,
) -> tuple[Tensor, list]:
    """Every layer over the (seq, batch, feature) input: its output sequence and
    the final hidden state of each layer and direction."""
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            w = weights[layer * directions + d]
            steps = list(F.linear(input, w.w_ih, w.b_ih).unbind(0))
            if d == 1:  # the reverse direction reads the sequence backwards
                steps.reverse()
            hidden, step_outputs = hiddens[layer * directions + d], []
            for x in steps:
                hidden = cell(x, hidden, w, True)
                step_outputs.append(_output_of(hidden))
            if d == 1:
                step_outputs.reverse()
            outputs.append(stack(step_outputs, 0))
            finals.append(hidden)
        input = outputs[0] if directions == 1 else cat(outputs, 2)
        if dropout != 0 and train and layer < num_layers - 1:
            input = F.dropout(input, dropout)
    return input, finals


# ---------------------------------------------------------------- the modules
_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


class RNNBase(Module):
    """Shared by RNN, LSTM and GRU: the parameters ``weight_ih_l{k}``,
    ``weight_hh_l{k}``, ``bias_ih_l{k}``, ``bias_hh_l{k}`` (``_reverse`` for the
    second direction), all drawn from U(-1/√hidden_size, 1/√hidden_size)."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        _check_sizes(input_size, hidden_size, bias, batch_first, dropout)
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError(
                "proj_size should be a positive integer or zero to disable projections"
            )
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if dropout > 0 and num_layers == 1:
            warn(
                "dropout option adds dropout after all but last recurrent layer, so "
                "non-zero dropout expects num_layers greater than 1, but got "
                f"dropout={dropout} and num_layers={num_layers}"
            )
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional = float(dropout), bidirectional
        self.proj_size = proj_size
        gate_size = _GATES[mode] * hidden_size
        out_size = proj_size or hidden_size
        self._flat_weights_names: list[str] = []
        for layer in range(num_layers):
            for suffix in ("", "_reverse")[: 2 if bidirectional else 1]:
                n_in = input_size if layer == 0 else out_size * (1 + bidirectional)
                shapes = {
                    "weight_ih": (gate_size, n_in),
                    "weight_hh": (gate_size, out_size),
                }
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                for kind, shape in shapes.items():
                    name = f"{kind}_l{layer}{suffix}"
                    empty = creation.empty(shape, dtype=dtype)
                    self.register_parameter(name, Parameter(empty))
                    self._flat_weights_names.append(name)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    def flatten_parameters(self) -> None:
        """A no-op: PyTorch packs the weights for cuDNN, minigrad has no GPU."""

    @property
    def _flat_weights(self) -> list[Tensor]:
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        per = len(self._flat_weights_names) // (
            self.num_layers * (2 if self.bidirectional else 1)
        )
        flat = self._flat_weights
        return [flat[i : i + per] for i in range(0, len(flat), per)]

    def _weights(self) -> list[_Weights]:
        def weight(kind: str, suffix: str) -> Any:
            return getattr(self, kind + suffix, None)

        out = []
        for layer in range(self.num_layers):
            for d in ("", "_reverse")[: 2 if self.bidirectional else 1]:
                suffix = f"_l{layer}{d}"
                out.append(
                    _Weights(
                        *(weight(k, suffix) for k in ("weight_ih", "weight_hh")),
                        *(weight(k, suffix) for k in ("bias_ih", "bias_hh")),
                        weight("weight_hr", suffix),
                    )
                )
        return out

    # ---- PyTorch's argument checks, with its messages
    def _check_input(self, input: Tensor) -> None:
        w_dtype = self._flat_weights[0].dtype
        if input.dtype != w_dtype:
            raise ValueError(
                f"RNN input dtype ({input.dtype}) does not match weight dtype "
                f"({w_dtype}). Convert input: input.to({w_dtype}), or convert model: "
                f"model.to({input.dtype})"
            )
        if self.input_size != input.size(-1):
            raise RuntimeError(
                "input.size(-1) must be equal to input_size. Expected "
                f"{self.input_size}, got {input.size(-1)}"
            )

    def _expected_hidden(self, input: Tensor, size: int) -> tuple[int, int, int]:
        batch = input.size(0) if self.batch_first else input.size(1)
        return (self.num_layers * (2 if self.bidirectional else 1), batch, size)

    @staticmethod
    def _check_hidden(hx: Tensor, expected: tuple, what: str = "hidden") -> None:
        if tuple(hx.shape) != expected:
            raise RuntimeError(f"Expected {what} size {expected}, got {list(hx.shape)}")

    def _batched(self, input: Tensor, name: str) -> bool:
        if input.dim() not in (2, 3):
            tail = " tensor" if name == "RNN" else ""  # sic: as PyTorch words it
            raise ValueError(
                f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} "
                "instead"
            )
        return input.dim() == 3

    def _one_state(self, cell: Callable, input: Tensor, hx: Tensor | None) -> tuple:
        """RNN's and GRU's forward: ``(output, h_n)``."""
        batched = self._batched(input, "RNN" if self.mode != "GRU" else "GRU")
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = input.unsqueeze(batch_dim)
        if hx is None:
            hx = creation.zeros(
                self._expected_hidden(input, self.hidden_size), dtype=input.dtype
            )
        else:
            want, kind = (3, "batched 3-D") if batched else (2, "unbatched 2-D")
            if hx.dim() != want:
                raise RuntimeError(
                    f"For {kind} input, hx should also be {want}-D but got "
                    f"{hx.dim()}-D tensor"
                )
            hx = hx if batched else hx.unsqueeze(1)
        self._check_input(input)
        self._check_hidden(hx, self._expected_hidden(input, self.hidden_size))
        output, finals = self._sequence(cell, input, list(hx.unbind(0)))
        h_n = stack(finals, 0)
        if not batched:
            return output.squeeze(batch_dim), h_n.squeeze(1)
        return output, h_n

    def _sequence(
        self, cell: Callable, input: Tensor, hiddens: list
    ) -> tuple[Tensor, list]:
        # PyTorch's ``_rnn_impl``: time-major inside, batch_first at the edges
        if self.batch_first:
            input = input.transpose(0, 1)
        output, finals = _run_layers(
            cell,
            input,
            hiddens,
            self._weights(),
            self.num_layers,
            self.dropout,
            self.training,
            2 if self.bidirectional else 1,
        )
        if self.batch_first:  # PyTorch turns RNN's and GRU's output in place
            output = (
                output.transpose(0, 1)
                if self.mode == "LSTM"
                else output.transpose_(0, 1)
            )
        return output, finals

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh) (or relu).
    Returns ``(output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError(
                "proj_size argument is only supported for LSTM, not RNN or GRU"
            )
        args = list(args)
        nonlinearity = (
            args.pop(3) if len(args) > 3 else kwargs.pop("nonlinearity", "tanh")
        )
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        self.nonlinearity = nonlinearity
        super().__init__(f"RNN_{nonlinearity.upper()}", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple:
        return self._one_state(_rnn_cell(self.mode == "RNN_RELU"), input, hx)


class GRU(RNNBase):
    """Gated recurrent unit; returns ``(output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError(
                "proj_size argument is only supported for LSTM, not RNN or GRU"
            )
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple:
        return self._one_state(_gru_cell, input, hx)


class LSTM(RNNBase):
    """Long short-term memory; returns ``(output, (h_n, c_n))``. With
    ``proj_size`` each step's h is projected by ``weight_hr``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        batched = self._batched(input, "LSTM")
        input = input if batched else input.unsqueeze(0 if self.batch_first else 1)
        h_size = self.proj_size or self.hidden_size
        if hx is None:
            h0 = creation.zeros(self._expected_hidden(input, h_size), dtype=input.dtype)
            c0 = creation.zeros(
                self._expected_hidden(input, self.hidden_size), dtype=input.dtype
            )
        else:
            h0, c0 = hx
            want = 3 if batched else 2
            if h0.dim() != want or c0.dim() != want:
                kind = "batched 3-D" if batched else "unbatched 2-D"
                raise RuntimeError(
                    f"For {kind} input, hx and cx should also be {want}-D but got "
                    f"({h0.dim()}-D, {c0.dim()}-D) tensors"
                )
            if not batched:
                h0, c0 = h0.unsqueeze(1), c0.unsqueeze(1)
        self._check_input(input)
        self._check_hidden(h0, self._expected_hidden(input, h_size), "hidden[0]")
        self._check_hidden(
            c0, self._expected_hidden(input, self.hidden_size), "hidden[1]"
        )
        hiddens = list(zip(h0.unbind(0), c0.unbind(0)))
        output, finals = self._sequence(_lstm_cell, input, hiddens)
        h_n = stack([h for h, _ in finals], 0)
        c_n = stack([c for _, c in finals], 0)
        if not batched:
            output = output.squeeze(0 if self.batch_first else 1)
            h_n, c_n = h_n.squeeze(1), c_n.squeeze(1)
        return output, (h_n, c_n)


# ---------------------------------------------------------------------- cells
class RNNCellBase(Module):
    """Shared by the cells: ``weight_ih``, ``weight_hh``, ``bias_ih``, ``bias_hh``."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool,
        num_chunks: int,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__()
        self.input_size, self.hidden_size, self.bias = input_size, hidden_size, bias
        gates = num_chunks * hidden_size
        self.weight_ih = Parameter(creation.empty((gates, input_size), dtype=dtype))
        self.weight_hh = Parameter(creation.empty((gates, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(creation.empty(gates, dtype=dtype))
            self.bias_hh = Parameter(creation.empty(gates, dtype=dtype))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        _reset_uniform(self)

    def _weights(self) -> _Weights:
        return _Weights(self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh)

    def _prepare(self, input: Tensor, hx: Any, n_hidden: int) -> tuple:
        """Batch an unbatched input and states; zeros for missing states; check
        the sizes as PyTorch's cell functions do."""
        name = type(self).__name__
        if input.dim() not in (1, 2):
            raise ValueError(
                f"{name}: Expected input to be 1D or 2D, got {input.dim()}D instead"
            )
        states = [] if hx is None else [hx] if n_hidden == 1 else list(hx)
        for i, s in enumerate(states):
            if s.dim() not in (1, 2):
                what = "hidden" if n_hidden == 1 else f"hx[{i}]"
                raise ValueError(
                    f"{name}: Expected {what} to be 1D or 2D, got {s.dim()}D instead"
                )
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
            states = [s.unsqueeze(0) for s in states]
        if not states:
            zeros = creation.zeros(input.size(0), self.hidden_size, dtype=input.dtype)
            states = [zeros] * n_hidden
        if input.size(1) != self.input_size:
            raise RuntimeError(
                f"input has inconsistent input_size: got {input.size(1)} expected "
                f"{self.input_size}"
            )
        for i, s in enumerate(states):
            if input.size(0) != s.size(0):
                raise RuntimeError(
                    f"Input batch size {input.size(0)} doesn't match hidden{i} batch "
                    f"size {s.size(0)}"
                )
            if s.size(1) != self.hidden_size:
                raise RuntimeError(
                    f"hidden{i} has inconsistent hidden_size: got {s.size(1)}, "
                    f"expected {self.hidden_size}"
                )
        return input, states, batched

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += f", nonlinearity={self.nonlinearity}"
        return s


class RNNCell(RNNCellBase):
    """One Elman step: h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu)."""

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, 1, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        input, (h,), batched = self._prepare(input, hx, 1)
        out = _rnn_cell(self.nonlinearity == "relu")(input, h, self._weights(), False)
        return out if batched else out.squeeze(0)


class _GatedCell(RNNCellBase):
    """LSTMCell's and GRUCell's constructor: ``gates`` blocks in each weight."""

    gates: int

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        device: Any = None,
        dtype: Any = None,
    ) -> None:
        super().__init__(input_size, hidden_size, bias, self.gates, dtype=dtype)


class LSTMCell(_GatedCell):
    """One LSTM step; returns ``(h', c')``."""

    gates = 4

    def forward(self, input: Tensor, hx: tuple | None = None) -> tuple:
        input, (h, c), batched = self._prepare(input, hx, 2)
        h, c = _lstm_cell(input, (h, c), self._weights(), False)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(_GatedCell):
    """One GRU step."""

    gates = 3

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        input, (h,), batched = self._prepare(input, hx, 1)
        out = _gru_cell(input, h, self._weights(), False)
        return out if batched else out.squeeze(0)


# -------------------------------------------------------------------- helpers
def _reset_uniform(m: Module) -> None:
    """Every parameter from U(-1/√hidden_size, 1/√hidden_size), in order."""
    bound = 1.0 / math.sqrt(m.hidden_size) if m.hidden_size > 0 else 0
    for p in m.parameters():
        init.uniform_(p, -bound, bound)


def _check_sizes(
    input_size: Any, hidden_size: Any, bias: Any, batch_first: Any, dropout: Any
) -> None:
    if (
        not isinstance(dropout, (int, float))
        or isinstance(dropout, bool)
        or not 0 <= dropout <= 1
    ):
        raise ValueError(
            "dropout should be a number in range [0, 1] representing the "
            "probability of an element being zeroed"
        )
    for name, value in (("bias", bias), ("batch_first", batch_first)):
        if not isinstance(value, bool):
            raise TypeError(
                f"{name} should be of type bool, got: {type(value).__name__}"
            )
    for name, value in (("input_size", input_size), ("hidden_size", hidden_size)):
        if not isinstance(value, int):
            raise TypeError(
                f"{name} should be of type int, got: {type(value).__name__}"
            )
        if value <= 0:
            raise ValueError(f"{name} must be greater than zero")
