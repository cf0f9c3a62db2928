// Code Character 2020 (games/code-character): terrain and flag tiles, each seat's bots (by
// position, fading with hp) and towers (with an hp bar), and this turn's blasts. The map is
// indexed [x][y]; positions are in tiles (a tile's centre is x + 0.5). The engine stores each
// seat's units in that seat's own mirrored frame (games/code-character/src/perspective.rs):
// seat 1's position p is drawn at (30 - x, 30 - y), its tile [i][j] at [29 - i][29 - j]. Events
// are in seat 0's frame already.
(function () {
  const TERRAIN = { L: "#dcedc8", W: "#90caf9", F: "#ffe082" };
  ARENA_RENDERERS["code-character"] = {
    draw(ctx, state, data, turn) {
      const size = state.map.length, cell = gridCanvas(ctx, size, size, 540);
      state.map.forEach((column, x) => {
        for (let y = 0; y < column.length; y++) {
          ctx.fillStyle = TERRAIN[column[y]] || "#bdbdbd";
          ctx.fillRect(x * cell, y * cell, cell, cell);
        }
      });
      const mirrored = (seat, x, y, far) => (seat === 0 ? [x, y] : [far - x, far - y]);
      state.players.forEach((player, seat) => {
        for (const tower of player.towers) {
          const [tx, ty] = mirrored(seat, tower.tile.x, tower.tile.y, size - 1);
          const x = tx * cell, y = ty * cell;
          ctx.fillStyle = SEAT_COLOURS[seat];
          ctx.fillRect(x + 2, y + 2, cell - 4, cell - 4);
          ctx.fillStyle = "#000";
          ctx.fillRect(x + 2, y, (cell - 4) * Math.min(1, tower.hp / 600), 2);
        }
        for (const bot of player.bots) {
          ctx.globalAlpha = 0.35 + 0.65 * Math.min(1, bot.hp / 200);
          const [x, y] = mirrored(seat, bot.pos.x, bot.pos.y, size);
          seatDisc(ctx, x * cell, y * cell, cell * 0.28, seat);
          ctx.globalAlpha = 1;
        }
      });
      for (const event of turnEvents(data, turn)) {
        const blast = event.BotBlasted ? event.BotBlasted.at : event.TowerBlasted ? { x: event.TowerBlasted.tile.x + 0.5, y: event.TowerBlasted.tile.y + 0.5 } : null;
        if (!blast) continue;
        ctx.beginPath();
        ctx.arc(blast.x * cell, blast.y * cell, cell * 1.5, 0, 2 * Math.PI);
        ctx.strokeStyle = "#ff6f00";
        ctx.lineWidth = 2;
        ctx.stroke();
        ctx.lineWidth = 1;
      }
      const units = state.players.map((p, seat) => data.bots[seat] + ": " + p.bots.length + " bots, " + p.towers.length + " towers").join("; ");
      caption(ctx, "turn " + state.turn + " of " + state.turns + " \u2014 " + units);
    },
    // The engine keeps the scores (games/code-character/src/game.rs `scores`).
    scores(state) {
      return state.scores;
    },
  };
})();
