// The graph view: the SVG is set once; each step only changes `highlight`,
// and this toggles CSS classes on the nodes and edges it names.
const ROLES = ["running", "ready", "done", "flow", "written", "error", "selected"];
const KEYS = {
  ArrowRight: "next", ArrowLeft: "prev", Home: "reset", End: "end", " ": "play",
};

function render({ model, el }) {
  el.classList.add("mg-graph");
  el.tabIndex = 0; // focusable, so the arrow keys reach it
  const box = document.createElement("div");
  box.className = "mg-svg";
  el.appendChild(box);

  const byId = (id) => box.querySelector(`[id="${model.get("prefix") + id}"]`);

  function paint() {
    const h = model.get("highlight") || {};
    const marks = { ...h, selected: model.get("selected") ? [model.get("selected")] : [] };
    for (const role of ROLES) {
      box.querySelectorAll(".mg-" + role).forEach((e) => e.classList.remove("mg-" + role));
      for (const id of marks[role] || []) {
        const e = byId(id);
        if (e) e.classList.add("mg-" + role);
      }
    }
    el.dataset.step = String(model.get("step"));
  }
  function draw() {
    box.innerHTML = model.get("svg");
    paint();
  }

  box.addEventListener("click", (ev) => {
    const g = ev.target.closest("g.node");
    const prefix = model.get("prefix");
    if (g && g.id.startsWith(prefix)) {
      model.set("selected", g.id.slice(prefix.length));
      model.save_changes();
    }
  });
  el.addEventListener("keydown", (ev) => {
    const command = KEYS[ev.key];
    if (command) {
      model.send({ command });
      ev.preventDefault();
    }
  });
  model.on("change:svg", draw);
  model.on("change:highlight", paint);
  model.on("change:selected", paint);
  model.on("change:step", paint);
  draw();
}

export default { render };
