"""The graphs the screen tests step: the seed graph, a 3-layer MLP with
cross-entropy and a 6-step recurrent loop, as code a lesson would write (the
same source runs in the kernel of the JupyterLab test).

`RUNNING_IN_VIEW` is the check made at every step: the ``.mg-running`` node is
fully inside the graph's viewport and the window, and its label text is at
least 9 px high. `WHOLE_KEPT`: a graph the view shows whole stays whole while
stepping (a floating panel takes the side the running node is not on; the
view once panned the graph from under it and cut its other edge), and the
panel covers neither the running node nor the node the view follows.
"""

from __future__ import annotations

from typing import Any

SEED = """
inp = torch.ones(2, 2)
w1 = torch.tensor(2.0, requires_grad=True)
w2 = torch.tensor(3.0, requires_grad=True)
w3 = torch.tensor(4.0, requires_grad=True)
l1 = inp * w1
l2 = l1 + w2
l3 = l1 * w3
l4 = l2 * l3
loss = l4.mean()
params = dict(w1=w1, w2=w2, w3=w3, l1=l1, l2=l2, l3=l3, l4=l4)
"""

MLP = """
torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Linear(4, 8), torch.nn.ReLU(),
    torch.nn.Linear(8, 8), torch.nn.ReLU(),
    torch.nn.Linear(8, 3),
)
x = torch.randn(5, 4)
target = torch.tensor([0, 2, 1, 0, 1])
loss = torch.nn.functional.cross_entropy(model(x), target)
params = dict(model.named_parameters())
"""

RNN = """
torch.manual_seed(0)
W = torch.randn(3, 3, requires_grad=True)
U = torch.randn(3, 2, requires_grad=True)
h = torch.zeros(3)
for t in range(6):
    h = torch.tanh(W @ h + U @ torch.randn(2))
loss = h.sum()
params = dict(W=W, U=U)
"""

GRAPHS = {"seed": SEED, "mlp": MLP, "rnn": RNN}

# A loop long enough to fold (test_player_fold.py): 3 weights shared by 30 steps.
LOOP = """
torch.manual_seed(0)
W = torch.randn(3, 3, requires_grad=True)
U = torch.randn(3, 2, requires_grad=True)
b = torch.zeros(3, requires_grad=True)
h = torch.zeros(3)
for t in range(30):
    h = torch.tanh(W @ h + U @ torch.randn(2) + b)
loss = h.sum()
params = dict(W=W, U=U, b=b)
"""


def build(name: str) -> tuple[Any, dict]:
    """(loss, params) of one of the graphs (or "loop"), with minigrad."""
    import minigrad

    scope: dict[str, Any] = {"torch": minigrad}
    exec(LOOP if name == "loop" else GRAPHS[name], scope)
    return scope["loss"], scope["params"]


# Evaluated in the page on a `.mg-stepper` root: true when the running node is
# fully visible and legible (no animation still moving it).
RUNNING_IN_VIEW = """(root) => {
  const node = root.querySelector('.mg-graph .mg-running');
  if (!node || root.dataset.moving) return false;
  const r = node.getBoundingClientRect();
  const v = root.querySelector('.mg-graph').getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left && a.top >= b.top &&
    a.right <= b.right && a.bottom <= b.bottom;
  const win = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  const text = node.querySelector('text');
  const h = text ? text.getBoundingClientRect().height : 0;
  return inside(r, v) && inside(r, win) && h >= 9;
}"""

# Why the check failed, for the assertion message.
RUNNING_REPORT = """(root) => {
  const node = root.querySelector('.mg-graph .mg-running');
  if (!node) return 'no running node';
  const r = node.getBoundingClientRect();
  const v = root.querySelector('.mg-graph').getBoundingClientRect();
  const t = node.querySelector('text').getBoundingClientRect();
  return JSON.stringify({node: [r.left, r.top, r.right, r.bottom],
    view: [v.left, v.top, v.right, v.bottom], text: t.height,
    window: [innerWidth, innerHeight], zoom: root.dataset.zoom});
}"""

# A graph shown whole (data-whole) in a view wholly on screen is inside the
# view at this step, and the details panel, shown, does not overlap the
# running node: null when so, else what was seen.
WHOLE_KEPT = """(root) => {
  const view = root.querySelector('.mg-graph');
  const v = view.getBoundingClientRect();
  const s = view.querySelector('svg').getBoundingClientRect();
  const p = root.querySelector('.mg-panel').getBoundingClientRect();
  const n = root.querySelector('.mg-graph .mg-running').getBoundingClientRect();
  // (a view partly below the window or the notebook's visible part pans to
  // show the running node: only a view wholly on screen must keep it whole)
  const pane = root.closest('.jp-WindowedPanel-outer');
  const seen = pane ? pane.getBoundingClientRect() : {top: 0, bottom: innerHeight};
  const onScreen = v.top >= Math.max(0, seen.top) - 1 &&
    v.bottom <= Math.min(innerHeight, seen.bottom) + 1;
  const cut = onScreen && root.dataset.whole === '1' && (s.left < v.left - 1 ||
    s.top < v.top - 1 || s.right > v.right + 1 || s.bottom > v.bottom + 1);
  const covered = p.width > 0 && p.height > 0 && !(n.right <= p.left ||
    n.left >= p.right || n.bottom <= p.top || n.top >= p.bottom);
  if (!cut && !covered) return null;
  return JSON.stringify({cut, covered, svg: [s.left, s.top, s.right, s.bottom],
    view: [v.left, v.top, v.right, v.bottom], panel: [p.left, p.top, p.right, p.bottom],
    node: [n.left, n.top, n.right, n.bottom], place: root.dataset.place,
    side: root.dataset.panelSide});
}"""

# The boxes' "⊕ open" tags that are not beside their box (gap in px): a
# drawing measured before JupyterLab rendered its output (Run All) put them
# all at the drawing's corner.
BOX_TAGS_ASTRAY = """(root) => [...root.querySelectorAll('.mg-overlay [data-box]')]
.map((tag) => {
  const id = tag.getAttribute('data-box');
  const box = root.querySelector(`.mg-graph g[id$="${CSS.escape(id)}"]`);
  if (!box) return [id, 'no box'];
  const a = tag.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  return [id, Math.max(0, a.left - b.right, b.left - a.right, a.top - b.bottom,
    b.top - a.bottom)];
}).filter(([, gap]) => gap === 'no box' || gap > 20)"""
