// The Boards section of the playground: Chomp and Cram against the engine, over
// POST /api/board (the solution document of `grundy solve --json`: outcome, value, winning
// moves; beside it the cells and the cells of each winning move) and POST /api/board/reply.
// The drawing and the rules of a move are shared with the Sums section (window.grundyBoards).
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);
  const { api, sleep, REPLY_MS, statusLine } = window.grundy;

  // ---- shared: drawing a board and the rules of a move ------------------------------------

  const has = (list, r, c) => list.some(([a, b]) => a === r && b === c);

  // The cells a move takes: in Chomp the cell clicked and every free cell above and to its
  // right (rows counted from the poisoned corner's), in Cram the domino's two cells.
  function eaten(kind, cells, move) {
    if (kind !== "chomp") return move;
    const [r0, c0] = move[0];
    const out = [];
    cells.forEach((row, r) => row.forEach((x, c) => {
      if (r >= r0 && c >= c0 && x === "free") out.push([r, c]);
    }));
    return out;
  }

  // The cells after a move (Chomp: eaten cells are "taken"; Cram: covered cells "blocked").
  function applyMove(kind, cells, move) {
    const gone = eaten(kind, cells, move);
    return cells.map((row, r) => row.map((x, c) =>
      (has(gone, r, c) ? (kind === "chomp" ? "taken" : "blocked") : x)));
  }

  // The board of `cells` in the notation (the server checks it again).
  function notation(kind, cells) {
    if (kind === "chomp") {
      const rows = cells.map((row) => row.filter((x) => x === "free").length).filter((n) => n > 0);
      return `chomp:${rows.join(",")}`;
    }
    return `cram:${cells.map((row) => row.map((x) => (x === "free" ? "." : "#")).join("")).join("/")}`;
  }

  // What a click on cell (r, c) does, given the first cell of a domino being placed (Cram):
  // `{ play: cells }` to play a move, or `{ first, message }` to wait for a second click.
  function pick(kind, first, r, c) {
    if (kind === "chomp") {
      return r === 0 && c === 0 ? { first: null, message: "The poisoned corner cannot be eaten." }
                                : { play: [[r, c]] };
    }
    if (!first) return { first: [r, c], message: "Now click a free cell next to it." };
    const [r0, c0] = first;
    if (r0 === r && c0 === c) return { first: null, message: "Your move." };
    if (Math.abs(r0 - r) + Math.abs(c0 - c) !== 1) {
      return { first: [r, c], message: "A domino covers two neighbouring cells: click a free cell next to the first one." };
    }
    return { play: [[r0, c0], [r, c]] };
  }

  // Draws `cells` into `grid` as buttons. `o`: `name` (for labels), `placed` (Map "r,c" ->
  // "human"/"engine", Cram), `hint`, `last`, `leaving` (cells), `selected` ([r, c] or null),
  // `disabled`, `onCell(r, c)`.
  function drawGrid(grid, kind, cells, o) {
    grid.replaceChildren();
    const rows = cells.length, cols = rows ? cells[0].length : 0;
    grid.style.gridTemplateColumns = `repeat(${cols}, var(--cell))`;
    // Chomp's row 0 (the poisoned corner's) is drawn at the bottom; Cram's at the top.
    const order = [...Array(rows).keys()];
    if (kind === "chomp") order.reverse();
    for (const r of order) {
      for (let c = 0; c < cols; c++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "board-cell";
        b.dataset.r = r;
        b.dataset.c = c;
        let st = cells[r][c];
        const placed = o.placed && o.placed.get(`${r},${c}`);
        if (kind === "cram" && placed) st = placed;
        b.dataset.state = st;
        if (kind === "chomp" && r === 0 && c === 0) b.dataset.poison = "1";
        if (o.hint && has(o.hint, r, c)) b.dataset.hint = "1";
        if (o.last && has(o.last, r, c)) b.dataset.last = "1";
        if (o.leaving && has(o.leaving, r, c)) b.dataset.leaving = "1";
        if (o.selected && o.selected[0] === r && o.selected[1] === c) b.dataset.selected = "1";
        const what = st === "free" ? (b.dataset.poison ? "free, poisoned" : "free") : st === "human" ? "your domino"
          : st === "engine" ? "the engine's domino" : st;
        b.setAttribute("aria-label", `${o.name}, row ${r + 1}, column ${c + 1}: ${what}${b.dataset.hint ? ", the hint" : ""}`);
        b.disabled = !!o.disabled || cells[r][c] !== "free";
        b.addEventListener("click", () => o.onCell(r, c));
        grid.appendChild(b);
      }
    }
  }

  window.grundyBoards = { eaten, applyMove, notation, pick, drawGrid };

  // ---- the Boards section -------------------------------------------------------------------

  // The board being played: its kind, notation, cells (the whole rectangle is kept), the cells
  // of the last engine move, of a hint, and the first cell of a domino being placed.
  const board = {
    kind: "chomp", game: "", misere: false, cells: [], over: true,
    busy: false, engine: [], hint: [], first: null, placed: new Map(), leaving: [],
  };

  const setStatus = statusLine("boards-status");

  function showError(message) {
    byId("boards-error").textContent = message || "";
  }

  function outcomeText(doc) {
    const who = doc.outcome === "P" ? "the player to move loses" : "the player to move wins";
    const value = doc.value === null ? "" : `, value ${doc.value}`;
    return `${doc.outcome}${value}: ${who}${doc.misere ? " (misère play)" : ""}`;
  }

  function draw() {
    const grid = byId("boards-grid");
    drawGrid(grid, board.kind, board.cells, {
      name: board.kind === "chomp" ? "Chomp" : "Cram",
      placed: board.placed, hint: board.hint, last: board.engine, leaving: board.leaving,
      selected: board.first, disabled: board.over || board.busy, onCell: clickCell,
    });
    grid.dataset.ready = board.busy ? "0" : "1";
  }

  function take(doc) {
    board.game = doc.game;
    board.over = doc.over;
    byId("boards-outcome").textContent = outcomeText(doc);
  }

  function finish(humanMovedLast) {
    // Normal play: whoever made the last move wins; misère: loses.
    const humanWins = humanMovedLast !== board.misere;
    setStatus(humanWins ? "won" : "lost", humanWins ? "No move is left: you win." : "No move is left: the engine wins.");
  }

  // Shows the engine's move for a moment (the cells it takes), then the board after it.
  async function showReply(move) {
    board.engine = move.cells;
    if (board.kind === "cram") for (const [r, c] of move.cells) board.placed.set(`${r},${c}`, "engine");
    board.leaving = eaten(board.kind, board.cells, move.cells);
    draw();
    await sleep(REPLY_MS);
    board.cells = applyMove(board.kind, board.cells, move.cells);
    board.leaving = [];
  }

  async function play(cells) {
    board.busy = true;
    board.hint = [];
    board.first = null;
    if (board.kind === "cram") for (const [r, c] of cells) board.placed.set(`${r},${c}`, "human");
    board.cells = applyMove(board.kind, board.cells, cells);
    setStatus("thinking", "The engine is thinking…");
    draw();
    try {
      const doc = await api("/api/board/reply", { game: notation(board.kind, board.cells), misere: board.misere });
      if (doc.move) await showReply(doc.move);
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
    if (board.over || board.busy || board.cells[r][c] !== "free") return;
    const p = pick(board.kind, board.first, r, c);
    if (p.play) {
      play(p.play);
      return;
    }
    board.first = p.first;
    setStatus("playing", p.message);
    draw();
  }

  async function newBoard() {
    const kind = byId("boards-kind").value;
    const rows = Number(byId("boards-rows").value);
    const cols = Number(byId("boards-cols").value);
    const misere = byId("boards-misere").checked;
    showError("");
    try {
      const doc = await api("/api/board", { game: `${kind}:${rows}x${cols}`, misere });
      Object.assign(board, {
        kind, misere, cells: doc.cells, engine: [], hint: [], first: null, placed: new Map(),
        busy: false, leaving: [],
      });
      take(doc);
      byId("boards-todo").textContent = kind === "chomp"
        ? "Your move: click a square of chocolate to eat it and every square above and to its right; the poisoned corner (☠) cannot be eaten."
        : "Your move: click two neighbouring free cells to place a domino; whoever cannot place one loses.";
      if (byId("boards-first").value === "engine" && !doc.over) {
        draw();
        board.busy = true;
        const reply = await api("/api/board/reply", { game: doc.game, misere });
        await showReply(reply.move);
        board.busy = false;
        take(reply.board);
        if (reply.board.over) finish(false);
        else setStatus("playing", `The engine played ${reply.move.move}. Your move.`);
      } else if (doc.over) {
        finish(false);
      } else {
        setStatus("playing", "Your move.");
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
      const doc = await api("/api/board", { game: board.game, misere: board.misere });
      const m = doc.winning_moves[0];
      board.hint = m ? doc.winning_cells[0] : [];
      byId("boards-outcome").textContent = outcomeText(doc);
      setStatus("playing", m
        ? `A winning move: ${m.move} (outlined).`
        : "No winning move: every move loses against perfect play.");
      showError("");
    } catch (e) {
      showError(e.message);
    }
    draw();
  }

  // The misère box switches the rule of the board in progress.
  async function toggleMisere() {
    board.misere = byId("boards-misere").checked;
    board.hint = [];
    draw();
    if (board.over || !board.game) return;
    try {
      take(await api("/api/board", { game: board.game, misere: board.misere }));
      setStatus("playing", board.misere ? "Now misère play: whoever cannot move wins. Your move."
                                        : "Now normal play: whoever cannot move loses. Your move.");
    } catch (e) {
      showError(e.message);
    }
  }

  function init() {
    if (!byId("boards")) return;
    byId("boards-new").addEventListener("click", newBoard);
    byId("boards-hint").addEventListener("click", hint);
    byId("boards-misere").addEventListener("change", toggleMisere);
    byId("boards-kind").addEventListener("change", () => {
      const cram = byId("boards-kind").value === "cram";
      byId("boards-rows").max = cram ? 6 : 8;
      byId("boards-cols").max = cram ? 6 : 8;
    });
    // The page opens on a board in progress.
    newBoard();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
