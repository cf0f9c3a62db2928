//! An Azul bot written as an ordinary Zig program: it speaks the arena's Azul text protocol on
//! stdin/stdout (docs/games/azul.md, "Original protocol"), asks for the whole state every turn,
//! and plays greedily: the legal move that scores the most points right now (a pattern line it
//! completes goes to the wall) after the floor penalty it causes, the move placing more tiles on
//! a tie. Run it as `zig run main.zig`; `cargo xtask build-bot bots-examples/azul-stdio-zig`
//! builds the same program for wasm32-wasi, a bot the arena runs. Standard library only.

const std = @import("std");

/// The colour letters in the game's order: tiles are written as these letters.
const colours = "gobyr";

/// Points lost by each floor slot, left to right; tiles past the seventh slot are discarded.
const floor_penalties = [7]i32{ 1, 1, 2, 2, 2, 3, 3 };

const PatternLine = struct {
    count: u8 = 0,
    /// Index into `colours`; null when the line is empty.
    colour: ?u8 = null,
};

const Board = struct {
    /// Line i holds up to i + 1 tiles of one colour.
    lines: [5]PatternLine = @splat(.{}),
    /// wall[row][column]: whether a tile lies there.
    wall: [5][5]bool = @splat(@splat(false)),
    /// Occupied floor slots, the starting-player marker included.
    floor: u8 = 0,
};

/// One move: source (0 = center, 1..5 = factories), colour index, line (0..4, 5 = the floor).
const Move = struct { source: u8, colour: u8, line: u8 };

/// What the bot knows of the game: the last message's state lines.
const State = struct {
    seat: usize = 0,
    /// Tiles per colour: index 0 = center, 1..5 = factories.
    sources: [6][5]u8 = @splat(@splat(0)),
    marker_in_center: bool = true,
    boards: [2]Board = @splat(.{}),

    /// Takes one line of the host's message into the state; true on `go`, the end of a message:
    /// time to answer. Lines the bot does not need (`turn`, `round`, `last`, ...) are skipped.
    fn apply(s: *State, line: []const u8) bool {
        var fields = std.mem.tokenizeScalar(u8, line, ' ');
        const key = fields.next() orelse return false;
        if (std.mem.eql(u8, key, "go")) return true;
        if (std.mem.eql(u8, key, "azul")) {
            s.seat = number(fields.next()) % 2;
        } else if (std.mem.eql(u8, key, "factories")) {
            for (1..6) |i| s.sources[i] = counts(fields.next() orelse "-");
        } else if (std.mem.eql(u8, key, "center")) {
            s.sources[0] = counts(fields.next() orelse "-");
        } else if (std.mem.eql(u8, key, "marker")) {
            s.marker_in_center = std.mem.eql(u8, fields.next() orelse "", "center");
        } else if (std.mem.eql(u8, key, "board")) {
            // board <seat> <score> <floor> <wall> <l0> .. <l4>
            const board = &s.boards[number(fields.next()) % 2];
            _ = fields.next(); // the score
            board.floor = @intCast(@min(number(fields.next()), 7));
            var rows = std.mem.splitScalar(u8, fields.next() orelse "", '/');
            for (&board.wall) |*row| {
                const cells = rows.next() orelse "";
                for (row, 0..) |*cell, column| cell.* = column < cells.len and cells[column] != '.';
            }
            for (&board.lines) |*pattern| {
                const tiles = fields.next() orelse "-";
                const colour = std.mem.indexOfScalar(u8, colours, tiles[0]);
                pattern.* = if (colour) |c| .{ .count = @intCast(tiles.len), .colour = @intCast(c) } else .{};
            }
        }
        return false;
    }

    fn legal(s: *const State, m: Move) bool {
        if (s.sources[m.source][m.colour] == 0) return false;
        if (m.line == 5) return true; // the floor takes anything
        const board = &s.boards[s.seat];
        const pattern = board.lines[m.line];
        return pattern.count < m.line + 1 and
            (pattern.colour == null or pattern.colour.? == m.colour) and
            !board.wall[m.line][wallColumn(m.line, m.colour)];
    }

    /// The points this move makes now: a completed pattern line's tile scored on the wall, minus
    /// the floor penalty of the tiles that do not fit (and of the marker, taken from the center).
    fn gain(s: *const State, m: Move) i32 {
        const board = &s.boards[s.seat];
        const taken = s.sources[m.source][m.colour];
        var overflow: u8 = taken;
        var points: i32 = 0;
        if (m.line < 5) {
            const room = m.line + 1 - board.lines[m.line].count;
            overflow = taken -| room;
            if (taken >= room) points = wallPoints(board, m.line, wallColumn(m.line, m.colour));
        }
        const marker: u8 = @intFromBool(m.source == 0 and s.marker_in_center);
        return points - penalty(board.floor + overflow + marker) + penalty(board.floor);
    }
};

/// The column of `colour` on wall row `row`: each row is the colour order shifted by one.
fn wallColumn(row: u8, colour: u8) usize {
    return (@as(usize, colour) + row) % 5;
}

/// The points of a tile laid on (row, column): the runs of tiles it joins across and down.
fn wallPoints(board: *const Board, row: usize, column: usize) i32 {
    var across: i32 = 1;
    var c = column;
    while (c > 0 and board.wall[row][c - 1]) : (c -= 1) across += 1;
    c = column;
    while (c < 4 and board.wall[row][c + 1]) : (c += 1) across += 1;
    var down: i32 = 1;
    var r = row;
    while (r > 0 and board.wall[r - 1][column]) : (r -= 1) down += 1;
    r = row;
    while (r < 4 and board.wall[r + 1][column]) : (r += 1) down += 1;
    if (across == 1) return down;
    if (down == 1) return across;
    return across + down;
}

/// The penalty of `slots` occupied floor slots.
fn penalty(slots: u8) i32 {
    var total: i32 = 0;
    for (floor_penalties[0..@min(slots, 7)]) |p| total += p;
    return total;
}

/// Tiles per colour in a protocol tile string such as `bbyr` (`-` for none).
fn counts(tiles: []const u8) [5]u8 {
    var result: [5]u8 = @splat(0);
    for (tiles) |letter| {
        if (std.mem.indexOfScalar(u8, colours, letter)) |c| result[c] += 1;
    }
    return result;
}

/// A field as a number, 0 when it is missing or not one.
fn number(field: ?[]const u8) usize {
    return std.fmt.parseInt(usize, field orelse "", 10) catch 0;
}

/// The legal move of the greatest gain, then of the most tiles kept off the floor; the first in
/// the order source, colour, line on a tie. Null when there is none (the host never asks then).
fn choose(s: *const State) ?Move {
    var best: ?Move = null;
    var best_value: i32 = 0;
    for (0..6) |source| for (0..5) |colour| for (0..6) |line| {
        const m: Move = .{ .source = @intCast(source), .colour = @intCast(colour), .line = @intCast(line) };
        if (!s.legal(m)) continue;
        const kept: i32 = if (m.line == 5) 0 else @min(s.sources[source][colour], m.line + 1 - s.boards[s.seat].lines[line].count);
        const value = 10 * s.gain(m) + kept;
        if (best == null or value > best_value) {
            best = m;
            best_value = value;
        }
    };
    return best;
}

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    var stdin_buffer: [4096]u8 = undefined;
    var stdin_reader: std.Io.File.Reader = .init(.stdin(), io, &stdin_buffer);
    const stdin = &stdin_reader.interface;
    var stdout_buffer: [256]u8 = undefined;
    var stdout_writer: std.Io.File.Writer = .init(.stdout(), io, &stdout_buffer);
    const stdout = &stdout_writer.interface;

    // The mode first: the whole state in every message.
    try stdout.writeAll("state\n");
    try stdout.flush(); // the host waits for the line: flush after every answer

    var state: State = .{};
    while (try stdin.takeDelimiter('\n')) |line| {
        if (!state.apply(line)) continue;
        // No legal move cannot happen; the floor move keeps the answer well formed all the same.
        const m = choose(&state) orelse Move{ .source = 0, .colour = 0, .line = 5 };
        try stdout.print("{d} {c} {d}\n", .{ m.source, colours[m.colour], m.line });
        try stdout.flush();
    }
}
