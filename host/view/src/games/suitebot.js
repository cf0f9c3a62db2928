// SuiteBot II (games/suitebot): the torus, the points left on each field, bombs with their
// countdown, each seat's base and agent, and this turn's explosions. Fields are row-major
// (`y * width + x`).
(function () {
  // games/suitebot/src/rules.rs KILL_POINTS.
  const KILL_POINTS = 10;
  ARENA_RENDERERS.suitebot = {
    draw(ctx, state, data, turn) {
      const { width, height } = state.config, cell = gridCanvas(ctx, width, height, 520);
      const peak = Math.max(1, ...state.points);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          ctx.fillStyle = "#fafafa";
          ctx.fillRect(x * cell, y * cell, cell, cell);
          ctx.strokeStyle = "#e0e0e0";
          ctx.strokeRect(x * cell + 0.5, y * cell + 0.5, cell - 1, cell - 1);
          const points = state.points[y * width + x];
          if (points > 0) {
            ctx.beginPath();
            ctx.arc((x + 0.5) * cell, (y + 0.5) * cell, 2 + (cell / 6) * (points / peak), 0, 2 * Math.PI);
            ctx.fillStyle = "#7cb342";
            ctx.fill();
          }
        }
      }
      for (const event of turnEvents(data, turn)) {
        if (!event.Exploded) continue;
        for (const bomb of event.Exploded.bombs) {
          const r = state.config.blast_radius;
          ctx.fillStyle = "rgba(255, 152, 0, 0.35)";
          for (let dx = -r; dx <= r; dx++) {
            for (let dy = -r; dy <= r; dy++) {
              const x = (((bomb.at.x + dx) % width) + width) % width, y = (((bomb.at.y + dy) % height) + height) % height;
              ctx.fillRect(x * cell, y * cell, cell, cell);
            }
          }
        }
      }
      state.players.forEach((player, seat) => {
        ctx.strokeStyle = SEAT_COLOURS[seat % SEAT_COLOURS.length];
        ctx.lineWidth = 3;
        ctx.strokeRect(player.base.x * cell + 2, player.base.y * cell + 2, cell - 4, cell - 4);
        ctx.lineWidth = 1;
      });
      for (const bomb of state.bombs) {
        const x = (bomb.at.x + 0.5) * cell, y = (bomb.at.y + 0.5) * cell;
        ctx.beginPath(); ctx.arc(x, y, cell * 0.3, 0, 2 * Math.PI);
        ctx.fillStyle = "#212121"; ctx.fill();
        ctx.strokeStyle = SEAT_COLOURS[bomb.owner % SEAT_COLOURS.length]; ctx.lineWidth = 2; ctx.stroke(); ctx.lineWidth = 1;
        ctx.fillStyle = "#fff"; ctx.font = "bold 11px sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
        ctx.fillText(String(bomb.countdown), x, y + 1);
        ctx.textAlign = "start"; ctx.textBaseline = "alphabetic";
      }
      state.players.forEach((player, seat) => seatDisc(ctx, (player.agent.x + 0.5) * cell, (player.agent.y + 0.5) * cell, cell * 0.36, seat, seat));
      caption(ctx, "round " + state.played + " of " + state.config.rounds);
    },
    // Points mined plus KILL_POINTS per kill (games/suitebot/src/game.rs `Player::score`).
    scores(state) {
      return state.players.map((player) => player.mined + KILL_POINTS * player.kills);
    },
  };
})();
