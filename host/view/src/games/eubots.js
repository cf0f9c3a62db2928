// Eubots (games/eubots): the grid with its walls and every living unit by owner, with its
// defence, and this turn's attacks. Positions are 1-based; squares are column-major
// (`(x - 1) * height + (y - 1)`, games/eubots/src/grid.rs).
(function () {
  ARENA_RENDERERS.eubots = {
    draw(ctx, state, data, turn) {
      const grid = state.grid, cell = gridCanvas(ctx, grid.width, grid.height, 600);
      for (let x = 1; x <= grid.width; x++) {
        for (let y = 1; y <= grid.height; y++) {
          const square = grid.squares[(x - 1) * grid.height + (y - 1)];
          ctx.fillStyle = square === "Wall" ? "#455a64" : "#fafafa";
          ctx.fillRect((x - 1) * cell, (y - 1) * cell, cell, cell);
        }
      }
      ctx.strokeStyle = "#eee";
      for (let x = 0; x <= grid.width; x++) { ctx.beginPath(); ctx.moveTo(x * cell + 0.5, 0); ctx.lineTo(x * cell + 0.5, grid.height * cell); ctx.stroke(); }
      for (let y = 0; y <= grid.height; y++) { ctx.beginPath(); ctx.moveTo(0, y * cell + 0.5); ctx.lineTo(grid.width * cell, y * cell + 0.5); ctx.stroke(); }
      const centre = (pos) => [(pos.x - 0.5) * cell, (pos.y - 0.5) * cell];
      for (const unit of state.units) {
        if (unit === null) continue;
        const [x, y] = centre(unit.pos);
        seatDisc(ctx, x, y, cell * 0.42, unit.owner, unit.defence);
      }
      // Attacks of this turn: a cross where a blow landed or missed.
      for (const event of turnEvents(data, turn)) {
        const [kind] = Object.keys(event);
        const at = event[kind] && event[kind].at;
        if (!at) continue;
        const [x, y] = centre(at);
        ctx.strokeStyle = kind === "Missed" ? "#9e9e9e" : "#000";
        ctx.beginPath(); ctx.moveTo(x - cell / 3, y - cell / 3); ctx.lineTo(x + cell / 3, y + cell / 3);
        ctx.moveTo(x + cell / 3, y - cell / 3); ctx.lineTo(x - cell / 3, y + cell / 3); ctx.stroke();
      }
      const counts = this.scores(state).map((n, seat) => data.bots[seat] + ": " + n + " units").join(", ");
      caption(ctx, "turn " + state.turns_played + " \u2014 " + counts + (state.end ? " \u2014 " + state.end.reason : ""));
    },
    // A seat's score is its units still alive (games/eubots/src/rules.rs `scores`).
    scores(state) {
      const counts = new Array(state.players).fill(0);
      for (const unit of state.units) if (unit !== null && unit.owner < counts.length) counts[unit.owner]++;
      return counts;
    },
  };
})();
