//! A Paint bot written as an ordinary Zig program: it reads the game's states as JSON lines on
//! stdin and prints its moves on stdout (Paint's original protocol). It walks to the nearest
//! square that is not its colour, and now and then shoots an opponent standing in line with it.
//! Run it as `zig run main.zig`; `cargo xtask build-bot bots-examples/paint-stdio-zig` builds
//! the same program for wasm32-wasi, a bot the arena runs. Standard library only.

const std = @import("std");

/// The host's first line, {"player_id":"a"}: the id is also our colour on the board.
const Greeting = struct {
    player_id: []const u8,
};

/// One turn's line. Fields the bot does not use (previous_actions) have no field here: the parser
/// skips them (`ignore_unknown_fields`).
const State = struct {
    width: i64,
    height: i64,
    player_positions: std.json.ArrayHashMap([2]i64),
    /// colors[i][j] is the id owning square [i, j], null when unpainted.
    colors: []const []const ?[]const u8,
    turns_left: i64,
    /// Only sent when the match has obstacles: squares nobody can enter or paint.
    obstacles: []const [2]i64 = &.{},

    fn onBoard(s: *const State, i: i64, j: i64) bool {
        return 0 <= i and i < s.height and 0 <= j and j < s.width;
    }

    fn index(s: *const State, i: i64, j: i64) usize {
        return @intCast(i * s.width + j);
    }
};

/// The reply line. turns_left must echo the state's: it is the nonce that ties the answer to the
/// state it answers.
const Answer = struct {
    turns_left: i64 = 0,
    type: []const u8,
    direction: [2]i64,
};

/// The 8 king moves [di, dj], di the row delta, in a fixed order so that the bot plays the same
/// match the same way.
const directions = [8][2]i64{ .{ -1, 0 }, .{ -1, 1 }, .{ 0, 1 }, .{ 1, 1 }, .{ 1, 0 }, .{ 1, -1 }, .{ 0, -1 }, .{ -1, -1 } };

/// Room for the longest line: previous_actions grows every turn unless the match sends only the
/// last turn's; a line longer than this is error.StreamTooLong.
var stdin_buffer: [1 << 20]u8 = undefined;

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    const gpa = init.gpa;

    var stdin_reader: std.Io.File.Reader = .init(.stdin(), io, &stdin_buffer);
    const stdin = &stdin_reader.interface;
    var stdout_buffer: [1024]u8 = undefined;
    var stdout_writer: std.Io.File.Writer = .init(.stdout(), io, &stdout_buffer);
    const stdout = &stdout_writer.interface;

    const first = try stdin.takeDelimiter('\n') orelse return;
    // The id outlives the line (the next read reuses the buffer): keep a copy in the arena.
    const hello = try std.json.parseFromSliceLeaky(Greeting, init.arena.allocator(), first, .{
        .ignore_unknown_fields = true,
        .allocate = .alloc_always,
    });
    const me = hello.player_id;
    try stdout.writeAll("{\"ready\":true}\n");
    try stdout.flush(); // the host waits for the line: flush after every answer

    while (try stdin.takeDelimiter('\n')) |line| {
        const parsed = std.json.parseFromSlice(State, gpa, line, .{ .ignore_unknown_fields = true }) catch |err| {
            // stderr is the bot's log; a turn without an answer is a turn standing still.
            std.log.warn("skipping a line that is not a state: {t}", .{err});
            continue;
        };
        defer parsed.deinit();
        var answer = try choose(gpa, &parsed.value, me);
        answer.turns_left = parsed.value.turns_left;
        try std.json.Stringify.value(answer, .{}, stdout);
        try stdout.writeByte('\n');
        try stdout.flush();
    }
}

/// Shoots an opponent in line every third turn (a shot paints a line of squares and can stop an
/// opponent's), and otherwise walks towards the nearest square still to paint: the walker's square
/// is painted on arrival.
fn choose(gpa: std.mem.Allocator, s: *const State, me: []const u8) !Answer {
    const aim = opponentInLine(s, me);
    if (aim != null and @mod(s.turns_left, 3) == 0) {
        return .{ .type = "shoot", .direction = aim.? };
    }
    if (try firstStepToPaint(gpa, s, me)) |step| {
        return .{ .type = "walk", .direction = step };
    }
    // Every reachable square is ours already: a shot is the only move that can paint more.
    return .{ .type = "shoot", .direction = aim orelse .{ 1, 0 } };
}

/// The first step of a shortest walk from our square to the nearest square that is not our colour
/// (breadth first, directions in a fixed order); null when every reachable square is ours.
fn firstStepToPaint(gpa: std.mem.Allocator, s: *const State, me: []const u8) !?[2]i64 {
    const start = s.player_positions.map.get(me) orelse return null;
    if (!s.onBoard(start[0], start[1])) return null;
    const Node = struct { i: i64, j: i64, first: ?usize };

    const seen = try gpa.alloc(bool, @intCast(s.width * s.height));
    defer gpa.free(seen);
    @memset(seen, false);
    for (s.obstacles) |o| {
        if (s.onBoard(o[0], o[1])) seen[s.index(o[0], o[1])] = true; // a walk into an obstacle is dropped
    }
    // Every square enters the queue at most once: a slice of the board's size holds them all.
    const queue = try gpa.alloc(Node, seen.len);
    defer gpa.free(queue);
    var head: usize = 0;
    var tail: usize = 0;
    seen[s.index(start[0], start[1])] = true;
    queue[tail] = .{ .i = start[0], .j = start[1], .first = null };
    tail += 1;
    while (head < tail) : (head += 1) {
        const n = queue[head];
        if (n.first) |first| {
            const owner = s.colors[@intCast(n.i)][@intCast(n.j)];
            if (owner == null or !std.mem.eql(u8, owner.?, me)) return directions[first];
        }
        for (directions, 0..) |d, k| {
            const i = n.i + d[0];
            const j = n.j + d[1];
            if (!s.onBoard(i, j) or seen[s.index(i, j)]) continue;
            seen[s.index(i, j)] = true;
            queue[tail] = .{ .i = i, .j = j, .first = n.first orelse k };
            tail += 1;
        }
    }
    return null;
}

/// The direction of an opponent standing on a straight or diagonal line from our square, if any.
/// The map keeps the line's order, which is the seat order: the same match plays the same way.
fn opponentInLine(s: *const State, me: []const u8) ?[2]i64 {
    const mine = s.player_positions.map.get(me) orelse return null;
    var it = s.player_positions.map.iterator();
    while (it.next()) |entry| {
        if (std.mem.eql(u8, entry.key_ptr.*, me)) continue;
        const other = entry.value_ptr.*;
        const di = other[0] - mine[0];
        const dj = other[1] - mine[1];
        if ((di == 0) != (dj == 0) or (di != 0 and (di == dj or di == -dj))) {
            return .{ std.math.sign(di), std.math.sign(dj) };
        }
    }
    return null;
}
