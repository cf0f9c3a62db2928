"""The fuel table's trivial SuiteBot II program (the original protocol): it parses every round's
state and holds."""

import json
import sys

for line in sys.stdin:
    json.loads(line)
    print("H", flush=True)
