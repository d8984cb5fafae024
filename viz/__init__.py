"""Draw autograd graphs (minigrad's or PyTorch's) for notebooks and slides.

    import viz
    viz.backward_graph(loss, params={"w": w})          # inline in Jupyter
    viz.forward_graph(loss).save("forward.pdf", size="slide")
    viz.BackwardStepper(loss, params={"w": w})         # step backward in a widget

viz reads graphs only through PyTorch's public autograd surface, so the same
calls draw real ``torch`` tensors. It never imports torch or minigrad itself.
"""

from .drawing import SIZES, Drawing, backward_graph, forward_graph
from .graph import GraphTooLargeError, build_graph
from .render import RenderError
from .stepper import BackwardStepper, Frame

__all__ = [
    "SIZES",
    "BackwardStepper",
    "Frame",
    "Drawing",
    "GraphTooLargeError",
    "RenderError",
    "backward_graph",
    "build_graph",
    "forward_graph",
]
