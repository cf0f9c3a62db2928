"""fx-raise-py: raises in every ``act``. The Python SDK logs the traceback, then traps; the host
restarts the bot before its next turn, and the third trap forfeits (docs/design.md#traps, "Traps"), exactly
as for a Rust panic (fx-panic)."""

from arena.azul import Bot, export

MESSAGE = "fx-raise-py: deliberate exception"


class Raiser(Bot):
    def act(self, view):
        raise ValueError(f"{MESSAGE} on turn {view.info.turn}")


Player = export(Raiser)
