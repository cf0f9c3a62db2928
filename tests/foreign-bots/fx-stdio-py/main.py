"""A test fixture: an ordinary Paint program (stdin/stdout, Paint's original protocol) with a
helper module and a vendored package. It echoes every line it reads to stderr, as a program
logs, so a test can feed the same lines to the same program run natively."""

import json
import sys

import minirand
from tactics import useful_moves

rng = None
me = None
for line in sys.stdin:
    print("in: " + line.rstrip("\n"), file=sys.stderr, flush=True)
    message = json.loads(line)
    if "player_id" in message:
        me = message["player_id"]
        print(json.dumps({"ready": True}), flush=True)
        continue
    if rng is None:
        rng = minirand.XorShift(sum(map(ord, line)))
    moves = useful_moves(message, me)
    kind, direction = moves[rng.below(len(moves))]
    print(json.dumps({"turns_left": message["turns_left"], "type": kind, "direction": list(direction)}), flush=True)
