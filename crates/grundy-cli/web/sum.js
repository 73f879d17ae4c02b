// The Sums section of the playground: a Nim heap, a Chomp board and a Cram board played as one
// game (a move is a move in exactly one of them), over POST /api/sum and /api/sum/reply. An
// answer is the sum's solution document (outcome, Grundy `value`, `winning_moves`) with the
// parts, and `winning_parts` saying where each winning move is played. Under normal play each
// part shows its Grundy value and the page their nim-sum, the sum's value: the sum is lost for
// the player to move exactly when the nim-sum is 0 (Sprague-Grundy).
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);
  const { api, drawTokens, hintTarget, tokensLeft, sleep, REPLY_MS, columnsTable, statusLine } = window.grundy;
  const { eaten, applyMove, notation, pick, drawGrid } = window.grundyBoards;

  // The sum the page opens on.
  const START = [{ game: "nim", heaps: [5] }, { game: "chomp:3x4" }, { game: "cram:3x3" }];
  const TITLES = { heaps: "Nim heap", chomp: "Chomp", cram: "Cram" };

  // parts: {kind, game, heaps} or {kind, cells, placed, first}; doc: the last analysis.
  const sum = { parts: [], doc: null, misere: false, over: true, busy: false, hint: null, leaving: null };

  const setStatus = statusLine("sum-status");

  const showError = (m) => { byId("sum-error").textContent = m || ""; };

  const request = () => ({
    misere: sum.misere,
    parts: sum.parts.map((p) => (p.kind === "heaps" ? { game: p.game, heaps: p.heaps }
                                                    : { game: notation(p.kind, p.cells) })),
  });

  function render() {
    const box = byId("sum-parts");
    box.replaceChildren();
    const disabled = sum.over || sum.busy;
    sum.parts.forEach((p, i) => {
      const part = document.createElement("div");
      part.className = "sum-part";
      part.dataset.part = String(i);
      part.setAttribute("role", "group");
      part.setAttribute("aria-labelledby", `sum-part-${i}`);
      const title = document.createElement("h3");
      title.id = `sum-part-${i}`;
      title.textContent = TITLES[p.kind];
      part.appendChild(title);
      const area = document.createElement("div");
      const hint = sum.hint && sum.hint.part === i ? sum.hint : null;
      const leaving = sum.leaving && sum.leaving.part === i ? sum.leaving : null;
      if (p.kind === "heaps") {
        area.className = "heaps";
        drawTokens(area, p.heaps, {
          label: (j) => (p.heaps.length === 1 ? "the Nim heap" : `Nim heap ${j + 1}`),
          onToken: (j, k) => clickToken(i, j, k), disabled,
          hint: hint && hint.token, leaving: leaving && leaving.token,
        });
        if (p.heaps.length === 0) area.textContent = "no tokens left";
      } else {
        area.className = "board-grid";
        drawGrid(area, p.kind, p.cells, {
          name: TITLES[p.kind], placed: p.placed, hint: hint && hint.cells,
          leaving: leaving && leaving.cells, selected: p.first, disabled,
          onCell: (r, c) => clickCell(i, r, c),
        });
      }
      part.appendChild(area);
      const d = sum.doc && sum.doc.parts[i];
      const value = document.createElement("p");
      value.className = "part-value";
      if (d && d.value !== null) {
        value.dataset.value = String(d.value);
        value.textContent = `Grundy value ${d.value}`;
      } else {
        value.textContent = d && d.over ? "no move left" : "";
      }
      part.appendChild(value);
      box.appendChild(part);
    });
    box.dataset.ready = sum.busy ? "0" : "1";
  }

  // The values of the parts in binary and their nim-sum (normal play), or why there are none.
  function showValues(doc) {
    const box = byId("sum-values");
    box.replaceChildren();
    byId("sum-explanation").textContent = doc.explanation.join("\n");
    if (doc.value === null) {
      box.appendChild(Object.assign(document.createElement("p"), {
        textContent: `Misère play: the values do not add; the sum is ${doc.outcome === "P" ? "lost" : "won"} for the player to move.`,
      }));
      return;
    }
    box.dataset.nimSum = String(doc.value);
    const labels = doc.parts.map((p) => [TITLES[p.kind === "heaps" ? "heaps" : p.kind],
                                         p.kind === "heaps" ? p.heaps.join(" ") : ""]);
    box.appendChild(columnsTable(doc.columns, ["part", "", "G"], labels,
                                 doc.parts.map((p) => p.value), doc.value, null, "sum-columns"));
    const p = document.createElement("p");
    p.id = "sum-verdict";
    p.textContent = `${doc.parts.map((x) => x.value).join(" xor ")} = ${doc.value}: ` +
      (doc.value === 0 ? "the player to move loses (P)." : "the player to move wins (N).");
    box.appendChild(p);
  }

  function take(doc) {
    sum.doc = doc;
    sum.over = doc.over;
    showValues(doc);
  }

  // Applies a move of the sum (where it is played, as /api/sum's winning_parts give it) to the
  // page's copy of the parts.
  function applySumMove(m) {
    const p = sum.parts[m.part];
    if (m.heap_move) {
      const hm = m.heap_move;
      p.heaps = [...p.heaps.slice(0, hm.heap), ...hm.to.filter((x) => x > 0), ...p.heaps.slice(hm.heap + 1)];
    } else {
      p.cells = applyMove(p.kind, p.cells, m.cells);
    }
  }

  function finish(humanMovedLast) {
    const humanWins = humanMovedLast !== sum.misere;
    setStatus(humanWins ? "won" : "lost", humanWins ? "No move is left in any game: you win."
                                                    : "No move is left in any game: the engine wins.");
  }

  async function play(m) {
    sum.busy = true;
    sum.hint = null;
    sum.parts.forEach((p) => { p.first = null; });
    const p = sum.parts[m.part];
    if (m.cells && p.kind === "cram") for (const [r, c] of m.cells) p.placed.set(`${r},${c}`, "human");
    applySumMove(m);
    setStatus("thinking", "The engine is thinking…");
    render();
    try {
      const reply = await api("/api/sum/reply", request());
      if (reply.move) {
        const e = reply.move, q = sum.parts[e.part];
        sum.leaving = e.heap_move
          ? { part: e.part, token: { heap: e.heap_move.heap, from: tokensLeft(e.heap_move) } }
          : { part: e.part, cells: eaten(q.kind, q.cells, e.cells) };
        if (e.cells && q.kind === "cram") for (const [r, c] of e.cells) q.placed.set(`${r},${c}`, "engine");
        render();
        await sleep(REPLY_MS);
        sum.leaving = null;
        applySumMove(e);
      }
      take(reply.sum);
      sum.busy = false;
      if (!reply.move) finish(true);
      else if (reply.sum.over) finish(false);
      else setStatus("playing", `The engine played in the ${TITLES[sum.parts[reply.move.part].kind]}. Your move.`);
      showError("");
    } catch (e) {
      sum.busy = false;
      showError(e.message);
      setStatus("error", "The move could not be played.");
    }
    render();
  }

  function clickToken(i, j, k) {
    if (sum.over || sum.busy) return;
    const from = sum.parts[i].heaps[j];
    play({ part: i, heap_move: { heap: j, from, to: k === 0 ? [] : [k] } });
  }

  function clickCell(i, r, c) {
    const p = sum.parts[i];
    if (sum.over || sum.busy || p.cells[r][c] !== "free") return;
    const got = pick(p.kind, p.first, r, c);
    if (got.play) {
      play({ part: i, cells: got.play });
      return;
    }
    p.first = got.first;
    setStatus("playing", got.message);
    render();
  }

  async function newSum() {
    sum.misere = byId("sum-misere").checked;
    showError("");
    try {
      const doc = await api("/api/sum", { parts: START, misere: sum.misere });
      sum.parts = doc.parts.map((p) => (p.kind === "heaps"
        ? { kind: "heaps", game: p.game, heaps: p.heaps }
        : { kind: p.kind, cells: p.cells, placed: new Map(), first: null }));
      sum.hint = null;
      sum.busy = false;
      take(doc);
      setStatus("playing", "Your move.");
    } catch (e) {
      showError(e.message);
    }
    render();
  }

  async function hint() {
    if (sum.over || sum.busy) return;
    try {
      const doc = await api("/api/sum", request());
      take(doc);
      const m = doc.winning_parts[0];
      if (!m) {
        sum.hint = null;
        setStatus("playing", "No winning move: every move loses against perfect play.");
      } else {
        sum.hint = m.heap_move ? { part: m.part, token: hintTarget(m.heap_move) }
                               : { part: m.part, cells: m.cells };
        const why = m.value === null ? "" : `: it leaves that game with value ${m.value}, and the nim-sum 0`;
        setStatus("playing", `A winning move in the ${TITLES[sum.parts[m.part].kind]} (outlined)${why}.`);
      }
      showError("");
    } catch (e) {
      showError(e.message);
    }
    render();
  }

  async function toggleMisere() {
    sum.misere = byId("sum-misere").checked;
    sum.hint = null;
    if (!sum.parts.length) return;
    try {
      take(await api("/api/sum", request()));
      if (!sum.over) {
        setStatus("playing", sum.misere ? "Now misère play: whoever cannot move wins. Your move."
                                        : "Now normal play: whoever cannot move loses. Your move.");
      }
    } catch (e) {
      showError(e.message);
    }
    render();
  }

  function init() {
    if (!byId("sum")) return;
    byId("sum-new").addEventListener("click", newSum);
    byId("sum-hint").addEventListener("click", hint);
    byId("sum-misere").addEventListener("change", toggleMisere);
    // The page opens on a sum in progress.
    newSum();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
