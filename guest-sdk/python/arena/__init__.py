"""Wasm Arena's Python guest SDK: what every game's bot shares.

- ``log``, ``debug``, ``info``, ``warn``, ``error``: lines in the bot's log, kept in the match
  replay (bounded by the host; ``print`` lands there too).
- The export glue the game modules (``arena.azul``) build on: a fresh bot object per ``init``
  with a per-match ``random.Random``, and an exception that escapes the bot logged with its
  traceback before the instance traps (the host restarts the bot before its next turn, as it
  does after a Rust panic).

componentize-py runs this package's imports at build time and snapshots the interpreter, so the
imports cost nothing per match. The same snapshot also freezes the seed of the ``random`` module;
``init`` therefore reseeds it from the match's seed, and every bot gets ``self.random``, its own
``random.Random`` seeded the same way.

Outside a component (plain CPython, for example to unit-test a bot's logic) the log prints to
stderr instead.
"""

import os
import random
import sys
import traceback

try:
    from wit_world.imports import log as _wit_log

    _LEVELS = {
        "debug": _wit_log.Level.DEBUG,
        "info": _wit_log.Level.INFO,
        "warn": _wit_log.Level.WARN,
        "error": _wit_log.Level.ERROR,
    }

    def _emit(level, message):
        _wit_log.log(_LEVELS.get(level, _wit_log.Level.INFO), message)

    IN_COMPONENT = True
except ImportError:  # plain CPython: no generated bindings

    def _emit(level, message):
        print(f"[{level}] {message}", file=sys.stderr)

    IN_COMPONENT = False

__all__ = ["log", "debug", "info", "warn", "error", "BotBase", "IN_COMPONENT"]


def log(*parts, sep=" ", level="info"):
    """Logs one line made of ``parts`` like ``print`` does; ``level`` is debug, info, warn or error."""
    _emit(level, sep.join(str(part) for part in parts))


def debug(*parts):
    """Logs a debug line."""
    log(*parts, level="debug")


def info(*parts):
    """Logs an info line."""
    log(*parts, level="info")


def warn(*parts):
    """Logs a warning."""
    log(*parts, level="warn")


def error(*parts):
    """Logs an error."""
    log(*parts, level="error")


class BotBase:
    """What every game's ``Bot`` has. The glue sets, before ``init`` runs:

    - ``self.random``: a ``random.Random`` seeded from ``init-info.seed`` (the match seed and
      the bot's own hash), the one to use for per-match randomness;
    - ``self.seat``: this bot's seat; ``self.init_info``: the whole ``InitInfo`` record (``seat``,
      ``players``, ``restart_count``, ``seed``, ``turn_fuel``, ``game_fuel``,
      ``game_fuel_remaining``).

    One object lives from one ``init`` to the next restart, so attributes persist between turns.
    """

    random: random.Random
    seat: int
    init_info: object

    def init(self, info):
        """Called once before the first turn and again after every restart. Budget: one turn."""


def _start(bot_class, info):
    """Builds the bot for a fresh instance or a restart: the ``init`` export's body."""
    # The snapshot froze the module's seed at build time: reseed it so that code using the
    # module-level functions (random.choice, ...) also varies from match to match.
    random.seed(info.seed)
    bot = bot_class()
    bot.random = random.Random(info.seed)
    bot.seat = info.seat
    bot.init_info = info
    bot.init(info)
    return bot


def _is_sdk(module):
    return module == "arena" or module.startswith("arena.")


def _guarded(call, *args):
    """Runs ``call(*args)``; on an exception, logs its traceback and traps.

    componentize-py would also trap, but after printing a Rust panic message about its runtime;
    the log line says what the bot's author needs, at error level.
    """
    try:
        return call(*args)
    except BaseException as exc:  # noqa: BLE001 - whatever escapes the bot ends this instance
        # Leave out the glue's own frames: the traceback starts where the bot's code does.
        tb = exc.__traceback__
        while tb is not None and tb.tb_next is not None and _is_sdk(tb.tb_frame.f_globals.get("__name__", "")):
            tb = tb.tb_next
        text = "".join(traceback.format_exception(type(exc), exc, tb))
        error("bot raised an exception; the host restarts it before its next turn\n" + text)
        sys.stderr.flush()
        sys.stdout.flush()
        os.abort()
