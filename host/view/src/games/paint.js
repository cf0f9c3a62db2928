// Paint (games/paint): the grid coloured by owner, obstacles, both avatars, and this turn's
// shots. Squares are row-major (`row * width + col`); positions are [row, col].
(function () {
  ARENA_RENDERERS.paint = {
    draw(ctx, state, data, turn) {
      const board = state.board, cell = gridCanvas(ctx, board.width, board.height, 480);
      for (let row = 0; row < board.height; row++) {
        for (let col = 0; col < board.width; col++) {
          const index = row * board.width + col, owner = board.colors[index];
          ctx.fillStyle = board.blocked[index] ? "#455a64" : owner === null ? "#fafafa" : SEAT_SHADES[owner];
          ctx.fillRect(col * cell, row * cell, cell, cell);
          ctx.strokeStyle = "#ddd";
          ctx.strokeRect(col * cell + 0.5, row * cell + 0.5, cell - 1, cell - 1);
        }
      }
      const centre = ([row, col]) => [col * cell + cell / 2, row * cell + cell / 2];
      for (const event of turnEvents(data, turn)) {
        if (!event.Shot) continue;
        const shot = event.Shot, [x0, y0] = centre(shot.from), [x1, y1] = centre(shot.stopped_at);
        ctx.strokeStyle = SEAT_COLOURS[shot.seat];
        ctx.lineWidth = 3;
        ctx.setLineDash([6, 4]);
        ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1); ctx.stroke();
        ctx.setLineDash([]);
        ctx.lineWidth = 1;
      }
      state.positions.forEach((position, seat) => {
        const [x, y] = centre(position);
        seatDisc(ctx, x, y, cell * 0.35, seat, seat);
      });
      caption(ctx, state.turns_left + " turns left");
    },
    // A seat's score is the squares of its colour (games/paint/src/rules.rs `scores`).
    scores(state) {
      return state.positions.map((_, seat) => state.board.colors.filter((owner) => owner === seat).length);
    },
  };
})();
