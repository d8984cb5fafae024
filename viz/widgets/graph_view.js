// The stepper's screen: the SVG laid out once, a viewport that fits, zooms,
// pans and follows the running node, the pass drawn over the picture (edge
// values, leaf .grad, freed slots, "2 of 3 gradients arrived" badges), the
// ready queue and the detail panel. It reads a small `model` (get / set / on /
// save_changes / send): anywidget's in Jupyter, a plain object in the HTML
// player, so both show the same screen. Each step only restyles and overlays:
// nothing is laid out again.
const ROLES = /*ROLES*/[]; // filled in from viz/widgets/roles.py
const MIN_ZOOM = 0.7; // 10 pt node text stays >= 9 px on screen
const MAX_ZOOM = 4;
const MARGIN = 24; // px kept between the followed node and the viewport edge
// Below the graph the panel gets at least this much of the visible height
// (a step's saved tensors and grads); with less, it floats over the graph.
const PANEL_ROOM = 260;
const HINT = "drag: pan · Ctrl+wheel or pinch: zoom · click: details";
const KEYS = {
  ArrowRight: "next", PageDown: "next", ArrowLeft: "prev", PageUp: "prev",
  Home: "reset", End: "end", " ": "play",
};
const SVGNS = "http://www.w3.org/2000/svg";

function tag(name, cls, text) {
  const e = document.createElement(name);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function pageIsDark() {
  const light = document.body.dataset.jpThemeLight; // JupyterLab, Notebook 7
  if (light !== undefined) return light === "false";
  return document.body.classList.contains("vscode-dark");
}

export function mount(model, root) {
  root.classList.add("mg-stepper");
  // the view's buttons and the ready queue share one row (the queue clipped
  // at its end, all of it in its tooltip): the graph gets the height
  const bar = tag("div", "mg-bar");
  const toolbar = tag("div", "mg-toolbar");
  const queue = tag("div", "mg-queue");
  bar.append(toolbar, queue);
  const main = tag("div", "mg-main");
  const view = tag("div", "mg-graph");
  view.tabIndex = 0; // focusable, so the keys reach it
  view.title = HINT;
  const box = tag("div", "mg-svg");
  const panel = tag("div", "mg-panel");
  // shown when the panel floats over the graph (arrange): it hides or shows it
  const panelToggle = tag("button", "mg-panel-toggle");
  panelToggle.type = "button";
  view.appendChild(box);
  main.append(view, panel, panelToggle);
  root.append(bar, main);

  // ------------------------------------------------------------ viewport
  // screen = content * k + (x, y), content in the SVG's CSS pixels
  const vp = { k: 1, x: 0, y: 0, w: 1, h: 1, mode: "fit", follow: true };
  let goal = { x: 0, y: 0, k: 1 }; // where the last move ends (vp is mid-way)
  let anim = null;
  const zoomText = tag("span", "mg-zoom");

  function apply() {
    box.style.transform = `translate(${vp.x}px, ${vp.y}px) scale(${vp.k})`;
    zoomText.textContent = `${Math.round(vp.k * 100)}%`;
    root.dataset.zoom = vp.k.toFixed(3);
  }
  function moveTo(x, y, k, smooth) {
    if (anim) cancelAnimationFrame(anim);
    anim = null;
    delete root.dataset.moving;
    goal = { x, y, k };
    if (!smooth) {
      Object.assign(vp, { x, y, k });
      apply();
      return;
    }
    const from = { x: vp.x, y: vp.y, k: vp.k };
    const t0 = performance.now();
    root.dataset.moving = "1";
    const frame = (now) => {
      const t = Math.min(1, (now - t0) / 250);
      const e = 1 - (1 - t) ** 3; // ease out
      vp.x = from.x + (x - from.x) * e;
      vp.y = from.y + (y - from.y) * e;
      vp.k = from.k + (k - from.k) * e;
      apply();
      if (t < 1) anim = requestAnimationFrame(frame);
      else {
        anim = null;
        delete root.dataset.moving;
      }
    };
    anim = requestAnimationFrame(frame);
  }
  function clampK(k) {
    return Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, k));
  }
  // The zoom that shows a w x h drawing whole in a w0 x h0 room, with 3% to
  // spare when that still leaves it at MIN_ZOOM or more (arrange's test).
  function wholeScale(w0, h0, w, h) {
    const s = Math.min(w0 / w, h0 / h);
    return s * 0.97 >= MIN_ZOOM ? s * 0.97 : s;
  }
  function fitScale() {
    const s = wholeScale(view.clientWidth, view.clientHeight, vp.w, vp.h);
    return clampK(Math.min(s, 1.5));
  }
  function fit(smooth) {
    vp.mode = "fit";
    const k = fitScale();
    const x = Math.max(0, (view.clientWidth - vp.w * k) / 2);
    const y = Math.max(0, (view.clientHeight - vp.h * k) / 2);
    // the fitted view, panned if the running node would be off screen in it
    const [fx, fy] = (vp.follow && followed({ x, y, k })) || [x, y];
    moveTo(fx, fy, k, smooth);
  }
  function zoomAt(k, cx, cy, smooth) {
    k = clampK(k);
    vp.mode = "zoom";
    const px = (cx - vp.x) / vp.k;
    const py = (cy - vp.y) / vp.k;
    moveTo(cx - px * k, cy - py * k, k, smooth);
  }
  function center() {
    return [view.clientWidth / 2, view.clientHeight / 2];
  }
  // The elements' box in content pixels (measured now; `vp` is current).
  function contentRect(elements) {
    const b = box.getBoundingClientRect();
    let r = null;
    for (const e of elements) {
      const q = e.getBoundingClientRect();
      if (!q.width && !q.height) continue;
      const c = {
        l: (q.left - b.left) / vp.k, t: (q.top - b.top) / vp.k,
        r: (q.right - b.left) / vp.k, b: (q.bottom - b.top) / vp.k,
      };
      r = r ? { l: Math.min(r.l, c.l), t: Math.min(r.t, c.t),
        r: Math.max(r.r, c.r), b: Math.max(r.b, c.b) } : c;
    }
    return r;
  }
  // The part of the viewport on screen, in viewport pixels: clipped by the
  // window and by every ancestor that scrolls or clips (a notebook scrolls
  // inside its panel, under JupyterLab's bars). The whole viewport when none
  // of it shows, so a widget scrolled away still pans sensibly.
  function visible() {
    const v = view.getBoundingClientRect();
    let l = Math.max(v.left, 0);
    let t = Math.max(v.top, 0);
    let r = Math.min(v.right, innerWidth);
    let b = Math.min(v.bottom, innerHeight);
    for (let e = view.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (!/auto|scroll|hidden|clip/.test(s.overflowX + s.overflowY)) continue;
      const q = e.getBoundingClientRect();
      l = Math.max(l, q.left);
      t = Math.max(t, q.top);
      r = Math.min(r, q.right);
      b = Math.min(b, q.bottom);
    }
    // into viewport pixels; the border is outside the content box
    const x = v.left + view.clientLeft;
    const y = v.top + view.clientTop;
    // a panel floating over the graph hides the strip it covers, on the
    // right or (`placePanel`) the left
    const p = panelOpen() && main.classList.contains("mg-over")
      ? panel.getBoundingClientRect() : null;
    const onLeft = main.classList.contains("mg-panel-left");
    const coverL = p && onLeft ? p.right - x : 0;
    const coverR = p && !onLeft ? p.left - x : Infinity;
    if (r - l < 40 || b - t < 40) {
      return { l: coverL, t: 0, r: Math.min(view.clientWidth, coverR), b: view.clientHeight };
    }
    return {
      l: Math.max(0, l - x, coverL), t: Math.max(0, t - y),
      r: Math.min(view.clientWidth, r - x, coverR), b: Math.min(view.clientHeight, b - y),
    };
  }
  // The margin kept around followed elements of height `h`: smaller when the
  // visible part is short, so the node still fits.
  function margin(seen, w, h) {
    return Math.max(0, Math.min(MARGIN, (seen.r - seen.l - w) / 2, (seen.b - seen.t - h) / 2));
  }
  function fits(r, k, seen) {
    return (r.r - r.l) * k <= seen.r - seen.l - 2 * MARGIN &&
      (r.b - r.t) * k <= seen.b - seen.t - 2 * MARGIN;
  }
  // A panel floating over the graph sits on the side the running (or the
  // clicked) node is not on at `at`, with the edges it just sent along when
  // that side leaves them clear too, so the graph need not pan from under it
  // (panned, a whole graph was cut at the other edge): it changes sides only
  // when what it covers would be clear on the other side.
  function placePanel(at) {
    if (!main.classList.contains("mg-over") || !panelOpen()) return;
    const nodes = [...box.querySelectorAll(".mg-running, .mg-selected")];
    const flow = [...box.querySelectorAll(".mg-flow, .mg-edge-value")];
    const v = view.getBoundingClientRect();
    const p = panel.getBoundingClientRect();
    const w = p.width + MARGIN;
    const h = p.bottom - v.top - view.clientTop + MARGIN;
    const onLeft = main.classList.contains("mg-panel-left");
    for (const r of [contentRect([...nodes, ...flow]), contentRect(nodes)]) {
      if (!r) return;
      const s = { l: r.l * at.k + at.x, t: r.t * at.k + at.y, r: r.r * at.k + at.x };
      const under = (l, rr) => s.l < rr && s.r > l && s.t < h;
      const here = onLeft ? under(0, w) : under(view.clientWidth - w, view.clientWidth);
      const there = onLeft ? under(view.clientWidth - w, view.clientWidth) : under(0, w);
      if (!here) break;
      if (!there) {
        main.classList.toggle("mg-panel-left", !onLeft);
        showPanel();
        break;
      }
    }
    root.dataset.panelSide = main.classList.contains("mg-panel-left") ? "left" : "right";
  }
  // The whole drawing is inside the viewport at `at`.
  function wholeAt(at) {
    return at.x >= -1 && at.y >= -1 && at.x + vp.w * at.k <= view.clientWidth + 1 &&
      at.y + vp.h * at.k <= view.clientHeight + 1;
  }
  // Where to pan from `at` so the running node, and the edges it just sent
  // along when they fit too, are inside the visible part of the viewport;
  // null when they already are (or nothing runs). A drawing shown whole pans
  // only for the running node itself: for its edges it would be cut.
  function followed(at) {
    placePanel(at);
    const running = [...box.querySelectorAll(".mg-running")];
    if (!running.length) return null;
    const flow = wholeAt(at) ? [] : [...box.querySelectorAll(".mg-flow, .mg-edge-value")];
    const seen = visible();
    const { k } = at;
    let r = contentRect([...running, ...flow]);
    if (!r || !fits(r, k, seen)) r = contentRect(running);
    if (!r) return null;
    const s = { l: r.l * k + at.x, t: r.t * k + at.y, r: r.r * k + at.x, b: r.b * k + at.y };
    // (a whole drawing near the view's edge is in view: no margin kept)
    const m = wholeAt(at) ? 0 : margin(seen, s.r - s.l, s.b - s.t);
    const outX = s.l < seen.l + m || s.r > seen.r - m;
    const outY = s.t < seen.t + m || s.b > seen.b - m;
    if (!outX && !outY) return null;
    return [
      outX ? (seen.l + seen.r) / 2 - ((r.l + r.r) / 2) * k : at.x,
      outY ? (seen.t + seen.b) / 2 - ((r.t + r.b) / 2) * k : at.y,
    ];
  }
  // Pan (smoothly) to keep the running node on screen; nothing moves if it is.
  function follow(smooth) {
    if (!vp.follow) return;
    const to = followed(goal);
    if (to) moveTo(to[0], to[1], goal.k, smooth);
  }

  function button(label, title, cls, act) {
    const b = tag("button", cls, label);
    b.title = title;
    b.type = "button";
    b.addEventListener("click", act);
    return b;
  }
  const followBox = tag("input");
  followBox.type = "checkbox";
  followBox.checked = true;
  followBox.addEventListener("change", () => {
    vp.follow = followBox.checked;
    follow(true);
  });
  const followLabel = tag("label", "mg-follow");
  followLabel.append(followBox, " follow the running node");
  toolbar.append(
    button("Fit", "fit the graph to the view (F)", "mg-fit", () => fit(true)),
    button("100%", "natural size (1)", "mg-actual", () => {
      zoomAt(1, ...center(), true);
      setTimeout(() => follow(true), 260);
    }),
    button("−", "zoom out (-)", "mg-zoom-out", () => zoomAt(vp.k / 1.25, ...center(), true)),
    button("+", "zoom in (+)", "mg-zoom-in", () => zoomAt(vp.k * 1.25, ...center(), true)),
    zoomText, followLabel,
  );
  const hint = tag("span", "mg-hint", "?");
  hint.title = HINT;
  toolbar.appendChild(hint);
  const openedRow = tag("div", "mg-opened"); // the boxes opened, each closes again
  root.insertBefore(openedRow, main);

  // ------------------------------------------------------------- drawing
  const byId = (id) => box.querySelector(`[id="${CSS.escape(model.get("prefix") + id)}"]`);
  let overlay = null;
  let geometry = new Map(); // id -> bounding box / edge midpoint (see nodeBox)

  // ------------------------------------------------------------ arrangement
  // The screen has room of one shape and the graph another: the view shows
  // the drawing as laid out (top to bottom) or, when the kernel offers them,
  // the same drawing left to right ("wide_svg") or with its leaves placed the
  // other way ("other_svg"), and grows taller up to what a reader sees of the
  // page under the controls. The panel goes beside the graph, below it when
  // both still fit the visible height (the panel with PANEL_ROOM px at
  // least), or else floats over the graph (hidden before the first step,
  // shown while a node runs or is selected, on the side away from that node;
  // its button hides or shows it, and the view follows the running node in
  // the part it leaves uncovered). The first of these that shows the whole
  // graph at MIN_ZOOM or more wins, in this order: beside (as laid out, left
  // to right, leaves the other way), below (the same), over (the same). If
  // none does, the drawing as laid out, beside if its width fits there at
  // MIN_ZOOM, else under the floating panel: the view then pans along the pass.
  let shown = -1; // which layout is in the view (an index of LAYOUTS)
  let roomWidth = -1; // the width the arrangement was made for
  let panelChoice = null; // the reader's show / hide of a floating panel

  function panelOpen() {
    if (panelChoice !== null) return panelChoice;
    return Boolean(model.get("step") || model.get("selected"));
  }
  function showPanel() {
    const over = main.classList.contains("mg-over");
    const open = panelOpen();
    main.classList.toggle("mg-panel-hidden", over && !open);
    // (the arrow points the way the panel goes: out at its side, or back in)
    const left = main.classList.contains("mg-panel-left");
    panelToggle.textContent = open === left ? "◂ details" : "details ▸";
    panelToggle.title = open ? "hide the details (the graph under them shows)"
      : "show the running or clicked node's details over the graph";
  }
  panelToggle.addEventListener("click", () => {
    panelChoice = !panelOpen();
    showPanel();
    // hidden, the fitted view may show the whole graph again (the follow had
    // panned the running node clear of the panel)
    if (vp.mode === "fit") fit(true);
    else follow(true);
  });
  panelToggle.addEventListener("pointerdown", (ev) => ev.stopPropagation());

  // natural size in CSS px (Graphviz writes pt), read from the SVG's own tag
  function naturalSize(text) {
    // (written so this file holds no svg tag: the player test counts them)
    const head = /<(svg)\b[^>]*>/.exec(text || "");
    if (!head) return null;
    const px = (name) => {
      const m = new RegExp(`\\s${name}="([\\d.]+)(pt|px)?"`).exec(head[0]);
      return m ? parseFloat(m[1]) * (m[2] === "pt" ? 4 / 3 : 1) : 0;
    };
    const w = px("width");
    const h = px("height");
    return w && h ? { w, h } : null;
  }
  // the drawing as laid out, left to right, with its leaves placed the other
  // way (the last two when the kernel offers them)
  const LAYOUTS = ["svg", "wide_svg", "other_svg"];
  function layouts() {
    return LAYOUTS.map((name) => naturalSize(model.get(name)));
  }
  // What a reader sees of the page (the panel that scrolls it: a notebook's)
  // below the widget's controls above the view.
  function room(base) {
    let seen = innerHeight;
    const block = root.closest(".jp-OutputArea-output") || root;
    for (let e = block.parentElement; e && e !== document.body; e = e.parentElement) {
      // (an output area says overflow: auto but never scrolls)
      const scrolls = e.scrollHeight > e.clientHeight + 1;
      if (scrolls && /auto|scroll/.test(getComputedStyle(e).overflowY)) {
        seen = Math.min(seen, e.clientHeight);
        break;
      }
    }
    const above = view.getBoundingClientRect().top - block.getBoundingClientRect().top;
    return Math.max(base, seen - above - 4);
  }
  const PLACES = ["beside", "below", "over"];
  function place(where) {
    main.classList.toggle("mg-stacked", where !== "beside");
    main.classList.toggle("mg-over", where === "over");
  }
  function arrange() {
    const sizes = layouts();
    if (!main.clientWidth || !sizes[0]) return 0;
    view.style.height = "";
    panel.style.maxHeight = "";
    place("beside");
    const base = view.clientHeight; // the stylesheet's height
    const high = room(base);
    const width = {};
    for (const where of PLACES) { // (the panel may wrap below anyway)
      place(where);
      width[where] = view.clientWidth;
    }
    const wrapped = width.beside === width.below; // no room beside at all
    const options = [];
    for (const where of PLACES) {
      if (where === "beside" && wrapped) continue;
      sizes.forEach((size, layout) => {
        if (!size) return;
        const w = width[where];
        const h = where === "below" ? high - PANEL_ROOM : high;
        const s = wholeScale(w, h, size.w, size.h);
        options.push({ layout, where, s, h, whole: s >= MIN_ZOOM, size,
          across: size.w * MIN_ZOOM <= w });
      });
    }
    const best = options.find((o) => o.whole) ||
      options.find((o) => o.layout === 0 && o.where === "beside" && o.across) ||
      options.find((o) => o.layout === 0 && o.where === "over");
    root.dataset.whole = best.whole ? "1" : "";
    root.dataset.place = best.where;
    place(best.where);
    // taller than the stylesheet only when the graph needs it; below, the
    // panel keeps the rest of the visible height
    const needed = best.size.h * clampK(Math.min(best.s, 1.5));
    if (best.where === "below") {
      const h = Math.min(best.h, Math.max(needed + 8, 200));
      view.style.height = `${h}px`;
      panel.style.maxHeight = `${Math.max(PANEL_ROOM, high - h - 8)}px`;
    } else if (needed > base) view.style.height = `${high}px`;
    showPanel();
    roomWidth = main.clientWidth;
    root.dataset.room = String(roomWidth); // (the tests wait for it)
    return best.layout;
  }

  function draw() {
    const layout = arrange();
    box.innerHTML = model.get(LAYOUTS[layout]);
    shown = layout;
    root.dataset.layout = ["as-drawn", "wide", "other"][layout];
    geometry = new Map();
    const svg = box.querySelector("svg");
    if (!svg) return;
    const size = naturalSize(box.innerHTML) || {
      w: svg.viewBox.baseVal.width, h: svg.viewBox.baseVal.height };
    vp.w = size.w;
    vp.h = size.h;
    svg.setAttribute("width", `${vp.w}px`);
    svg.setAttribute("height", `${vp.h}px`);
    overlay = document.createElementNS(SVGNS, "g");
    overlay.setAttribute("class", "mg-overlay");
    (svg.querySelector("g.graph") || svg).appendChild(overlay);
    markBoxes();
    paint();
    if (vp.mode === "fit") fit(false);
    else follow(false);
  }

  // Module boxes and folded blocks open on a click (the kernel draws them
  // anew); an opened module's frame, or its chip above the queue, closes it.
  function boxMap() {
    return model.get("boxes") || {};
  }
  function toggleBox(id) {
    const b = boxMap()[id];
    if (b) model.send({ command: b.open ? "collapse" : "expand", id });
  }
  function boxAt(drawn) {
    for (const [id, b] of Object.entries(boxMap())) {
      if (b.open ? b.cluster === drawn : id === drawn) return id;
    }
    return null;
  }
  function markBoxes() {
    for (const [id, b] of Object.entries(boxMap())) {
      const e = byId(b.open ? b.cluster : id);
      if (!e) continue;
      e.classList.add(b.open ? "mg-box-open" : "mg-box-closed");
      const title = e.querySelector("title") || e.appendChild(document.createElementNS(SVGNS, "title"));
      title.textContent = `${b.title}: click to ${b.open ? "close" : "open"}`;
    }
    openedRow.replaceChildren();
    const note = model.get("note");
    if (note) openedRow.appendChild(tag("span", "mg-note", note));
    const open = Object.entries(boxMap()).filter(([, b]) => b.open);
    if (open.length) openedRow.appendChild(tag("span", "mg-queue-title", "opened:"));
    for (const [id, b] of open) {
      const chip = button(`⊖ ${b.title}`, "close it again", "mg-chip mg-close-box",
        () => toggleBox(id));
      chip.dataset.box = id;
      openedRow.appendChild(chip);
    }
  }

  function paint() {
    const { h, ov } = inView(model.get("highlight") || {}, model.get("overlay") || {});
    const sel = model.get("selected");
    const marks = { ...h, freed: ov.freed || [], selected: sel ? [sel] : [] };
    for (const role of ROLES) {
      const cls = "mg-" + role;
      box.querySelectorAll("." + cls).forEach((e) => e.classList.remove(cls));
      for (const id of marks[role] || []) {
        const e = byId(id);
        if (e) e.classList.add(cls);
      }
    }
    view.dataset.step = String(model.get("step"));
    showPanel();
    drawOverlay(ov);
    drawQueue(ov.queue || []);
    drawPanel(model.get("panel") || {});
  }

  // Frames name backward nodes; the forward drawing shows an AccumulateGrad
  // as its leaf and has none of the backward edges or saved slots.
  function inView(h, ov) {
    if (model.get("view") !== "forward") return { h, ov };
    const leafOf = model.get("leaf_of") || {};
    const to = (id) => leafOf[id] || id;
    const mapped = {};
    for (const [role, ids] of Object.entries(h)) mapped[role] = ids.map(to);
    mapped.flow = [];
    const waiting = {};
    for (const [id, text] of Object.entries(ov.waiting || {})) waiting[to(id)] = text;
    return { h: mapped, ov: { ...ov, edges: {}, freed: [], waiting,
      queue: (ov.queue || []).map(([id, ...rest]) => [to(id), ...rest]) } };
  }

  // A step restyles and overlays a picture whose geometry never changes: the
  // boxes and edge midpoints are measured once per drawing, and the labels'
  // text is measured in one pass (one layout, not one per label). A drawing
  // not rendered yet (an output JupyterLab has not shown: Run All) measures
  // as empty boxes: those are not kept, and the tags are drawn again once the
  // view has a size (the boxes' "⊕ open" tags sat at the drawing's corner).
  let unmeasured = false;
  function nodeBox(id) {
    if (!geometry.has(id)) {
      const b = byId(id)?.getBBox() || null;
      if (b && !b.width && !b.height) {
        unmeasured = true;
        return b;
      }
      geometry.set(id, b);
    }
    return geometry.get(id);
  }
  function edgeMiddle(id) {
    const key = "edge:" + id;
    if (!geometry.has(key)) {
      const path = byId(id)?.querySelector("path");
      geometry.set(key, path ? path.getPointAtLength(path.getTotalLength() / 2) : null);
    }
    return geometry.get(key);
  }

  function drawOverlay(ov) {
    if (!overlay) return;
    const labels = []; // [x, y, text, class, anchor]
    for (const [id, text] of Object.entries(ov.edges || {})) {
      const p = edgeMiddle(id);
      if (p) labels.push([p.x + 4, p.y + 4, text, "mg-edge-value", "start"]);
    }
    for (const [id, text] of Object.entries(ov.grads || {})) {
      const b = nodeBox(id);
      if (!b) continue;
      // a module box's tag names its leaves, under the box (inside, it hid
      // the box's list of parameters)
      if (boxMap()[id]) labels.push([b.x + b.width / 2, b.y + b.height + 11, text, "mg-grad-tag"]);
      else labels.push([b.x + b.width / 2, b.y + b.height - 3, `.grad = ${text}`, "mg-grad-tag"]);
    }
    for (const id of ov.freed || []) {
      const b = nodeBox(id);
      // above its corner: inside, it covered the end of a wide slot name
      if (b) labels.push([b.x + b.width - 2, b.y - 3, "freed", "mg-freed-tag", "end"]);
    }
    for (const [id, text] of Object.entries(ov.waiting || {})) {
      const b = nodeBox(id);
      if (b) labels.push([b.x + b.width / 2, b.y - 3, text, "mg-badge"]);
    }
    // a folded block stands for the repeat that runs: say which, at its top
    for (const [id, text] of Object.entries(ov.folds || {})) {
      const b = nodeBox(id);
      if (b) labels.push([b.x + b.width - 6, b.y - 5, text, "mg-fold-tag", "end"]);
    }
    for (const [id, b] of Object.entries(boxMap())) {
      const r = nodeBox(b.open ? b.cluster : id);
      if (!r) continue;
      const data = { box: id };
      if (b.open) labels.push([r.x + r.width - 4, r.y + 12, "⊖ close", "mg-box-tag", "end", data]);
      else if (b.kind === "fold") {
        labels.push([r.x + 6, r.y - 5, "⊕ open all repeats", "mg-box-tag", "start", data]);
      } else labels.push([r.x + r.width, r.y - 5, "⊕ open", "mg-box-tag", "end", data]);
    }
    const texts = labels.map(([x, y, text, cls, anchor = "middle", data = {}]) => {
      const g = document.createElementNS(SVGNS, "g");
      g.setAttribute("class", cls);
      if (data.box) g.setAttribute("data-box", data.box);
      const t = document.createElementNS(SVGNS, "text");
      for (const [k, v] of Object.entries({ x, y, "text-anchor": anchor })) t.setAttribute(k, v);
      t.textContent = text;
      g.appendChild(t);
      return t;
    });
    overlay.replaceChildren(...texts.map((t) => t.parentNode));
    const boxes = texts.map((t) => t.getBBox()); // all reads, then all writes
    texts.forEach((t, i) => {
      const b = boxes[i];
      const r = document.createElementNS(SVGNS, "rect");
      for (const [k, v] of Object.entries({ x: b.x - 3, y: b.y - 1, width: b.width + 6,
        height: b.height + 2, rx: 3 })) r.setAttribute(k, v);
      t.parentNode.insertBefore(r, t);
    });
  }

  function drawQueue(items) {
    queue.replaceChildren(tag("span", "mg-queue-title", "ready queue (next first):"));
    if (!items.length) queue.appendChild(tag("span", "mg-queue-empty", "empty"));
    items.forEach(([id, seq, name], i) => {
      const chip = tag("button", "mg-chip", `${i + 1}. ${name} · seq ${seq}`);
      chip.type = "button";
      chip.dataset.node = id;
      chip.addEventListener("click", () => select(id));
      queue.appendChild(chip);
    });
  }

  function drawPanel(p) {
    panel.replaceChildren();
    if (p.step) panel.appendChild(tag("div", "mg-step", p.step));
    panel.appendChild(tag("div", "mg-title", p.title || ""));
    if (p.formula) panel.appendChild(tag("div", "mg-formula", `rule: ${p.formula}`));
    if (p.chain) panel.appendChild(tag("div", "mg-chain", p.chain));
    const table = tag("table");
    for (const [key, value] of p.rows || []) {
      const row = table.insertRow();
      row.appendChild(tag("td", "", key));
      // a value printed over rows (a matrix) keeps them; a one-line one wraps
      row.insertCell().appendChild(tag("pre", value.includes("\n") ? "mg-rows" : "", value));
    }
    panel.appendChild(table);
  }

  function select(id) {
    model.set("selected", id);
    model.save_changes();
  }

  // ------------------------------------------------------------- input
  let press = null;
  view.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    press = { x: ev.clientX, y: ev.clientY, vx: vp.x, vy: vp.y, moved: false,
      target: ev.target, id: ev.pointerId };
  });
  view.addEventListener("pointermove", (ev) => {
    if (!press || ev.pointerId !== press.id) return;
    const dx = ev.clientX - press.x;
    const dy = ev.clientY - press.y;
    if (!press.moved && Math.hypot(dx, dy) < 4) return;
    if (!press.moved) view.setPointerCapture(ev.pointerId);
    press.moved = true;
    view.classList.add("mg-dragging");
    moveTo(press.vx + dx, press.vy + dy, vp.k, false);
  });
  const release = () => {
    if (!press) return;
    const { moved, target } = press;
    press = null;
    view.classList.remove("mg-dragging");
    if (moved) return;
    const tagged = target.closest && target.closest("[data-box]");
    if (tagged) return toggleBox(tagged.getAttribute("data-box"));
    const g = target.closest && target.closest("g.node, g.cluster");
    const prefix = model.get("prefix");
    const drawn = g && g.id.startsWith(prefix) ? g.id.slice(prefix.length) : null;
    const hit = drawn && boxAt(drawn);
    if (hit) toggleBox(hit);
    else if (drawn && g.classList.contains("node")) select(drawn);
    else select(""); // a click on the background clears the selection
  };
  // The viewport clips, but a program can still scroll it (find-in-page
  // revealing a match, a focused or clicked element brought into view): that
  // scroll becomes a pan, so `vp` stays where the picture really is.
  view.addEventListener("scroll", () => {
    const dx = view.scrollLeft;
    const dy = view.scrollTop;
    if (!dx && !dy) return;
    view.scrollLeft = 0;
    view.scrollTop = 0;
    moveTo(vp.x - dx, vp.y - dy, vp.k, false);
  });
  view.addEventListener("pointerup", release);
  view.addEventListener("pointercancel", () => { press = null; });
  view.addEventListener("wheel", (ev) => {
    if (!(ev.ctrlKey || ev.metaKey)) return; // plain wheel scrolls the page
    ev.preventDefault();
    const r = view.getBoundingClientRect();
    zoomAt(vp.k * Math.exp(-ev.deltaY * 0.0025), ev.clientX - r.left, ev.clientY - r.top, false);
  }, { passive: false });
  root.tabIndex = -1;
  root.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
    const command = KEYS[ev.key];
    const zoom = { "+": 1.25, "=": 1.25, "-": 0.8 }[ev.key];
    if (command) model.send({ command });
    else if (ev.key === "Escape") select("");
    else if (zoom) zoomAt(vp.k * zoom, ...center(), true);
    else if (ev.key === "f" || ev.key === "F") fit(true);
    else if (ev.key === "1") zoomAt(1, ...center(), true);
    else return;
    ev.preventDefault();
    ev.stopPropagation(); // Jupyter must not also act on these keys
  });

  // ------------------------------------------------------------- theme
  function theme() {
    const given = model.get("theme");
    const dark = given === "dark" || ((!given || given === "auto") && pageIsDark());
    root.classList.toggle("mg-dark", dark);
    const wanted = dark ? "dark" : "light";
    if (model.get("page_theme") !== undefined && model.get("page_theme") !== wanted) {
      model.set("page_theme", wanted); // the kernel sends the SVG in that theme
      model.save_changes();
    }
  }
  const themeWatch = new MutationObserver(theme);
  themeWatch.observe(document.body, { attributes: true,
    attributeFilter: ["data-jp-theme-light", "class"] });
  theme();

  // A new width (the window, a sidebar) may call for another arrangement.
  const resized = new ResizeObserver(() => {
    if (main.clientWidth && main.clientWidth !== roomWidth && arrange() !== shown) {
      draw();
      return;
    }
    if (unmeasured && view.clientWidth) {
      unmeasured = false;
      drawOverlay(inView(model.get("highlight") || {}, model.get("overlay") || {}).ov);
    }
    if (vp.mode === "fit") fit(false);
    else follow(false);
  });
  resized.observe(view);
  resized.observe(main);

  // One step changes several traits at once: repaint once, after all of them.
  let pending = false;
  const onStep = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      const t0 = performance.now();
      paint();
      // back before the first node (Reset): the fitted view again, not the pan
      // the last step left; else keep the running node in view
      if (vp.mode === "fit" && !box.querySelector(".mg-running")) fit(true);
      else follow(true);
      // what one step costs the browser, read by the screen tests
      root.dataset.paintMs = (performance.now() - t0).toFixed(2);
    });
  };
  // both layouts change in one message: draw once, after both
  let redraw = false;
  const onSvg = () => {
    if (redraw) return;
    redraw = true;
    queueMicrotask(() => {
      redraw = false;
      draw();
    });
  };
  model.on("change:svg", onSvg);
  model.on("change:wide_svg", onSvg);
  model.on("change:other_svg", onSvg);
  model.on("change:note", markBoxes);
  model.on("change:highlight", onStep);
  model.on("change:overlay", onStep);
  model.on("change:step", onStep);
  model.on("change:selected", () => {
    paint();
    placePanel(goal); // (the clicked node stays clear of the details)
  });
  model.on("change:panel", () => drawPanel(model.get("panel") || {}));
  model.on("change:theme", theme);
  model.on("change:view", onStep);
  model.on("change:boxes", () => {
    markBoxes(); // (the row of opened boxes may move the view down the page)
    paint();
    if (vp.mode === "fit") fit(false);
    else follow(false);
  });
  draw();
  // The kernel counts open views: when the last one goes (the cell re-run or
  // cleared), the widget closes and stops holding the graph. It answers
  // "view-opened" with the whole state, so a view that could not hear yet
  // catches up.
  let opened = false;
  let gone = false;
  hear(model).finally(() => {
    if (gone) return;
    opened = true;
    model.send({ command: "view-opened" });
  });
  return () => {
    gone = true;
    resized.disconnect();
    themeWatch.disconnect();
    if (anim) cancelAnimationFrame(anim);
    if (opened) model.send({ command: "view-closed" });
  };
}

// anywidget 0.11 holds a model's messages until the model's code has loaded
// and, when that took over 2 s (a busy browser: Run All on a loaded machine),
// drops every later message to it without a word: the view would never move
// again. A view renders only once the code has loaded, so from here on the
// model's messages can go straight to ipywidgets' own handler. (Jupyter only:
// the HTML player's model has no `widget_manager`.)
async function hear(model) {
  const id = model.get("model_ref");
  if (!id || !model.widget_manager) return;
  try {
    const real = await model.widget_manager.get_model(id);
    const held = real._handle_comm_msg;
    let base = Object.getPrototypeOf(real);
    while (base && base._handle_comm_msg === held) base = Object.getPrototypeOf(base);
    if (base && base._handle_comm_msg && real.comm && real.comm.on_msg) {
      real.comm.on_msg(base._handle_comm_msg.bind(real));
    }
  } catch (error) {
    console.warn("mg-stepper: could not take the model's messages", error);
  }
}

export default { render: ({ model, el }) => mount(model, el) };
