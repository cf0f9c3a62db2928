"""A Paint bot written as an ordinary program: it reads the game's states as JSON lines on stdin
and prints its moves on stdout (Paint's original protocol). It walks to the nearest square that
is not its colour, and shoots an opponent that stands in line with it. Run it as
`python3 bot.py`; `cargo xtask build-bot bots-examples/paint-stdio-py` makes the same program a
bot the arena runs."""

import json
import sys

from board import first_step_to_paint, opponent_in_line


def choose(state, me):
    aim = opponent_in_line(state, me)
    if aim is not None and state["turns_left"] % 3 == 0:
        return {"type": "shoot", "direction": list(aim)}
    step = first_step_to_paint(state, me)
    if step is None:
        return {"type": "shoot", "direction": list(aim or (1, 0))}
    return {"type": "walk", "direction": list(step)}


def main():
    me = None
    for line in sys.stdin:
        message = json.loads(line)
        if "player_id" in message:
            me = message["player_id"]
            print(json.dumps({"ready": True}), flush=True)
            continue
        move = choose(message, me)
        move["turns_left"] = message["turns_left"]
        print(json.dumps(move), flush=True)


main()
