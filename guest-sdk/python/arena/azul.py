"""Azul bots in Python: the view a bot reads, the moves it returns, the rules, and the export glue.

A bot subclasses ``Bot``, implements ``act(self, view)`` returning a ``Move``, and exports itself
from its ``app.py`` with ``Player = export(MyBot)`` (componentize-py looks for ``app.Player``).

The rule helpers mirror the engine's (``games/azul/src/rules.rs`` and ``view.rs``) function for
function, in the same order, so ``view.legal_moves()`` lists exactly the moves the Rust SDK lists,
in the same order, and ``score_if_placed`` and ``fallback_move`` agree with the referee.

Colour order everywhere (per-colour tuples, the wall pattern): green, orange, blue, yellow, red.
"""

import enum
from typing import NamedTuple, Optional, Tuple

from . import BotBase, _guarded, _start

__all__ = [
    "Bot",
    "Board",
    "CENTER",
    "COLOURS",
    "Colour",
    "FACTORIES",
    "FLOOR_LINE",
    "FLOOR_PENALTIES",
    "FLOOR_SLOTS",
    "LINES",
    "Move",
    "PatternLine",
    "View",
    "check_line",
    "check_move",
    "export",
    "fallback_move",
    "floor_penalty",
    "legal_moves",
    "placement_score",
    "score_change",
    "source_counts",
    "split_tiles",
    "takes_marker",
    "wall_colour",
    "wall_column",
]

CENTER = 0
"""Source id of the table center; factories are 1..=FACTORIES."""
FACTORIES = 5
"""Number of factory displays."""
FLOOR_LINE = 5
"""Line id of the floor line (pattern lines are 0..=4)."""
FLOOR_SLOTS = 7
"""Slots on a floor line."""
LINES = 5
"""Pattern lines per board, which is also the wall's size (5x5)."""
FLOOR_PENALTIES = (-1, -1, -2, -2, -2, -3, -3)
"""Score change per occupied floor slot, left to right (negative: added to the score)."""


class Colour(enum.IntEnum):
    """A tile colour; its value is its index into per-colour tuples."""

    GREEN = 0
    ORANGE = 1
    BLUE = 2
    YELLOW = 3
    RED = 4

    def __repr__(self):
        return f"Colour.{self.name}"


COLOURS = tuple(Colour)
"""Every colour, in order."""


class Move(NamedTuple):
    """Take every tile of ``colour`` from ``source`` (0 = center, 1..=5 = factory) and put them on
    ``line`` (0..=4 = pattern line, 5 = floor line)."""

    source: int
    colour: Colour
    line: int


class PatternLine(NamedTuple):
    """Pattern line i holds ``count`` (0..=i+1) tiles of ``colour`` (None exactly when empty)."""

    count: int
    colour: Optional[Colour]


EMPTY_LINE = PatternLine(0, None)


class Board(NamedTuple):
    """One player's board."""

    lines: Tuple[PatternLine, ...]
    """The 5 pattern lines, top (capacity 1) to bottom (capacity 5)."""
    wall: Tuple[Tuple[bool, ...], ...]
    """``wall[row][column]``: True where a tile lies (its colour is ``wall_colour(row, column)``)."""
    floor_len: int
    """Occupied floor slots, 0..=7 (the starting-player marker counts)."""
    score: int
    """Current score, never below 0."""


# --- the rules (rules.rs), on plain data: per-colour count tuples, pattern lines, walls --------


def wall_colour(row, col):
    """The colour of wall space (row, col): COLOURS[(col - row) mod 5]."""
    return COLOURS[(col - row) % LINES]


def wall_column(row, colour):
    """The column where ``colour`` goes in wall row ``row``."""
    return (row + colour) % LINES


def placement_score(wall, row, col):
    """Points for a tile placed at (row, col) on ``wall``, which must not hold it yet: 1 with no
    orthogonal neighbour, else H + V (the lengths of the horizontal and vertical runs through the
    tile, each counted only when at least 2). 0 when (row, col) is off the wall."""
    if not (0 <= row < LINES and 0 <= col < LINES):
        return 0
    cells = wall[row]
    left = 0
    c = col - 1
    while c >= 0 and cells[c]:
        left += 1
        c -= 1
    right = 0
    c = col + 1
    while c < LINES and cells[c]:
        right += 1
        c += 1
    up = 0
    r = row - 1
    while r >= 0 and wall[r][col]:
        up += 1
        r -= 1
    down = 0
    r = row + 1
    while r < LINES and wall[r][col]:
        down += 1
        r += 1
    h = left + right + 1
    v = up + down + 1
    score = (h if h >= 2 else 0) + (v if v >= 2 else 0)
    return score or 1


# floor_penalty(n) for n = 0..=7; slots beyond 7 do not exist and cost nothing.
_FLOOR_TOTALS = tuple(sum(FLOOR_PENALTIES[:n]) for n in range(FLOOR_SLOTS + 1))


def floor_penalty(length):
    """The total (0 or negative) score change for ``length`` occupied floor slots."""
    return _FLOOR_TOTALS[min(max(length, 0), FLOOR_SLOTS)]


def source_counts(center, factories, source):
    """The per-colour tile counts of source ``source`` (0 = center), None if there is none."""
    if source == CENTER:
        return center
    if 1 <= source <= FACTORIES:
        return factories[source - 1]
    return None


def takes_marker(mv, center_has_marker):
    """Whether ``mv`` takes the starting-player marker (it takes from the center while the
    marker is there)."""
    return mv[0] == CENTER and center_has_marker


def check_line(lines, wall, line, colour):
    """Why ``colour`` may not go on ``line`` (a short reason), or None when it may: the floor is
    always legal; a pattern line must exist, not be full, be empty or hold ``colour``, and its
    wall row must not hold ``colour`` yet."""
    if line == FLOOR_LINE:
        return None
    if not 0 <= line < LINES:
        return f"no such line {line}"
    pattern = lines[line]
    if pattern.count > line:
        return f"line {line} is full"
    if pattern.colour is not None and pattern.colour != colour:
        return f"line {line} holds {Colour(pattern.colour).name.lower()}"
    if wall[line][(line + colour) % LINES]:
        return f"wall row {line} already has {Colour(colour).name.lower()}"
    return None


def check_move(center, factories, lines, wall, mv):
    """Why ``mv`` is illegal (a short reason), or None when it is legal, turn aside. Checks, in
    the engine's order: the source exists, the line exists, the source holds the colour, then
    ``check_line``."""
    source, colour, line = mv
    counts = source_counts(center, factories, source)
    if counts is None:
        return f"no such source {source}"
    if not 0 <= line <= FLOOR_LINE:
        return f"no such line {line}"
    if not 0 <= colour < 5:
        return f"no such colour {colour}"
    if counts[colour] == 0:
        return f"source {source} holds no {Colour(colour).name.lower()}"
    return check_line(lines, wall, line, colour)


# Tables for `legal_moves`, made once at build time (inside the snapshot), so that a turn looks
# things up instead of running Python loops: every Python operation costs fuel.

# A wall row as a tuple of 5 bools, by its bit set (bit = column), and back.
_WALL_ROWS = tuple(tuple(bool(bits >> col & 1) for col in range(LINES)) for bits in range(32))
_ROW_BITS = {row: bits for bits, row in enumerate(_WALL_ROWS)}
# _FREE_COLOURS[row][bits]: the colours (bit = colour) whose wall space in `row` is empty.
_FREE_COLOURS = tuple(
    tuple(sum(1 << c for c in range(5) if not bits >> ((row + c) % LINES) & 1) for bits in range(32))
    for row in range(LINES)
)
# _SPREAD[line][colours]: bit 6 * colour + line for each of `colours`; bits 6 * colour + 5 (the
# floor, always legal) are _FLOOR_BITS.
_SPREAD = tuple(
    tuple(sum(1 << (6 * c + line) for c in range(5) if colours >> c & 1) for colours in range(32))
    for line in range(LINES)
)
_FLOOR_BITS = sum(1 << (6 * c + FLOOR_LINE) for c in range(5))
# Every move a (source, colour, line set) gives, by 5 * source + colour, then the 6-bit line set.
_MOVES_BY_LINES = tuple(
    tuple(
        tuple(Move(source, colour, line) for line in range(FLOOR_LINE + 1) if lines >> line & 1)
        for lines in range(1 << (FLOOR_LINE + 1))
    )
    for source in range(FACTORIES + 1)
    for colour in COLOURS
)


def _row_bits(row):
    bits = _ROW_BITS.get(row) if type(row) is tuple else None
    if bits is None:
        bits = sum(1 << col for col in range(LINES) if row[col])
    return bits


def legal_moves(center, factories, lines, wall):
    """Every legal move, in the order the engine and every SDK share: source ascending, then
    colour order, then line ascending (0..=5, the floor last)."""
    # One rule body: these values are encoded as the host's record carries them (see
    # `_legal_moves_in_bytes`), which is what a bot's own view is read from.
    tiles = bytes(center) + b"".join(bytes(counts) for counts in factories)
    line_bytes = bytes(byte for pattern in lines for byte in _line_bytes(pattern))
    wall_bits = sum(_row_bits(wall[line]) << 5 * line for line in range(LINES))
    return _legal_moves_in_bytes(tiles, line_bytes, 0, wall_bits)


def _line_bytes(pattern):
    return (pattern.count, 255 if pattern.colour is None else pattern.colour)


def fallback_move(center, factories):
    """The move the engine plays for a seat that gives none: from the lowest-numbered non-empty
    source, the colour with the fewest tiles there (ties: first in colour order), all to the
    floor line. None when every source is empty."""
    sources = (center,) + tuple(factories)
    for source in range(FACTORIES + 1):
        counts = sources[source]
        best = None
        for colour in COLOURS:
            n = counts[colour]
            if n and (best is None or n < counts[best]):
                best = colour
        if best is not None:
            return Move(source, best, FLOOR_LINE)
    return None


def split_tiles(lines, line, taken, marker, floor_len):
    """Where ``taken`` tiles put on ``line`` go: ``(to_line, to_floor, discarded,
    marker_on_floor)``. Tiles fill the line first (none on the floor line), the marker (when
    ``marker``) takes the next free floor slot, overflow tiles fill the floor, the rest go back
    to the bag."""
    room = max(line + 1 - lines[line].count, 0) if 0 <= line < LINES else 0
    to_line = min(taken, room)
    overflow = taken - to_line
    free = max(FLOOR_SLOTS - floor_len, 0)
    marker_on_floor = bool(marker) and free > 0
    if marker_on_floor:
        free -= 1
    to_floor = min(overflow, free)
    return to_line, to_floor, overflow - to_floor, marker_on_floor


def score_change(lines, wall, floor_len, mv, taken, marker):
    """The immediate score change of putting ``taken`` tiles of ``mv.colour`` on ``mv.line``:
    placement points (against the current wall) if the move completes its pattern line, plus the
    extra floor penalty of the overflow tiles and the marker. Not clamped at 0."""
    _, colour, row = mv
    to_line, to_floor, _, marker_on_floor = split_tiles(lines, row, taken, marker, floor_len)
    points = 0
    if 0 <= row < LINES and to_line > 0 and lines[row].count + to_line == row + 1:
        points = placement_score(wall, row, wall_column(row, colour))
    after = floor_len + to_floor + (1 if marker_on_floor else 0)
    return points + floor_penalty(after) - floor_penalty(floor_len)


# --- the view --------------------------------------------------------------------------------


class View:
    """Everything the bot sees on its turn (always its own turn), with the engine's helpers.

    Attributes: ``seat`` (0 or 1), ``round`` (1-based), ``center`` (tile counts per colour, a
    5-tuple indexed by ``Colour``), ``center_has_marker``, ``factories`` (5 such tuples; factory
    i is source i + 1), ``marker_holder`` (the seat that took the marker this round, or None),
    ``boards`` (both ``Board``s, by seat), ``last_move`` (the opponent's last ``Move``, or None),
    ``info`` (this turn's budget: ``turn``, ``turn_fuel_remaining``, ``game_fuel_remaining``,
    ``missed_turns``; None outside a match).
    """

    __slots__ = (
        "seat",
        "round",
        "center",
        "center_has_marker",
        "factories",
        "marker_holder",
        "boards",
        "last_move",
        "info",
    )

    def __init__(
        self, seat, round, center, center_has_marker, factories, marker_holder, boards, last_move=None, info=None
    ):
        self.seat = seat
        self.round = round
        self.center = center
        self.center_has_marker = center_has_marker
        self.factories = factories
        self.marker_holder = marker_holder
        self.boards = boards
        self.last_move = last_move
        self.info = info

    def __repr__(self):
        return (
            f"View(seat={self.seat}, round={self.round}, center={self.center}, "
            f"center_has_marker={self.center_has_marker}, factories={self.factories}, "
            f"marker_holder={self.marker_holder}, boards={self.boards}, last_move={self.last_move}, "
            f"info={self.info})"
        )

    @property
    def board(self):
        """This bot's own board."""
        return self.boards[self.seat]

    @property
    def opponent(self):
        """The other seat's board."""
        return self.boards[1 - self.seat]

    def source(self, source):
        """The tile counts of source ``source`` (0 = center, 1..=5 = factories), None if out of range."""
        return source_counts(self.center, self.factories, source)

    def check(self, mv):
        """Why ``mv`` is illegal now (a short reason), or None when it is legal: the engine's check."""
        board = self.boards[self.seat]
        return check_move(self.center, self.factories, board.lines, board.wall, mv)

    def is_legal(self, mv):
        """Whether ``mv`` is legal now."""
        return self.check(mv) is None

    def legal_moves(self):
        """This bot's legal moves, in the engine's order (source, colour, line); a list of ``Move``."""
        board = self.boards[self.seat]
        return legal_moves(self.center, self.factories, board.lines, board.wall)

    def score_if_placed(self, mv):
        """The immediate score change ``mv`` would cause for this bot: placement points if it
        completes its pattern line plus the extra (negative) floor penalty of its overflow tiles
        and of the marker if taken now. Not clamped at 0; 0 for an illegal move."""
        # check_move and score_change in one: greedy bots call this for every legal move, and
        # every Python operation costs fuel. The engine-agreement test covers this copy.
        source, colour, line = mv
        if source == CENTER:
            counts = self.center
        elif 1 <= source <= FACTORIES:
            counts = self.factories[source - 1]
        else:
            return 0
        if not (0 <= line <= FLOOR_LINE and 0 <= colour < 5):
            return 0
        taken = counts[colour]
        if not taken:
            return 0
        board = self.boards[self.seat]
        points = 0
        if line == FLOOR_LINE:
            overflow = taken
        else:
            pattern = board.lines[line]
            count = pattern.count
            if count > line or (pattern.colour is not None and pattern.colour != colour):
                return 0
            wall = board.wall
            column = (line + colour) % LINES
            if wall[line][column]:
                return 0
            room = line + 1 - count
            if taken >= room:
                overflow = taken - room
                points = placement_score(wall, line, column)
            else:
                overflow = 0
        floor_len = board.floor_len
        free = FLOOR_SLOTS - floor_len
        if free < 0:
            free = 0
        added = 0
        if source == CENTER and self.center_has_marker and free > 0:
            added = 1
            free -= 1
        added += overflow if overflow < free else free
        return points + _FLOOR_TOTALS[min(floor_len + added, FLOOR_SLOTS)] - _FLOOR_TOTALS[min(floor_len, FLOOR_SLOTS)]

    def fallback_move(self):
        """The move the engine plays for this bot when it gives none (None when the table is empty)."""
        return fallback_move(self.center, self.factories)


# --- the export glue ---------------------------------------------------------------------------


class Bot(BotBase):
    """Subclass this and implement ``act``; optionally ``init`` (see ``arena.BotBase`` for
    ``self.random``, ``self.seat`` and ``self.init_info``). A fresh object is made for every
    ``init``, with no constructor arguments."""

    def act(self, view):
        """Returns this turn's ``Move`` (or a ``(source, colour, line)`` tuple). An illegal move is
        an invalid action: the engine plays ``view.fallback_move()`` instead."""
        raise NotImplementedError("an Azul bot implements act(self, view)")



# Every pattern line by its two bytes in the view's `lines` (count, then colour index or 255 when
# empty): looked up, not made, on each turn. Bytes the host never sends read as an empty line.
_LINE_OF = {bytes((count, colour)): PatternLine(count, COLOURS[colour]) for colour in range(5) for count in range(1, 8)}
_LINE_OF[bytes((0, 255))] = EMPTY_LINE
_line_of = _LINE_OF.get


def _lines(lines, at):
    return (
        _line_of(lines[at : at + 2], EMPTY_LINE),
        _line_of(lines[at + 2 : at + 4], EMPTY_LINE),
        _line_of(lines[at + 4 : at + 6], EMPTY_LINE),
        _line_of(lines[at + 6 : at + 8], EMPTY_LINE),
        _line_of(lines[at + 8 : at + 10], EMPTY_LINE),
    )


def _wall(bits):
    return (
        _WALL_ROWS[bits & 31],
        _WALL_ROWS[bits >> 5 & 31],
        _WALL_ROWS[bits >> 10 & 31],
        _WALL_ROWS[bits >> 15 & 31],
        _WALL_ROWS[bits >> 20 & 31],
    )


def _legal_moves_in_bytes(tiles, lines, at, wall):
    """``legal_moves`` on the host's record: the tile bytes, the line bytes (this seat's start at
    ``at``) and this seat's wall bits. Same order, same moves."""
    allowed = _FLOOR_BITS
    for line in range(LINES):
        if lines[at] <= line:
            free = _FREE_COLOURS[line][wall >> 5 * line & 31]
            colour = lines[at + 1]
            if colour < 5:
                free &= 1 << colour
            allowed |= _SPREAD[line][free]
        at += 2
    moves = []
    extend = moves.extend
    for index, shift in _TILE_SHIFTS:
        if tiles[index]:
            extend(_MOVES_BY_LINES[index][allowed >> shift & 63])
    return moves


# (byte index, bit shift of its colour in `allowed`) for each of the 30 tile bytes.
_TILE_SHIFTS = tuple((index, 6 * (index % 5)) for index in range(5 * (FACTORIES + 1)))


def _center(view):
    return tuple(view.tiles[0:5])


def _factories(view):
    tiles = view.tiles
    return (tuple(tiles[5:10]), tuple(tiles[10:15]), tuple(tiles[15:20]), tuple(tiles[20:25]), tuple(tiles[25:30]))


def _boards(view):
    lines = view.lines
    walls = view.walls
    floors = view.floor_lens
    scores = view.scores
    return (
        Board(_lines(lines, 0), _wall(walls[0]), floors[0], scores[0]),
        Board(_lines(lines, 10), _wall(walls[1]), floors[1], scores[1]),
    )


def _last_move(view):
    last = view.last_move
    return None if last is None else Move(last.source, COLOURS[last.colour._value_], last.line)


# How each field of a View comes from the host's record (`wit/azul/azul.wit` has its layout).
_FROM_WIT = {
    "round": lambda view: view.round,
    "center": _center,
    "center_has_marker": lambda view: view.center_has_marker,
    "factories": _factories,
    "marker_holder": lambda view: view.marker_holder,
    "boards": _boards,
    "last_move": _last_move,
    "info": lambda view: view.info,
}


class _WitView(View):
    """A View over the host's record: each field converts when it is first read (then it is a
    plain attribute), and ``legal_moves`` reads the record's bytes. A bot pays for what it reads:
    every Python operation costs fuel."""

    __slots__ = ("_wit",)

    def __init__(self, wit):
        self._wit = wit
        self.seat = wit.seat

    def __getattr__(self, name):
        # Only reached for a field not converted yet (a set slot is found before this).
        convert = _FROM_WIT.get(name)
        if convert is None:
            raise AttributeError(f"'View' object has no attribute {name!r}")
        value = convert(self._wit)
        setattr(self, name, value)
        return value

    def legal_moves(self):
        wit = self._wit
        seat = self.seat
        return _legal_moves_in_bytes(wit.tiles, wit.lines, 10 * seat, wit.walls[seat])


def export(bot_class):
    """The ``Player`` class componentize-py exports for ``bot_class``: write
    ``Player = export(MyBot)`` at the top level of ``app.py``. Outside a componentize-py build
    (plain CPython, testing a bot's logic) it returns ``bot_class`` unchanged."""
    # Imported here: the generated bindings exist only inside a componentize-py build, and the
    # rest of this module (the rules, View) also works in plain CPython.
    try:
        from wit_world import exports
        from wit_world.imports import arena_azul_types as wit
    except ImportError:
        return bot_class

    wit_colours = tuple(wit.Colour)
    action = wit.Action
    state = {"bot": None}

    def to_action(mv):
        try:
            source, colour, line = mv
            ok = 0 <= source <= 255 and 0 <= line <= 255 and 0 <= colour < 5
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise TypeError(f"act returned {mv!r}, not a Move(source, colour, line) with source and line 0..=255")
        return action(source, wit_colours[colour], line)

    def take_turn(wit_view):
        bot = state["bot"]
        if bot is None:  # unreachable: the host always calls init first
            bot = state["bot"] = bot_class()
        return to_action(bot.act(_WitView(wit_view)))

    def init(info):
        state["bot"] = _start(bot_class, info)

    class Player(exports.Player):
        # componentize-py makes one Player at build time and calls its methods; the bot object
        # itself is made by init, at run time.
        def init(self, info):
            _guarded(init, info)

        def take_turn(self, view):
            return _guarded(take_turn, view)

    Player.__qualname__ = Player.__name__ = "Player"
    return Player
