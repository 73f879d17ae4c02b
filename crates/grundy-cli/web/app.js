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

const setStatus = (...a) => statusLine("status")(...a);

// ---- tokens ------------------------------------------------------------------------------

// The most tokens of one heap drawn as buttons; larger heaps are played from the move list.
const MAX_TOKENS = 60;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// How long the engine's reply is shown before the position moves on (none for people who ask
// for reduced motion).
const REPLY_MS = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : 450;

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

// Draws heaps as rows of token buttons into `box`. Token k (from 0) of a heap of h tokens
// takes it and the h - k - 1 tokens after it, leaving k. `opts`: `label(i)` names heap i,
// `onToken(i, k)`, `disabled`, `hint` ({heap, k} or {heap, k: null} to outline the whole heap),
// `leaving` ({heap, from: k}: tokens from k on are marked as being taken).
function drawTokens(box, heaps, opts) {
  box.textContent = "";
  heaps.forEach((h, i) => {
    const name = opts.label(i);
    const row = el("div", { class: "heap", role: "group", "aria-label": `${name}: ${plural(h, "token", "tokens")}` });
    row.dataset.heap = String(i);
    row.appendChild(el("span", { class: "heap-label", "aria-hidden": "true" }, `${name} · ${h}`));
    const shown = Math.min(h, MAX_TOKENS);
    for (let k = 0; k < shown; k++) {
      const taken = h - k;
      const b = el("button", {
        type: "button", class: "token",
        "aria-label": `${name}, token ${k + 1}: take ${plural(taken, "token", "tokens")}, leaving ${k}`,
      });
      b.dataset.heap = String(i);
      b.dataset.k = String(k);
      if (opts.hint && opts.hint.heap === i && opts.hint.k === k) b.dataset.hint = "1";
      if (opts.leaving && opts.leaving.heap === i && k >= opts.leaving.from) b.dataset.leaving = "1";
      b.disabled = !!opts.disabled;
      b.addEventListener("click", () => opts.onToken(i, k));
      row.appendChild(b);
    }
    if (h > shown) row.appendChild(el("span", { class: "more" }, `… ${h - shown} more (use the move list)`));
    if (h === 0) row.appendChild(el("span", { class: "more" }, "empty"));
    if (opts.hint && opts.hint.heap === i && opts.hint.k === null) row.dataset.hint = "1";
    box.appendChild(row);
  });
}

// The number of tokens a move leaves in its heap's place.
const tokensLeft = (m) => m.to.reduce((a, b) => a + b, 0);

// Where the hint's move is clicked: the token that leaves what the move leaves, or the whole
// heap for a move that only splits it.
function hintTarget(m) {
  const k = tokensLeft(m);
  return { heap: m.heap, k: k < m.from && k < MAX_TOKENS ? k : null };
}

// A status line whose `data-state` the tests read.
const statusLine = (id) => (stateName, text) => {
  const s = $(id);
  s.dataset.state = stateName;
  s.textContent = text;
};

// What the Boards and Sums sections share with this one.
window.grundy = { api, drawTokens, hintTarget, tokensLeft, sleep, REPLY_MS, plural, statusLine };

// ---- the heaps being played ---------------------------------------------------------------

state.busy = false;
state.hint = null; // where the hint points: {heap, k}
state.moveCache = new Map(); // heap index -> legal moves, for the current heaps

function drawBoard(leaving) {
  const board = $("board");
  drawTokens(board, state.heaps, {
    label: (i) => `heap ${i + 1}`,
    onToken: clickToken,
    disabled: state.over || state.busy,
    hint: state.hint,
    leaving,
  });
  board.setAttribute("aria-label", `heaps ${state.heaps.join(" ")}`);
  board.dataset.ready = state.busy ? "0" : "1";
}

function fillHeapSelect() {
  const sel = $("heap-select");
  sel.textContent = "";
  state.heaps.forEach((h, i) => sel.appendChild(el("option", { value: String(i) },
                                                   `heap ${i + 1} (${h})`)));
}

async function heapMoves(i) {
  if (!state.moveCache.has(i)) {
    const doc = await api("/api/moves", { ...currentGame(), heaps: state.heaps, heap: i });
    state.moveCache.set(i, doc.moves);
  }
  return state.moveCache.get(i);
}

async function loadMoves() {
  const sel = $("move-select");
  sel.dataset.loaded = "0";
  sel.textContent = "";
  if (state.over || state.heaps.length === 0) return;
  const heap = Number($("heap-select").value || 0);
  try {
    const moves = await heapMoves(heap);
    for (const m of moves) {
      sel.appendChild(el("option", { value: m.to.join(",") },
                         m.to.length === 0 ? "nothing (remove it)" : m.to.join(" + ")));
    }
    if (moves.length === 0) sel.appendChild(el("option", { value: "-" }, "(no move here)"));
    sel.dataset.heap = String(heap);
    sel.dataset.loaded = "1";
  } catch (e) {
    showError(e.message);
  }
}

function log(who, m) {
  $("log").appendChild(el("li", {}, `${who}: ${describeMove(m)}`));
}

function hideChoices() {
  const box = $("choices");
  box.hidden = true;
  box.textContent = "";
}

// Offers `moves` as buttons (a take-and-break game may leave the same tokens in several ways).
function offerChoices(text, moves) {
  const box = $("choices");
  box.textContent = "";
  box.appendChild(el("p", {}, text));
  for (const m of moves) {
    const b = el("button", { type: "button", class: "choice" },
                 m.to.length === 0 ? "remove the heap" : `leave ${m.to.join(" + ")}`);
    b.dataset.to = m.to.join(",");
    b.addEventListener("click", () => { hideChoices(); playHuman(m); });
    box.appendChild(b);
  }
  box.hidden = false;
  box.querySelector("button")?.focus();
}

// A click on token k of heap i: the move leaving k tokens (for Nim at once; for other games the
// legal moves that leave k tokens, offered when there are several).
async function clickToken(i, k) {
  if (state.over || state.busy) return;
  showError("");
  hideChoices();
  const h = state.heaps[i];
  if (state.game === "nim") {
    playHuman({ heap: i, from: h, to: k === 0 ? [] : [k] });
    return;
  }
  try {
    const moves = await heapMoves(i);
    const fit = moves.filter((m) => tokensLeft(m) === k);
    if (fit.length === 1) {
      playHuman(fit[0]);
    } else if (fit.length > 1) {
      offerChoices(`Taking ${plural(h - k, "token", "tokens")} from heap ${i + 1} leaves ${k}: how?`, fit);
    } else if (moves.length === 0) {
      showError(`Heap ${i + 1} has no move in this game.`);
    } else {
      offerChoices(`This game cannot take ${plural(h - k, "token", "tokens")} from heap ${i + 1}; its moves are:`, moves);
    }
  } catch (e) {
    showError(e.message);
  }
}

// After a move: the engine's reply shown briefly, new heaps, maybe a winner, else the human's turn.
async function afterMoves(doc) {
  if (doc.human) log("you", doc.human);
  if (doc.engine) {
    log("engine", doc.engine);
    state.heaps = doc.after_human;
    state.hint = null;
    setStatus("busy", `The engine plays ${describeMove(doc.engine)}.`);
    drawBoard({ heap: doc.engine.heap, from: tokensLeft(doc.engine) });
    await sleep(REPLY_MS);
  }
  state.heaps = doc.heaps;
  state.moveCache = new Map();
  state.busy = false;
  fillHeapSelect();
  if (doc.winner) {
    state.over = true;
    $("status").dataset.winner = doc.winner;
    setStatus("over", doc.winner === "human" ? "You win! The engine has no good answer left."
                                             : "The engine wins. Ask for a hint next time!");
  } else {
    const last = doc.engine ? `The engine played ${describeMove(doc.engine)}. ` : "";
    setStatus("human", `${last}Your move.`);
  }
  drawBoard();
  await loadMoves();
}

async function playHuman(human) {
  if (state.over || state.busy) return;
  showError("");
  clearHint();
  state.hint = null;
  state.busy = true;
  // The tokens taken, marked while the engine thinks.
  drawBoard({ heap: human.heap, from: tokensLeft(human) < human.from ? tokensLeft(human) : human.from });
  setStatus("busy", "The engine is thinking…");
  try {
    await afterMoves(await api("/api/move", { ...currentGame(), heaps: state.heaps,
                                              misere: state.misere, human }));
  } catch (e) {
    state.busy = false;
    showError(e.message);
    setStatus("human", "Your move.");
    drawBoard();
  }
}

async function newGame() {
  showError("");
  hideChoices();
  const fields = gameFields();
  const heaps = $("heaps").value.trim().split(/[\s,]+/).filter((w) => w !== "");
  if (heaps.length === 0 || heaps.some((w) => !/^\d+$/.test(w))) {
    showError("Heaps: expected numbers of tokens separated by spaces, e.g. 3 4 5");
    return;
  }
  state.game = fields.game;
  state.script = fields.script === undefined ? null : fields.script;
  state.heaps = heaps.map(Number);
  state.misere = $("misere").checked;
  state.over = false;
  state.busy = false;
  state.hint = null;
  state.moveCache = new Map();
  delete $("status").dataset.winner;
  $("log").textContent = "";
  clearHint();
  drawBoard();
  fillHeapSelect();
  if ($("first").value === "engine") {
    state.busy = true;
    setStatus("busy", "The engine is thinking…");
    try {
      await afterMoves(await api("/api/move", { ...currentGame(), heaps: state.heaps,
                                                misere: state.misere }));
    } catch (e) {
      showError(e.message);
      setStatus("idle", "Could not start the game.");
      state.over = true;
      state.busy = false;
      drawBoard();
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
      drawBoard();
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
  await playHuman({ heap, from: state.heaps[heap], to });
}

// The misère box switches the rule of the game in progress.
function toggleMisere() {
  state.misere = $("misere").checked;
  clearHint();
  state.hint = null;
  if (!state.over) {
    setStatus("human", state.misere
      ? "Now misère play: whoever cannot move wins (whoever takes the last token loses). Your move."
      : "Now normal play: whoever cannot move loses (whoever takes the last token wins). Your move.");
  }
  drawBoard();
}

// ---- hints -------------------------------------------------------------------------------

function clearHint() {
  const h = $("hint");
  h.textContent = "";
  h.dataset.ready = "0";
  delete h.dataset.heap;
  delete h.dataset.to;
  delete h.dataset.nimSum;
  delete h.dataset.quotient;
}

// The binary columns `c` of `values` and their xor `nimSum`, the top bit of the nim-sum
// highlighted: one row a heap (or a game), led by its `labels` under the headings `head`.
function columnsTable(c, head, labels, values, nimSum, suggestedRow, id) {
  const t = el("table", { class: "columns", id,
                          "aria-label": "values in binary and their nim-sum" });
  const top = el("tr");
  [...head].forEach((h) => top.appendChild(el("th", {}, h)));
  for (let b = 0; b < c.width; b++) {
    const th = el("th", { class: "bit" }, String(2 ** (c.width - 1 - b)));
    if (b === c.top_bit) th.classList.add("top");
    top.appendChild(th);
  }
  t.appendChild(top);
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
    const tr = row([...labels[i], String(values[i])], bits);
    if (suggestedRow === i) tr.classList.add("suggested");
    t.appendChild(tr);
  });
  t.appendChild(row(["nim-sum", "", String(nimSum)], c.nim_sum, "sum"));
  return t;
}

window.grundy.columnsTable = columnsTable;

async function showHint() {
  if (state.over || state.busy) return;
  showError("");
  clearHint();
  const box = $("hint");
  try {
    const hint = await api("/api/hint", { ...currentGame(), heaps: state.heaps,
                                          misere: state.misere });
    const verdict = el("p", { id: "hint-move" });
    if (hint.suggested) {
      verdict.textContent = `Winning move: ${describeMove(hint.suggested)} (outlined).`;
      box.dataset.heap = String(hint.suggested.heap);
      box.dataset.to = hint.suggested.to.join(",");
      state.hint = hintTarget(hint.suggested);
      drawBoard();
    } else {
      verdict.textContent = "No winning move: every move loses against perfect play.";
    }
    box.appendChild(verdict);
    if (hint.nim_sum !== null) box.dataset.nimSum = String(hint.nim_sum);
    if (hint.columns) {
      const labels = state.heaps.map((h, i) => [String(i + 1), String(h)]);
      box.appendChild(columnsTable(hint.columns, ["heap", "size", "G"], labels, hint.values,
                                   hint.nim_sum, hint.suggested ? hint.suggested.heap : null,
                                   "columns"));
    }
    box.appendChild(el("pre", { id: "explanation" }, hint.explanation.join("\n")));
    if (hint.quotient) {
      box.dataset.quotient = hint.quotient.position;
      box.appendChild(el("pre", { id: "quotient" }, hint.quotient.explanation.join("\n")));
    }
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
    const misere = $("graph-misere").checked;
    const doc = await api("/api/graph", { text: $("graph-text").value, misere });
    drawGraph(doc);
    box.dataset.misere = misere ? "1" : "0";
    box.dataset.ready = "1";
  } catch (e) {
    showError(e.message);
  }
}

// A vertex's generalized Sprague-Grundy value as the command line writes it (`3`, `inf{0,2}`),
// from its document (`value`, or `infinite_options` for an infinite value); null under misère
// play.
function gamma(v) {
  if (v.value !== null) return String(v.value);
  return v.infinite_options === null ? null : `inf{${v.infinite_options.join(",")}}`;
}

// Draws the answer of /api/graph: the graph document of `grundy graph solve --json` (vertices),
// each vertex at its place [layer, slot] beside it.
function drawGraph(doc) {
  const colW = 120, rowH = 56, pad = 40;
  const tallest = Math.max(1, ...doc.layers);
  const W = pad * 2 + colW * Math.max(0, doc.layers.length - 1) + 40;
  const H = pad * 2 + rowH * (tallest - 1) + 20;
  const pos = doc.places.map(([layer, slot]) => [pad + layer * colW, pad + slot * rowH]);
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
    const value = gamma(v);
    g.appendChild(svg("text", { x: cx, y: cy + r + 12, "text-anchor": "middle", "font-size": 11 },
                      value === null ? v.name : `${v.name} (${value})`));
    g.appendChild(svg("title", {}, `${v.name}: ${v.outcome}, remoteness ${v.remoteness ?? "-"}, value ${value ?? "-"}`));
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
    [v.name, v.outcome, v.remoteness ?? "-", gamma(v) ?? "-"].forEach((c) =>
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
  $("misere").addEventListener("change", toggleMisere);
  $("plot-button").addEventListener("click", plotSequence);
  $("graph-button").addEventListener("click", solveGraph);
  $("graph-misere").addEventListener("change", () => {
    if ($("graph-svg").dataset.ready === "1") solveGraph();
  });
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
  // The page opens on a game in progress.
  await newGame();
  document.body.dataset.ready = "1";
}

init();
