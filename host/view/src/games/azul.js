// Azul (games/azul): factories and the center on top, then each seat's pattern lines, wall,
// floor line and score. Reads the engine's state as it serialises (games/azul/src/game.rs).
(function () {
  // Colour order of every per-colour array (COLOURS in games/azul/src/colour.rs).
  const COLOURS = ["Green", "Orange", "Blue", "Yellow", "Red"];
  const FILL = { Green: "#43a047", Orange: "#fb8c00", Blue: "#1e88e5", Yellow: "#fdd835", Red: "#e53935" };
  const PALE = { Green: "#c8e6c9", Orange: "#ffe0b2", Blue: "#bbdefb", Yellow: "#fff9c4", Red: "#ffcdd2" };
  const TILE = 22, GAP = 3;
  // The colour of wall cell (row, col): rules::wall_colour.
  const wallColour = (row, col) => COLOURS[((col % 5) + 5 - (row % 5)) % 5];

  function tile(ctx, x, y, colour, size) {
    ctx.fillStyle = colour ? FILL[colour] : "#eee";
    ctx.fillRect(x, y, size, size);
    ctx.strokeStyle = "#666";
    ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1);
  }
  function marker(ctx, x, y, size) {
    ctx.fillStyle = "#fff";
    ctx.fillRect(x, y, size, size);
    ctx.strokeStyle = "#000";
    ctx.strokeRect(x + 0.5, y + 0.5, size - 1, size - 1);
    ctx.fillStyle = "#000";
    ctx.font = "bold 13px sans-serif";
    ctx.fillText("1", x + size / 2 - 4, y + size / 2 + 5);
  }
  // A multiset of tiles (counts per colour) laid out in rows of `perRow`.
  function counts(ctx, x, y, perColour, perRow, size) {
    let i = 0;
    perColour.forEach((n, c) => {
      for (let k = 0; k < n; k++, i++) tile(ctx, x + (i % perRow) * (size + 2), y + Math.floor(i / perRow) * (size + 2), COLOURS[c], size);
    });
    return i;
  }

  function drawBoard(ctx, board, x, y, name, seat, toMove) {
    ctx.fillStyle = SEAT_COLOURS[seat];
    ctx.font = (toMove ? "bold " : "") + "14px sans-serif";
    ctx.fillText((toMove ? "\u25B6 " : "") + name + ": " + board.score, x, y - 6);
    // Pattern lines: line r holds r + 1 tiles, filled from the right.
    board.lines.forEach((line, r) => {
      for (let k = 0; k <= r; k++) {
        const filled = k < line.count;
        tile(ctx, x + (4 - k) * (TILE + GAP), y + r * (TILE + GAP), filled ? line.colour : null, TILE);
      }
    });
    // Wall.
    const wx = x + 5 * (TILE + GAP) + 12;
    board.wall.forEach((row, r) => row.forEach((placed, c) => {
      const colour = wallColour(r, c);
      ctx.fillStyle = placed ? FILL[colour] : PALE[colour];
      ctx.fillRect(wx + c * (TILE + GAP), y + r * (TILE + GAP), TILE, TILE);
      ctx.strokeStyle = placed ? "#333" : "#bbb";
      ctx.strokeRect(wx + c * (TILE + GAP) + 0.5, y + r * (TILE + GAP) + 0.5, TILE - 1, TILE - 1);
    }));
    // Floor line: seven slots with their penalties.
    const PENALTIES = [-1, -1, -2, -2, -2, -3, -3];
    const fy = y + 5 * (TILE + GAP) + 8;
    ctx.font = "10px sans-serif";
    for (let s = 0; s < 7; s++) {
      const slot = board.floor[s];
      const fx = x + s * (TILE + GAP);
      if (slot === "Marker") marker(ctx, fx, fy, TILE);
      else tile(ctx, fx, fy, slot ? slot.Tile : null, TILE);
      ctx.fillStyle = "#555";
      ctx.fillText(String(PENALTIES[s]), fx + 5, fy + TILE + 11);
    }
  }

  ARENA_RENDERERS.azul = {
    draw(ctx, state, data) {
      const canvas = ctx.canvas;
      canvas.width = 640;
      canvas.height = 400;
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = "#333";
      ctx.font = "13px sans-serif";
      ctx.fillText("round " + state.round + (state.end ? " \u2014 game over" : ""), 10, 16);
      // Factories: five discs of up to four tiles.
      state.factories.forEach((factory, f) => {
        const cx = 50 + f * 92, cy = 62;
        ctx.beginPath();
        ctx.arc(cx, cy, 36, 0, 2 * Math.PI);
        ctx.fillStyle = "#f5f0e6";
        ctx.fill();
        ctx.strokeStyle = "#999";
        ctx.stroke();
        counts(ctx, cx - TILE - 1, cy - TILE - 1, factory, 2, TILE);
        ctx.fillStyle = "#777";
        ctx.font = "10px sans-serif";
        ctx.fillText(String(f + 1), cx - 3, cy + 48);
      });
      // The center (source 0) and the first-player marker while nobody holds it.
      const centerX = 480, centerY = 28;
      ctx.fillStyle = "#333";
      ctx.font = "12px sans-serif";
      ctx.fillText("center", centerX, centerY - 6);
      const inCenter = counts(ctx, centerX, centerY, state.center, 6, 18);
      if (state.marker_holder === null) marker(ctx, centerX + (inCenter % 6) * 20, centerY + Math.floor(inCenter / 6) * 20, 18);
      const over = state.end !== null;
      state.boards.forEach((board, seat) =>
        drawBoard(ctx, board, 10 + seat * 320, 160, data.bots[seat], seat, !over && state.to_move === seat));
    },
    scores(state) {
      return state.boards.map((board) => board.score);
    },
  };
})();
