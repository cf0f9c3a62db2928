// An Azul bot written as an ordinary Go program: it speaks Azul's text line protocol on stdin and
// stdout, asking for the whole state every turn, and plays greedily: the legal move that sends
// the fewest tiles to the floor, and of those the one that lays the most tiles on a pattern line.
// Run it as `go run .`; `cargo xtask build-bot bots-examples/azul-stdio-go` builds the same
// program with GOOS=wasip1 GOARCH=wasm, a bot the arena runs. Standard library only.
package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// colours are the protocol's colour letters, in the game's order.
const colours = "gobyr"

// board is one seat's board as far as legality goes, kept as the protocol writes it.
type board struct {
	// wall[r] is row r of the wall: a colour letter where a tile lies, '.' elsewhere. Each colour
	// has one column per row, so a row holds a colour exactly when its letter is in the string.
	wall [5]string
	// lines[i] is pattern line i's tiles, one letter per tile, "" when empty; it holds up to i+1.
	lines [5]string
}

// state is what the bot knows of the game. In `state` mode every turn's message carries every
// state line, so each field is simply overwritten.
type state struct {
	seat int
	// sources[0] is the center, sources[1..5] the factories: tiles as letters, "" for none.
	sources        [6]string
	markerInCenter bool
	boards         [2]board
}

// move is one answer: the tiles of colour taken from source (0 = center) go to line (5 = floor).
type move struct {
	source int
	colour byte
	line   int
}

func main() {
	// State lines are short (the longest, a board line, is under 100 bytes), well within a
	// Scanner's 64 KiB default.
	in := bufio.NewScanner(os.Stdin)
	// A bufio.Writer flushed after every answer: the host waits for the line, and an answer left
	// in the buffer would never reach it.
	out := bufio.NewWriter(os.Stdout)

	var s state
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 {
			continue
		}
		answer := ""
		switch fields[0] {
		case "azul": // the greeting, `azul <seat> <restarts>`: our first line is our mode
			s.seat = number(fields, 1) % 2
			answer = "state"
		case "factories":
			for i := range 5 {
				s.sources[i+1] = tiles(fields, i+1)
			}
		case "center":
			s.sources[0] = tiles(fields, 1)
		case "marker":
			s.markerInCenter = len(fields) > 1 && fields[1] == "center"
		case "board": // board <seat> <score> <floor> <wall> <l0> ... <l4>
			if len(fields) < 10 {
				break
			}
			b := &s.boards[number(fields, 1)%2]
			// A malformed wall leaves the rows it lacks empty: strings.Split never fails.
			copy(b.wall[:], strings.Split(fields[4], "/"))
			for i := range 5 {
				b.lines[i] = tiles(fields, 5+i)
			}
		case "go": // the end of the turn's message: answer now
			m := choose(&s)
			answer = fmt.Sprintf("%d %c %d", m.source, m.colour, m.line)
		}
		// turn, update, state, round and last lines tell this bot nothing it uses.
		if answer == "" {
			continue
		}
		fmt.Fprintln(out, answer)
		if err := out.Flush(); err != nil {
			return
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(1)
	}
}

// number is fields[i] as a non-negative number, 0 when it is missing or not one.
func number(fields []string, i int) int {
	if i >= len(fields) {
		return 0
	}
	n, err := strconv.Atoi(fields[i])
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// tiles is fields[i] as tile letters, "" for `-` or a missing field.
func tiles(fields []string, i int) string {
	if i >= len(fields) || fields[i] == "-" {
		return ""
	}
	return fields[i]
}

// accepts reports whether pattern line i may take colour c: it is not full, holds nothing or c,
// and its wall row does not hold c yet. A move to any other line is illegal (the host plays its
// fallback instead), so the bot only ever considers these.
func (b *board) accepts(i int, c byte) bool {
	line := b.lines[i]
	return len(line) < i+1 && (line == "" || line[0] == c) && strings.IndexByte(b.wall[i], c) < 0
}

// choose is the greedy move: the fewest tiles to the floor (the starting-player marker, taken
// with the first tiles from the center, costs a floor slot like a tile), then the most tiles laid
// on a pattern line. Ties go to the first move in source, colour and line order, so the bot plays
// the same match the same way. The floor is always legal, so some source with tiles gives a move.
func choose(s *state) move {
	me := &s.boards[s.seat]
	var best move
	bestFloor, bestPlaced := -1, -1
	for source, onSource := range s.sources {
		marker := 0
		if source == 0 && s.markerInCenter {
			marker = 1
		}
		for ci := range len(colours) {
			c := colours[ci]
			n := strings.Count(onSource, colours[ci:ci+1])
			if n == 0 {
				continue
			}
			for line := range 6 {
				placed := 0 // line 5, the floor, places nothing
				if line < 5 {
					if !me.accepts(line, c) {
						continue
					}
					placed = min(n, line+1-len(me.lines[line]))
				}
				floor := n - placed + marker
				if bestFloor < 0 || floor < bestFloor || (floor == bestFloor && placed > bestPlaced) {
					best, bestFloor, bestPlaced = move{source, c, line}, floor, placed
				}
			}
		}
	}
	if bestFloor < 0 {
		// No tile anywhere: the host never asks then, but an answer it can read is better than
		// none.
		return move{0, colours[0], 5}
	}
	return best
}
