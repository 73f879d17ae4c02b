// The grundy playground: plain JavaScript and SVG over the JSON API of `grundy serve`.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// The game being played.
const state = { game: "nim", script: null, heaps: [], misere: false, over: true };

function svg(tag, attrs, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function showError(message) {
  $("error").textContent = message || "";
}

// POST (or GET without a body) to the API; throws the server's error message.
async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  };
  const res = await fetch(path, init);
  const doc = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(doc.error || `HTTP ${res.status}`);
  return doc;
}

// The game fields of a request, from the form.
function gameFields() {
  const game = $("game-notation").value.trim();
  return game === "script" ? { game, script: $("script").value } : { game };
}

function currentGame() {
  return state.script === null ? { game: state.game } : { game: state.game, script: state.script };
}

function describeMove(m) {
  const to = m.to.length === 0 ? "nothing" : m.to.join(" + ");
  return `heap ${m.heap + 1}: ${m.from} → ${to}`;
}

function setStatus(stateName, text) {
  $("status").dataset.state = stateName;
  $("status").textContent = text;
}

// ---- the board -------------------------------------------------------------------------

function drawBoard() {
  const board = $("board");
  board.textContent = "";
  const rowH = 28, width = 640;
  const s = svg("svg", { width, height: Math.max(1, state.heaps.length) * rowH + 8,
                         role: "img", "aria-label": `heaps ${state.heaps.join(" ")}` });
  state.heaps.forEach((h, i) => {
    const y = 8 + i * rowH;
    s.appendChild(svg("text", { x: 4, y: y + 15 }, `heap ${i + 1}`));
    s.appendChild(svg("text", { x: 70, y: y + 15, "font-weight": "bold" }, String(h)));
    const shown = Math.min(h, 48);
    for (let k = 0; k < shown; k++) {
      s.appendChild(svg("circle", { cx: 120 + k * 11, cy: y + 10, r: 4.5, fill: "#335" }));
    }
    if (h > shown) s.appendChild(svg("text", { x: 120 + shown * 11, y: y + 15 }, `… (${h})`));
  });
  board.appendChild(s);
}

function fillHeapSelect() {
  const sel = $("heap-select");
  sel.textContent = "";
  state.heaps.forEach((h, i) => sel.appendChild(el("option", { value: String(i) },
                                                   `heap ${i + 1} (${h})`)));
}

async function loadMoves() {
  const sel = $("move-select");
  sel.dataset.loaded = "0";
  sel.textContent = "";
  if (state.over || state.heaps.length === 0) return;
  const heap = Number($("heap-select").value || 0);
  try {
    const doc = await api("/api/moves", { ...currentGame(), heaps: state.heaps, heap });
    for (const m of doc.moves) {
      sel.appendChild(el("option", { value: m.to.join(",") },
                         m.to.length === 0 ? "nothing (remove it)" : m.to.join(" + ")));
    }
    if (doc.moves.length === 0) sel.appendChild(el("option", { value: "-" }, "(no move here)"));
    sel.dataset.heap = String(heap);
    sel.dataset.loaded = "1";
  } catch (e) {
    showError(e.message);
  }
}

function log(who, m) {
  $("log").appendChild(el("li", {}, `${who}: ${describeMove(m)}`));
}

// After a move: new heaps, maybe a winner, otherwise the human's turn.
async function afterMoves(doc) {
  if (doc.human) log("you", doc.human);
  if (doc.engine) log("engine", doc.engine);
  state.heaps = doc.heaps;
  drawBoard();
  fillHeapSelect();
  if (doc.winner) {
    state.over = true;
    $("status").dataset.winner = doc.winner;
    setStatus("over", doc.winner === "human" ? "You win! The engine has no good answer left."
                                             : "The engine wins. Ask for a hint next time!");
    await loadMoves();
    return;
  }
  setStatus("human", "Your move.");
  await loadMoves();
}

async function newGame() {
  showError("");
  const fields = gameFields();
  const heaps = $("heaps").value.trim().split(/[\s,]+/).filter((w) => w !== "");
  if (heaps.length === 0 || heaps.some((w) => !/^\d+$/.test(w))) {
    showError("Heaps: expected numbers of tokens separated by spaces, e.g. 27 16 8 2 7");
    return;
  }
  state.game = fields.game;
  state.script = fields.script === undefined ? null : fields.script;
  state.heaps = heaps.map(Number);
  state.misere = $("misere").checked;
  state.over = false;
  delete $("status").dataset.winner;
  $("log").textContent = "";
  clearHint();
  drawBoard();
  fillHeapSelect();
  if ($("first").value === "engine") {
    setStatus("busy", "The engine is thinking…");
    try {
      await afterMoves(await api("/api/move", { ...currentGame(), heaps: state.heaps,
                                                misere: state.misere }));
    } catch (e) {
      showError(e.message);
      setStatus("idle", "Could not start the game.");
      state.over = true;
    }
  } else {
    // Checks the game and heaps before the first move.
    try {
      await api("/api/hint", { ...currentGame(), heaps: state.heaps, misere: state.misere });
      setStatus("human", "Your move.");
      await loadMoves();
    } catch (e) {
      showError(e.message);
      setStatus("idle", "Could not start the game.");
      state.over = true;
    }
  }
}

async function playMove() {
  if (state.over) return;
  showError("");
  const sel = $("move-select");
  if (sel.dataset.loaded !== "1" || sel.value === "-") {
    showError("Pick a heap that can move, then what it becomes.");
    return;
  }
  const heap = Number(sel.dataset.heap);
  const to = sel.value === "" ? [] : sel.value.split(",").map(Number);
  const human = { heap, from: state.heaps[heap], to };
  clearHint();
  setStatus("busy", "The engine is thinking…");
  try {
    await afterMoves(await api("/api/move", { ...currentGame(), heaps: state.heaps,
                                              misere: state.misere, human }));
  } catch (e) {
    showError(e.message);
    setStatus("human", "Your move.");
  }
}

// ---- hints -------------------------------------------------------------------------------

function clearHint() {
  const h = $("hint");
  h.textContent = "";
  h.dataset.ready = "0";
  delete h.dataset.heap;
  delete h.dataset.to;
  delete h.dataset.nimSum;
}

// The binary columns of the values and their xor, the top bit of the nim-sum highlighted.
function columnsTable(hint) {
  const c = hint.columns;
  const t = el("table", { class: "columns", id: "columns",
                          "aria-label": "values in binary and their nim-sum" });
  const head = el("tr");
  head.appendChild(el("th", {}, "heap"));
  head.appendChild(el("th", {}, "size"));
  head.appendChild(el("th", {}, "G"));
  for (let b = 0; b < c.width; b++) {
    const th = el("th", { class: "bit" }, String(2 ** (c.width - 1 - b)));
    if (b === c.top_bit) th.classList.add("top");
    head.appendChild(th);
  }
  t.appendChild(head);
  const row = (cells, bits, cls) => {
    const tr = el("tr", cls ? { class: cls } : {});
    cells.forEach((x) => tr.appendChild(el("td", {}, x)));
    [...bits].forEach((bit, b) => {
      const td = el("td", { class: "bit" }, bit);
      if (b === c.top_bit) td.classList.add("top");
      tr.appendChild(td);
    });
    return tr;
  };
  c.rows.forEach((bits, i) => {
    const tr = row([String(i + 1), String(state.heaps[i]), String(hint.values[i])], bits);
    if (hint.suggested && hint.suggested.heap === i) tr.classList.add("suggested");
    t.appendChild(tr);
  });
  t.appendChild(row(["nim-sum", "", String(hint.nim_sum)], c.nim_sum, "sum"));
  return t;
}

async function showHint() {
  if (state.over) return;
  showError("");
  clearHint();
  const box = $("hint");
  try {
    const hint = await api("/api/hint", { ...currentGame(), heaps: state.heaps,
                                          misere: state.misere });
    const verdict = el("p", { id: "hint-move" });
    if (hint.suggested) {
      verdict.textContent = `Winning move: ${describeMove(hint.suggested)}`;
      box.dataset.heap = String(hint.suggested.heap);
      box.dataset.to = hint.suggested.to.join(",");
    } else {
      verdict.textContent = "No winning move: every move loses against perfect play.";
    }
    box.appendChild(verdict);
    if (hint.nim_sum !== null) box.dataset.nimSum = String(hint.nim_sum);
    if (hint.columns) box.appendChild(columnsTable(hint));
    box.appendChild(el("pre", { id: "explanation" }, hint.explanation.join("\n")));
    box.dataset.ready = "1";
  } catch (e) {
    showError(e.message);
  }
}

// ---- the sequence plot --------------------------------------------------------------------

async function plotSequence() {
  showError("");
  const plot = $("plot");
  plot.dataset.ready = "0";
  const n = Number($("seq-n").value);
  try {
    const doc = await api("/api/seq", { ...gameFields(), n });
    drawPlot(doc);
    const a = doc.analysis;
    // The pattern text states the theorem of a proof; the status says whether it holds for all n.
    $("pattern").textContent =
      `${doc.game}: ${a.pattern} [${a.proved ? "proved" : "not proved"}]`;
    plot.dataset.ready = "1";
  } catch (e) {
    showError(e.message);
  }
}

function drawPlot(doc) {
  const values = doc.values, n = values.length;
  const W = 760, H = 300, L = 44, R = 10, T = 12, B = 30;
  const maxV = Math.max(1, ...values);
  const x = (i) => L + (n <= 1 ? 0 : (i * (W - L - R)) / (n - 1));
  const y = (v) => H - B - (v * (H - T - B)) / maxV;
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
                         "aria-label": `Grundy values G(0) to G(${n - 1}) of ${doc.game}` });
  const m = doc.markers;
  if (m.kind === "period") {
    if (m.preperiod > 0) {
      s.appendChild(svg("rect", { x: L, y: T, width: Math.max(1, x(Math.min(m.preperiod, n - 1)) - L),
                                  height: H - T - B, fill: "#fde68a", opacity: 0.5 },
                        ));
      s.appendChild(svg("text", { x: L + 4, y: T + 12, "font-size": 11 }, "preperiod"));
    }
    for (let k = m.preperiod; k < n; k += m.period) {
      s.appendChild(svg("line", { x1: x(k), x2: x(k), y1: T, y2: H - B, stroke: "#c2410c",
                                  "stroke-dasharray": "4 3", "stroke-width": 1 }));
      if (m.period * (W - L - R) / n < 6) break; // too dense to draw every one
    }
  } else if (m.kind === "runs") {
    for (const st of m.starts) {
      s.appendChild(svg("line", { x1: x(st), x2: x(st), y1: T, y2: H - B, stroke: "#7c3aed",
                                  "stroke-dasharray": "2 3" }));
    }
  }
  // Axes.
  s.appendChild(svg("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: "#333" }));
  s.appendChild(svg("line", { x1: L, x2: L, y1: T, y2: H - B, stroke: "#333" }));
  s.appendChild(svg("text", { x: L - 6, y: y(maxV) + 4, "text-anchor": "end", "font-size": 11 },
                    String(maxV)));
  s.appendChild(svg("text", { x: L - 6, y: H - B + 4, "text-anchor": "end", "font-size": 11 }, "0"));
  s.appendChild(svg("text", { x: W - R, y: H - 8, "text-anchor": "end", "font-size": 11 },
                    `n = ${n - 1}`));
  s.appendChild(svg("text", { x: L, y: H - 8, "font-size": 11 }, "n = 0"));
  const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  s.appendChild(svg("polyline", { points: pts, fill: "none", stroke: "#2563eb",
                                  "stroke-width": 1, opacity: 0.6 }));
  if (n <= 400) {
    values.forEach((v, i) => s.appendChild(svg("circle", { cx: x(i), cy: y(v), r: 2.2,
                                                           fill: "#1e40af" })));
  }
  const cursor = svg("circle", { r: 5, fill: "none", stroke: "#dc2626", "stroke-width": 2,
                                 visibility: "hidden", id: "plot-cursor" });
  s.appendChild(cursor);
  const hit = svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "transparent" });
  hit.addEventListener("mousemove", (ev) => {
    // Screen to SVG coordinates, whatever the page's scaling.
    const pt = s.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const px = pt.matrixTransform(s.getScreenCTM().inverse()).x;
    const i = Math.max(0, Math.min(n - 1, Math.round(((px - L) * (n - 1)) / (W - L - R))));
    cursor.setAttribute("cx", x(i));
    cursor.setAttribute("cy", y(values[i]));
    cursor.setAttribute("visibility", "visible");
    $("plot-tip").textContent = `n = ${i}, G(n) = ${values[i]}`;
  });
  s.appendChild(hit);
  const plot = $("plot");
  plot.textContent = "";
  plot.appendChild(s);
}

// ---- the game graph ----------------------------------------------------------------------

const COLOURS = { P: "#dc2626", N: "#2563eb", D: "#9ca3af" };

async function solveGraph() {
  showError("");
  const box = $("graph-svg");
  box.dataset.ready = "0";
  try {
    const doc = await api("/api/graph", { text: $("graph-text").value });
    drawGraph(doc);
    box.dataset.ready = "1";
  } catch (e) {
    showError(e.message);
  }
}

function drawGraph(doc) {
  const colW = 120, rowH = 56, pad = 40;
  const tallest = Math.max(1, ...doc.layers);
  const W = pad * 2 + colW * Math.max(0, doc.layers.length - 1) + 40;
  const H = pad * 2 + rowH * (tallest - 1) + 20;
  const pos = doc.vertices.map((v) => [pad + v.layer * colW, pad + v.slot * rowH]);
  const s = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img",
                         "aria-label": "the game graph" });
  const defs = svg("defs");
  const marker = svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 10, refY: 5,
                                 markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" });
  marker.appendChild(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#555" }));
  defs.appendChild(marker);
  s.appendChild(defs);
  const r = 14;
  for (const [u, w] of doc.arcs) {
    const [x1, y1] = pos[u], [x2, y2] = pos[w];
    if (u === w) {
      s.appendChild(svg("path", { d: `M ${x1 - 6} ${y1 - r} C ${x1 - 20} ${y1 - 45}, ${x1 + 20} ${y1 - 45}, ${x1 + 6} ${y1 - r}`,
                                  fill: "none", stroke: "#555", "marker-end": "url(#arrow)" }));
      continue;
    }
    const d = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [dx, dy] = [(x2 - x1) / d, (y2 - y1) / d];
    // Arcs within a column bend so that they do not run through the vertices between.
    const bend = x1 === x2 ? 30 : 0;
    const mx = (x1 + x2) / 2 + bend, my = (y1 + y2) / 2;
    s.appendChild(svg("path", { d: `M ${x1 + dx * r} ${y1 + dy * r} Q ${mx} ${my} ${x2 - dx * r} ${y2 - dy * r}`,
                                fill: "none", stroke: "#555", "marker-end": "url(#arrow)" }));
  }
  doc.vertices.forEach((v, i) => {
    const [cx, cy] = pos[i];
    const g = svg("g", { "data-outcome": v.outcome });
    g.appendChild(svg("circle", { cx, cy, r, fill: COLOURS[v.outcome] }));
    g.appendChild(svg("text", { x: cx, y: cy + 4, "text-anchor": "middle", fill: "#fff",
                                "font-size": 11, "font-weight": "bold" }, v.outcome));
    g.appendChild(svg("text", { x: cx, y: cy + r + 12, "text-anchor": "middle", "font-size": 11 },
                      v.value === null ? v.name : `${v.name} (${v.value})`));
    g.appendChild(svg("title", {}, `${v.name}: ${v.outcome}, remoteness ${v.remoteness ?? "-"}, value ${v.value ?? "-"}`));
    s.appendChild(g);
  });
  const box = $("graph-svg");
  box.textContent = "";
  box.appendChild(s);
  const table = $("graph-table");
  table.textContent = "";
  const head = el("tr");
  ["position", "outcome", "remoteness", "value"].forEach((h) => head.appendChild(el("th", {}, h)));
  table.appendChild(head);
  for (const v of doc.vertices) {
    const tr = el("tr");
    [v.name, v.outcome, v.remoteness ?? "-", v.value ?? "-"].forEach((c) =>
      tr.appendChild(el("td", {}, String(c))));
    table.appendChild(tr);
  }
}

// ---- setup --------------------------------------------------------------------------------

async function init() {
  try {
    const doc = await api("/api/games");
    const sel = $("game-select");
    for (const g of doc.games) sel.appendChild(el("option", { value: g.game }, g.name));
    $("notation-help").textContent = `Notation: ${doc.notation.join("; ")}.`;
    sel.addEventListener("change", () => {
      $("game-notation").value = sel.value;
      $("script-row").hidden = sel.value !== "script";
    });
    $("game-notation").addEventListener("input", () => {
      $("script-row").hidden = $("game-notation").value.trim() !== "script";
    });
  } catch (e) {
    showError(e.message);
  }
  $("new-game").addEventListener("click", newGame);
  $("play-move").addEventListener("click", playMove);
  $("hint-button").addEventListener("click", showHint);
  $("heap-select").addEventListener("change", loadMoves);
  $("plot-button").addEventListener("click", plotSequence);
  $("graph-button").addEventListener("click", solveGraph);
  $("graph-file").addEventListener("change", async () => {
    const file = $("graph-file").files[0];
    if (!file) return;
    if (file.size > 60000) {
      showError(`The file has ${file.size} bytes; the playground takes graphs up to 60000 bytes.`);
      return;
    }
    $("graph-text").value = await file.text();
    await solveGraph();
  });
  document.body.dataset.ready = "1";
}

init();
