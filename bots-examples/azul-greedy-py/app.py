"""azul-greedy-py: plays the legal move with the best immediate score change.

The Rust ``azul-greedy`` in Python: ``score_if_placed`` is the engine's rule (placement points
if the move completes its pattern line, minus the floor penalty it causes), and ``max`` keeps the
first of equal moves in the engine's order, as the Rust bot does. About 15k fuel per move scored:
a turn costs 0.5M fuel in the median, up to about 2M early in a round, when most moves are legal.
"""

from arena.azul import Bot, export


class Greedy(Bot):
    def act(self, view):
        return max(view.legal_moves(), key=view.score_if_placed)


Player = export(Greedy)
