"""Which moves make sense from a Paint state: a helper module of the bot's own."""

DIRECTIONS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


def useful_moves(state, me):
    """Shots in every direction, and the walks that stay on the board."""
    i, j = state["player_positions"][me]
    moves = [("shoot", d) for d in DIRECTIONS]
    for di, dj in DIRECTIONS:
        if 0 <= i + di < state["height"] and 0 <= j + dj < state["width"]:
            moves.append(("walk", (di, dj)))
    return moves
