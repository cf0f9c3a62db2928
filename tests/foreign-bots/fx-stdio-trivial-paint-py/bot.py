"""The fuel table's trivial Paint program (Paint's original protocol): it parses every state and
always shoots to the right, a valid action."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if "player_id" in message:
        print(json.dumps({"ready": True}), flush=True)
    else:
        print(json.dumps({"turns_left": message["turns_left"], "type": "shoot", "direction": [0, 1]}), flush=True)
