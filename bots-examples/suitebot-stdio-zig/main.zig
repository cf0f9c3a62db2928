//! A SuiteBot II bot written as an ordinary Zig program: it reads one JSON object per round on
//! stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original protocol. It
//! walks towards the richest fields, plants a bomb where the blast would clear several points,
//! and keeps out of the way of bombs about to explode. It reads the board as the option
//! `board=strings` writes it: each column one string of digits. Run it as `zig run main.zig`;
//! `cargo xtask build-bot bots-examples/suitebot-stdio-zig` builds the same program for
//! wasm32-wasi, a bot the arena runs. Standard library only.

const std = @import("std");

const Point = struct { x: i64, y: i64 };

const Player = struct {
    resources: i64,
    agentLocation: Point,
};

/// One round's object. The board fields are indexed [x][y], column first, one string per column:
/// fieldResources[x][y] is the points left on (x, y), '0' or '1'; fieldBombs[x][2y] and [2y+1]
/// are the bomb on (x, y), its owner's id digit then its countdown digit, or ".." for none.
const State = struct {
    aiPlayerId: i64,
    currentRound: i64,
    /// This round included.
    remainingRounds: i64,
    gamePlanWidth: i64,
    gamePlanHeight: i64,
    players: std.json.ArrayHashMap(Player),
    fieldResources: []const []const u8,
    fieldBombs: []const []const u8,

    /// The board is a torus: leaving one edge enters the opposite one.
    fn wrapX(s: *const State, x: i64) usize {
        return @intCast(@mod(x, s.gamePlanWidth));
    }

    fn wrapY(s: *const State, y: i64) usize {
        return @intCast(@mod(y, s.gamePlanHeight));
    }

    /// The points a bomb planted on (x, y) would clear.
    fn blastValue(s: *const State, x: i64, y: i64) i64 {
        var total: i64 = 0;
        var dx: i64 = -blast_radius;
        while (dx <= blast_radius) : (dx += 1) {
            var dy: i64 = -blast_radius;
            while (dy <= blast_radius) : (dy += 1) {
                total += s.fieldResources[s.wrapX(x + dx)][s.wrapY(y + dy)] - '0';
            }
        }
        return total;
    }

    /// The bombs within `radius` fields of (x, y) (Chebyshev distance, on the torus), as offsets
    /// from it, into `found`; returns how many there are.
    fn bombsAround(s: *const State, x: i64, y: i64, comptime radius: i64, found: []NearBomb) usize {
        var n: usize = 0;
        var dx: i64 = -radius;
        while (dx <= radius) : (dx += 1) {
            var dy: i64 = -radius;
            while (dy <= radius) : (dy += 1) {
                const countdown = s.fieldBombs[s.wrapX(x + dx)][2 * s.wrapY(y + dy) + 1];
                if (countdown == '.') continue;
                found[n] = .{ .dx = dx, .dy = dy, .countdown = countdown - '0' };
                n += 1;
            }
        }
        return n;
    }
};

/// A bomb at offset (dx, dy) from the agent.
const NearBomb = struct { dx: i64, dy: i64, countdown: i64 };

/// The moves the bot walks with, and their offsets: index i of each array is one move. Y grows
/// downwards: UP is (0, -1).
const letters = "UDLRH";
const move_dx = [5]i64{ 0, 0, -1, 1, 0 };
const move_dy = [5]i64{ -1, 1, 0, 0, 0 };

/// The game's default: a bomb clears the 3 x 3 square around it.
const blast_radius = 1;
/// How many rounds a bomb ticks: it explodes in the fourth round after planting.
const fuse = 4;

/// What the bot keeps between rounds: the process lives for the whole match.
const Memory = struct {
    heading: u8 = 'R',
    /// The round of our last bomb.
    planted_in: i64 = -fuse - 1,
};

/// The heading after a right turn.
fn turnRight(heading: u8) u8 {
    return switch (heading) {
        'R' => 'D',
        'D' => 'L',
        'L' => 'U',
        else => 'R',
    };
}

/// How bad it is to stand (dx, dy) away from the agent after this round's moves: bombs closer
/// to exploding weigh more, and so do bombs closer to the field.
fn danger(bombs: []const NearBomb, dx: i64, dy: i64) i64 {
    var total: i64 = 0;
    for (bombs) |b| {
        const distance: i64 = @intCast(@max(@abs(b.dx - dx), @abs(b.dy - dy)));
        if (distance <= blast_radius) total += (5 - b.countdown) * 100 + (blast_radius + 1 - distance) * 10;
    }
    return total;
}

/// Picks one move: safety first, then points, else keep exploring.
fn choose(s: *const State, memory: *Memory) u8 {
    var id_buffer: [20]u8 = undefined;
    const id = std.fmt.bufPrint(&id_buffer, "{d}", .{s.aiPlayerId}) catch unreachable;
    const me = s.players.map.get(id) orelse return 'H';
    const x = me.agentLocation.x;
    const y = me.agentLocation.y;
    // Every bomb whose blast could reach a field the agent can step onto.
    var near: [25]NearBomb = undefined;
    const bombs = near[0..s.bombsAround(x, y, blast_radius + 1, &near)];

    // Plant where the blast clears several points, when no bomb of ours is ticking (time enough
    // to walk two fields away before it explodes) and the bomb would explode before the end.
    if (s.currentRound - memory.planted_in > fuse and s.blastValue(x, y) >= 4 and
        danger(bombs, 0, 0) == 0 and s.remainingRounds > fuse)
    {
        memory.planted_in = s.currentRound;
        return 'B';
    }

    // Change heading now and then, so that an agent in cleared land explores.
    if (@mod(s.currentRound, 7) == 0) memory.heading = turnRight(memory.heading);

    var best: usize = 0;
    var best_score: i64 = 0;
    for (letters, 0..) |letter, i| {
        var score = 2 * s.blastValue(x + move_dx[i], y + move_dy[i]) - danger(bombs, move_dx[i], move_dy[i]);
        if (letter == memory.heading) score += 1;
        if (i == 0 or score > best_score) {
            best = i;
            best_score = score;
        }
    }
    if (letters[best] != 'H') memory.heading = letters[best];
    return letters[best];
}

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    const gpa = init.gpa;

    // The default board's line is about 1 KB; the largest board the game allows (100 x 100)
    // sends about 31 KB.
    var stdin_buffer: [64 * 1024]u8 = undefined;
    var stdin_reader: std.Io.File.Reader = .init(.stdin(), io, &stdin_buffer);
    const stdin = &stdin_reader.interface;
    var stdout_buffer: [64]u8 = undefined;
    var stdout_writer: std.Io.File.Writer = .init(.stdout(), io, &stdout_buffer);
    const stdout = &stdout_writer.interface;

    var memory: Memory = .{};
    while (try stdin.takeDelimiter('\n')) |line| {
        if (line.len == 0) continue;
        const parsed = std.json.parseFromSlice(State, gpa, line, .{ .ignore_unknown_fields = true }) catch |err| {
            // stderr is the bot's log; a round without an answer is a HOLD.
            std.log.warn("skipping a line that is not a round: {t}", .{err});
            continue;
        };
        defer parsed.deinit();
        try stdout.print("{c}\n", .{choose(&parsed.value, &memory)});
        try stdout.flush(); // the host waits for the line: flush after every answer
    }
}
