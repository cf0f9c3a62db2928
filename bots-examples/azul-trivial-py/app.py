"""azul-trivial-py: the smallest complete Python bot. It plays the first legal move."""

from arena.azul import Bot, export


class Trivial(Bot):
    def act(self, view):
        return view.legal_moves()[0]


Player = export(Trivial)
