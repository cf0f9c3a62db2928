"""The board as the Paint protocol sends it: who is where, and the nearest square to paint."""

from collections import deque

DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


def on_board(state, i, j):
    return 0 <= i < state["height"] and 0 <= j < state["width"]


def first_step_to_paint(state, me):
    """The first step of a shortest walk from `me`'s square to the nearest square that is not
    `me`'s colour (breadth first, directions in a fixed order), or None when every square is."""
    start = tuple(state["player_positions"][me])
    colors = state["colors"]
    seen = {start}
    queue = deque([(start, None)])
    while queue:
        (i, j), first = queue.popleft()
        if colors[i][j] != me and first is not None:
            return first
        for di, dj in DIRECTIONS:
            ni, nj = i + di, j + dj
            if on_board(state, ni, nj) and (ni, nj) not in seen:
                seen.add((ni, nj))
                queue.append(((ni, nj), first or (di, dj)))
    return None


def opponent_in_line(state, me):
    """A direction in which an opponent stands in a straight line from `me`, or None."""
    i, j = state["player_positions"][me]
    for who, (oi, oj) in sorted(state["player_positions"].items()):
        if who == me:
            continue
        di, dj = oi - i, oj - j
        if di == 0 or dj == 0 or abs(di) == abs(dj):
            step = ((di > 0) - (di < 0), (dj > 0) - (dj < 0))
            if step != (0, 0):
                return step
    return None
