"""The fuel table's trivial Azul program (Azul's text protocol): it reads every line and plays the
first legal move, sources in order (center first), each source's colours in order, pattern lines
0 to 4, then the floor."""

import sys


def first_legal_move(sources, board):
    wall, lines = board[4].split("/"), board[5:10]
    for source, tiles in enumerate(sources):
        for colour in tiles.replace("-", ""):
            for row in range(5):
                held = lines[row].replace("-", "")
                if len(held) <= row and held == colour * len(held) and colour not in wall[row]:
                    return f"{source} {colour} {row}"
            return f"{source} {colour} 5"
    return "0 b 5"


print("state", flush=True)
seat, factories, center, board = None, [], "-", None
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "azul":
        seat = words[1]
    elif words[0] == "factories":
        factories = words[1:]
    elif words[0] == "center":
        center = words[1]
    elif words[0] == "board" and words[1] == seat:
        board = words
    elif words[0] == "go":
        print(first_legal_move([center] + factories, board), flush=True)
