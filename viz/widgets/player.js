// The HTML player's own code (viz/player.py inlines it after graph_view.js):
// the in-page model the stepper's screen reads, the controls and the keys.
const DATA = JSON.parse(document.getElementById("mg-data").textContent);
const root = document.querySelector(".mg-player");
const slider = root.querySelector(".mg-slider");
const status = root.querySelector(".mg-status");
const playButton = root.querySelector(".mg-play");
const speed = root.querySelector(".mg-speed");
const last = DATA.frames.length - 1;
// the drawings by box state ("": as saved; else the sorted opened boxes)
const svgs = {};
for (const t of document.querySelectorAll("template.mg-drawing")) {
  (svgs[t.dataset.state || ""] = svgs[t.dataset.state || ""] || {})[t.dataset.view] = t.innerHTML;
}
let step = 0;
let timer = null;
let shown = ""; // the box state on display
const frames = () => (shown ? DATA.states[shown].frames : DATA.frames);
const boxesOf = (view) => (shown ? DATA.states[shown].boxes : DATA.boxes || {})[view] || {};

// What anywidget's model offers the screen: get / set / on / save_changes / send.
// (each view's drawing, and under "<view> wide" the same laid out left to
// right where the page has it: the screen picks the one that fits)
const wideOf = (view) => svgs[shown][`${view} wide`] || "";
const state = { svg: svgs[""].backward, wide_svg: wideOf("backward"), boxes: boxesOf("backward"),
  prefix: DATA.prefix, view: "backward",
  leaf_of: DATA.leaf_of, theme: DATA.theme, highlight: {}, overlay: {},
  panel: DATA.frames[0].panel, selected: "", step: 0 };
const handlers = {};
const model = {
  get: (key) => state[key],
  set(key, value) {
    if (state[key] === value) return;
    state[key] = value;
    (handlers["change:" + key] || []).forEach((f) => f());
  },
  on: (event, f) => (handlers[event] = handlers[event] || []).push(f),
  save_changes: () => {},
  send: (msg) => (commands[msg.command] || (() => {}))(msg),
};

// Fold frames 1..k into the state after step k: what ran is done, unless the
// frame lists what is ("done"). A folded block moving on to its next repeat
// drops what it built up ("drop").
function folded(k) {
  let done = [];
  const grads = {};
  let freed = [];
  for (let j = 1; j <= k; j++) {
    const f = frames()[j];
    if (f.drop) {
      const gone = new Set(f.drop);
      done = done.filter((id) => !gone.has(id));
      freed = freed.filter((id) => !gone.has(id));
      for (const id of f.drop) delete grads[id];
    }
    // (a module box is done only once every node inside ran: "done" says so)
    done.push(...(f.done || [f.highlight.running[0]]));
    Object.assign(grads, f.grads);
    freed.push(...f.freed);
  }
  return { done, grads, freed };
}

function panelFor(id, k, fold) {
  for (let j = k; j >= 1; j--) {
    if (frames()[j].highlight.running[0] === id) return DATA.frames[j].panel;
  }
  const node = DATA.nodes[id];
  if (node) {
    const waiting = frames()[k].waiting?.[id];
    return waiting ? { ...node, rows: [...node.rows, ["gradients", waiting]] } : node;
  }
  const t = DATA.tensors[id];
  if (!t) return { title: id, rows: [] };
  const rows = t.rows.map(([key, value]) => {
    if (key === ".grad now") return [key, fold.grads[DATA.tensor_of[id] || id] || "None"];
    if (key === "slot" && fold.freed.includes(id)) return [key, value.replace(/saved$/, "freed")];
    return [key, value];
  });
  return { ...t, rows };
}

function show(k) {
  step = Math.max(0, Math.min(last, k));
  const frame = frames()[step];
  const fold = folded(step);
  model.set("highlight", step ? { ...frame.highlight, done: fold.done } : {});
  model.set("overlay", step ? { edges: frame.edges, grads: fold.grads, freed: fold.freed,
    waiting: frame.waiting, queue: frame.queue, folds: frame.folds } : {});
  const sel = model.get("selected");
  model.set("panel", sel ? panelFor(sel, step, fold) : DATA.frames[step].panel);
  model.set("step", step);
  slider.value = String(step);
  status.textContent = `step ${step} of ${last}`;
  if (step === last) pause();
}

function pause() {
  clearInterval(timer);
  timer = null;
  playButton.textContent = "\u25B6 Play";
}
function play() {
  if (timer) return pause();
  if (step === last) show(0);
  playButton.textContent = "\u275A\u275A Pause";
  timer = setInterval(() => show(step + 1), Number(speed.value));
}
// A click on a box shows the page's drawing with that box opened (or closed),
// the others staying as they are: the drawings of the sets of boxes a reader
// reaches in the fewest clicks were laid out when the page was saved.
const boxNote = document.createElement("span");
boxNote.className = "mg-box-note";
root.querySelector(".mg-controls").appendChild(boxNote);
function toggleBox({ id }) {
  const to = ((DATA.states || {})[shown]?.moves || {})[id];
  if (to === undefined) {
    boxNote.textContent = "this page holds fewer opened boxes at once: close one " +
      "first (the notebook opens any)";
    return;
  }
  boxNote.textContent = "";
  shown = to;
  model.set("selected", "");
  model.set("boxes", boxesOf(state.view));
  model.set("wide_svg", wideOf(state.view));
  model.set("svg", svgs[shown][state.view]);
  show(step);
}
const commands = {
  next: () => show(step + 1), prev: () => show(step - 1),
  reset: () => show(0), end: () => show(last), play,
  expand: toggleBox, collapse: toggleBox,
};
for (const [cls, name] of [["mg-reset", "reset"], ["mg-prev", "prev"],
  ["mg-next", "next"], ["mg-end", "end"], ["mg-play", "play"]]) {
  root.querySelector("." + cls).addEventListener("click", commands[name]);
}
speed.addEventListener("change", () => { if (timer) { pause(); play(); } });
for (const input of root.querySelectorAll(".mg-viewtoggle input")) {
  input.addEventListener("change", () => {
    state.view = input.value;
    model.set("boxes", boxesOf(input.value));
    model.set("wide_svg", wideOf(input.value));
    model.set("svg", svgs[shown][input.value]);
    show(step);
  });
}
slider.max = String(last);
slider.addEventListener("input", () => show(Number(slider.value)));
model.on("change:selected", () => {
  const sel = model.get("selected");
  model.set("panel", sel ? panelFor(sel, step, folded(step)) : DATA.frames[step].panel);
});
mount(model, root);
// Keys pressed with nothing in the player focused (a clicker) reach it too.
document.addEventListener("keydown", (ev) => {
  if (root.contains(ev.target)) return;
  const copy = new KeyboardEvent("keydown", { key: ev.key, cancelable: true });
  root.dispatchEvent(copy);
  if (copy.defaultPrevented) ev.preventDefault();
});
show(0);
root.querySelector(".mg-graph").focus({ preventScroll: true });
