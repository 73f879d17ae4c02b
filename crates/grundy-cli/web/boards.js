// The Boards section of the playground: Chomp and Cram against the engine, over
// POST /api/board (outcome, value, cells, winning moves) and POST /api/board/reply.
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);

  // The board being played: its kind, notation, the answer's cells, its full size (Chomp boards
  // shrink as they are eaten; the page keeps drawing the whole rectangle), the cells of the last
  // engine move, of a hint, and the first cell of a domino being placed.
  const board = {
    kind: "chomp", game: "", misere: false, rows: 0, cols: 0, cells: [], over: true,
    busy: false, engine: [], hint: [], first: null, placed: new Map(),
  };

  async function post(path, body) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const doc = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
    if (!res.ok) throw new Error(doc.error || `HTTP ${res.status}`);
    return doc;
  }

  function setStatus(state, text) {
    const s = byId("boards-status");
    s.dataset.state = state;
    s.textContent = text;
  }

  function showError(message) {
    byId("boards-error").textContent = message || "";
  }

  function free(r, c) {
    const row = board.cells[r];
    return row !== undefined && row[c] === "free";
  }

  const key = (r, c) => `${r},${c}`;
  const has = (list, r, c) => list.some(([a, b]) => a === r && b === c);

  function outcomeText(doc) {
    const who = doc.outcome === "P" ? "the player to move loses" : "the player to move wins";
    const value = doc.value === null ? "" : `, value ${doc.value}`;
    return `${doc.outcome}${value}: ${who}`;
  }

  function draw() {
    const grid = byId("boards-grid");
    grid.replaceChildren();
    grid.style.gridTemplateColumns = `repeat(${board.cols}, 2.2em)`;
    // Chomp's row 0 (the poisoned corner's) is drawn at the bottom; Cram's at the top.
    const order = [...Array(board.rows).keys()];
    if (board.kind === "chomp") order.reverse();
    for (const r of order) {
      for (let c = 0; c < board.cols; c++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "board-cell";
        b.dataset.r = r;
        b.dataset.c = c;
        let state = free(r, c) ? "free" : (board.kind === "chomp" ? "taken" : "blocked");
        if (board.kind === "cram" && board.placed.has(key(r, c))) state = board.placed.get(key(r, c));
        b.dataset.state = state;
        if (board.kind === "chomp" && r === 0 && c === 0) b.dataset.poison = "1";
        if (has(board.hint, r, c)) b.dataset.hint = "1";
        if (has(board.engine, r, c)) b.dataset.last = "1";
        if (board.first && board.first[0] === r && board.first[1] === c) b.dataset.selected = "1";
        b.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}: ${state}`);
        b.disabled = board.over || board.busy || state !== "free";
        b.addEventListener("click", () => clickCell(r, c));
        grid.appendChild(b);
      }
    }
    grid.dataset.ready = board.busy ? "0" : "1";
  }

  function take(doc) {
    board.game = doc.game;
    board.cells = doc.cells;
    board.over = doc.over;
    byId("boards-outcome").textContent = outcomeText(doc);
  }

  // The board after a move of the player, in the notation (the server checks it again).
  function afterMove(cells) {
    if (board.kind === "chomp") {
      const [r, c] = cells[0];
      const rows = board.cells.map((row) => row.filter((x) => x === "free").length)
        .map((len, i) => (i >= r ? Math.min(len, c) : len))
        .filter((len) => len > 0);
      return `chomp:${rows.join(",")}`;
    }
    const grid = board.cells.map((row) => row.map((x) => x === "free"));
    for (const [r, c] of cells) grid[r][c] = false;
    return `cram:${grid.map((row) => row.map((f) => (f ? "." : "#")).join("")).join("/")}`;
  }

  function finish(humanMovedLast) {
    // Normal play: whoever made the last move wins; misère: loses.
    const humanWins = humanMovedLast !== board.misere;
    setStatus(humanWins ? "won" : "lost", humanWins ? "No move is left: you win." : "No move is left: the engine wins.");
  }

  async function play(cells) {
    board.busy = true;
    board.hint = [];
    board.first = null;
    for (const [r, c] of cells) if (board.kind === "cram") board.placed.set(key(r, c), "human");
    const after = afterMove(cells);
    board.cells = board.cells.map((row, r) => row.map((x, c) => (has(cells, r, c) ? (board.kind === "chomp" ? x : "blocked") : x)));
    if (board.kind === "chomp") {
      const [r0, c0] = cells[0];
      board.cells = board.cells.map((row, r) => row.map((x, c) => (r >= r0 && c >= c0 ? "taken" : x)));
    }
    setStatus("thinking", "The engine is thinking…");
    draw();
    try {
      const doc = await post("/api/board/reply", { game: after, misere: board.misere });
      board.engine = doc.move ? doc.move.cells : [];
      if (doc.move && board.kind === "cram") for (const [r, c] of doc.move.cells) board.placed.set(key(r, c), "engine");
      take(doc.board);
      board.busy = false;
      if (!doc.move) finish(true);
      else if (doc.board.over) finish(false);
      else setStatus("playing", `The engine played ${doc.move.move}. Your move.`);
      showError("");
    } catch (e) {
      board.busy = false;
      showError(e.message);
      setStatus("error", "The move could not be played.");
    }
    draw();
  }

  function clickCell(r, c) {
    if (board.over || board.busy || !free(r, c)) return;
    if (board.kind === "chomp") {
      if (r === 0 && c === 0) return; // the poisoned corner
      play([[r, c]]);
      return;
    }
    if (!board.first) {
      board.first = [r, c];
      setStatus("playing", "Now click a free cell next to it.");
      draw();
      return;
    }
    const [r0, c0] = board.first;
    if (r0 === r && c0 === c) {
      board.first = null;
      draw();
      return;
    }
    if (Math.abs(r0 - r) + Math.abs(c0 - c) !== 1) {
      board.first = [r, c];
      setStatus("playing", "A domino covers two neighbouring cells: click a free cell next to the first one.");
      draw();
      return;
    }
    play([[r0, c0], [r, c]]);
  }

  async function newBoard() {
    const kind = byId("boards-kind").value;
    const rows = Number(byId("boards-rows").value);
    const cols = Number(byId("boards-cols").value);
    const misere = byId("boards-misere").checked;
    showError("");
    try {
      const doc = await post("/api/board", { game: `${kind}:${rows}x${cols}`, misere });
      Object.assign(board, {
        kind, misere, rows: doc.cells.length, cols: doc.cells[0] ? doc.cells[0].length : 0,
        engine: [], hint: [], first: null, placed: new Map(), busy: false,
      });
      take(doc);
      if (byId("boards-first").value === "engine" && !doc.over) {
        draw();
        board.busy = true;
        const reply = await post("/api/board/reply", { game: doc.game, misere });
        board.busy = false;
        board.engine = reply.move ? reply.move.cells : [];
        if (reply.move && kind === "cram") for (const [r, c] of reply.move.cells) board.placed.set(key(r, c), "engine");
        take(reply.board);
        if (reply.board.over) finish(false);
        else setStatus("playing", `The engine played ${reply.move.move}. Your move.`);
      } else if (doc.over) {
        finish(false);
      } else {
        setStatus("playing", kind === "chomp"
          ? "Your move: click a cell to eat it and every cell above and to its right (not the poisoned corner)."
          : "Your move: click two neighbouring free cells to place a domino.");
      }
    } catch (e) {
      board.busy = false;
      showError(e.message);
    }
    draw();
  }

  async function hint() {
    if (board.over || board.busy || !board.game) return;
    try {
      const doc = await post("/api/board", { game: board.game, misere: board.misere });
      const m = doc.winning_moves[0];
      board.hint = m ? m.cells : [];
      byId("boards-outcome").textContent = outcomeText(doc);
      setStatus("playing", m
        ? `A winning move: ${m.move} (highlighted).`
        : "No winning move: every move loses against perfect play.");
      showError("");
    } catch (e) {
      showError(e.message);
    }
    draw();
  }

  function init() {
    if (!byId("boards")) return;
    byId("boards-new").addEventListener("click", newBoard);
    byId("boards-hint").addEventListener("click", hint);
    byId("boards-kind").addEventListener("change", () => {
      const cram = byId("boards-kind").value === "cram";
      byId("boards-rows").max = cram ? 6 : 8;
      byId("boards-cols").max = cram ? 6 : 8;
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
