"""azul-random-py: plays a uniformly random legal move.

The generator is ``self.random``, seeded by the host for each match (the same match seed gives
the same game); the ``random`` module's own state was frozen when the component was built.
"""

from arena.azul import Bot, export


class RandomBot(Bot):
    def act(self, view):
        return self.random.choice(view.legal_moves())


Player = export(RandomBot)
