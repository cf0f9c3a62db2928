// A Paint bot written as an ordinary Go program: it reads the game's states as JSON lines on
// stdin and prints its moves on stdout (Paint's original protocol). It walks to the nearest
// square that is not its colour, and now and then shoots an opponent standing in line with it.
// Run it as `go run .`; `cargo xtask build-bot bots-examples/paint-stdio-go` builds the same
// program with GOOS=wasip1 GOARCH=wasm, a bot the arena runs. Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
)

// greeting is the host's first line, {"player_id":"a"}: the id is also our colour on the board.
type greeting struct {
	PlayerID string `json:"player_id"`
}

// state is one turn's line. Fields the bot does not use, above all previous_actions (every past
// turn, growing each turn), have no field here: encoding/json skips them without building them.
type state struct {
	Width           int               `json:"width"`
	Height          int               `json:"height"`
	PlayerPositions map[string][2]int `json:"player_positions"`
	// Colors[i][j] is the id owning square [i, j]; null (unpainted) decodes to nil.
	Colors    [][]*string `json:"colors"`
	TurnsLeft int         `json:"turns_left"`
	// Only sent when the match has obstacles: squares nobody can enter or paint.
	Obstacles [][2]int `json:"obstacles"`
}

// answer is the reply line. turns_left must echo the state's: it is the nonce that ties the
// answer to the state it answers.
type answer struct {
	TurnsLeft int    `json:"turns_left"`
	Type      string `json:"type"`
	Direction [2]int `json:"direction"`
}

// directions are the 8 king moves [di, dj], di the row delta, in a fixed order so that the bot
// plays the same match the same way.
var directions = [8][2]int{{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}}

func main() {
	// A bufio.Reader rather than a bufio.Scanner: a Scanner stops at lines over its buffer's size
	// (64 KiB by default), and previous_actions grows by a turn's actions every turn (up to
	// 100,000 turns with the `turns` option), so no fixed size is safe. ReadString has no limit.
	in := bufio.NewReader(os.Stdin)
	// Encode writes the JSON and its newline in one write to os.Stdout, which Go does not
	// buffer: every answer reaches the host at once, with nothing to flush.
	out := json.NewEncoder(os.Stdout)

	line, err := in.ReadString('\n')
	if err != nil {
		return
	}
	var hello greeting
	if err := json.Unmarshal([]byte(line), &hello); err != nil || hello.PlayerID == "" {
		fmt.Fprintf(os.Stderr, "expected the greeting, got %q\n", line)
		os.Exit(1)
	}
	if err := out.Encode(map[string]bool{"ready": true}); err != nil {
		return
	}

	for {
		line, err := in.ReadString('\n')
		if err == io.EOF {
			return // the match is over
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "reading stdin:", err)
			os.Exit(1)
		}
		var s state
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			// stderr is the bot's log; a turn without an answer is a turn standing still.
			fmt.Fprintln(os.Stderr, "skipping a line that is not a state:", err)
			continue
		}
		move := choose(&s, hello.PlayerID)
		move.TurnsLeft = s.TurnsLeft
		if err := out.Encode(move); err != nil {
			return
		}
	}
}

// choose shoots an opponent in line every third turn (a shot paints a line of squares and can
// stop an opponent's), and otherwise walks towards the nearest square still to paint: the
// walker's square is painted on arrival.
func choose(s *state, me string) answer {
	aim, inLine := opponentInLine(s, me)
	if inLine && s.TurnsLeft%3 == 0 {
		return answer{Type: "shoot", Direction: aim}
	}
	if step, found := firstStepToPaint(s, me); found {
		return answer{Type: "walk", Direction: step}
	}
	// Every reachable square is ours already: a shot is the only move that can paint more.
	if !inLine {
		aim = [2]int{1, 0}
	}
	return answer{Type: "shoot", Direction: aim}
}

func (s *state) onBoard(i, j int) bool {
	return 0 <= i && i < s.Height && 0 <= j && j < s.Width
}

// firstStepToPaint is the first step of a shortest walk from our square to the nearest square
// that is not our colour (breadth first, directions in a fixed order); found is false when every
// reachable square is ours.
func firstStepToPaint(s *state, me string) (step [2]int, found bool) {
	type node struct{ i, j, first int } // first: index into directions, -1 for the start
	start, ok := s.PlayerPositions[me]
	if !ok || !s.onBoard(start[0], start[1]) {
		return step, false
	}
	seen := make([]bool, s.Width*s.Height)
	for _, o := range s.Obstacles {
		if s.onBoard(o[0], o[1]) {
			seen[o[0]*s.Width+o[1]] = true // a walk into an obstacle is dropped
		}
	}
	seen[start[0]*s.Width+start[1]] = true
	queue := []node{{start[0], start[1], -1}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.first >= 0 {
			if owner := s.Colors[n.i][n.j]; owner == nil || *owner != me {
				return directions[n.first], true
			}
		}
		for d, dir := range directions {
			i, j := n.i+dir[0], n.j+dir[1]
			if !s.onBoard(i, j) || seen[i*s.Width+j] {
				continue
			}
			seen[i*s.Width+j] = true
			first := n.first
			if first < 0 {
				first = d
			}
			queue = append(queue, node{i, j, first})
		}
	}
	return step, false
}

// opponentInLine is the direction of an opponent standing on a straight or diagonal line from our
// square, if any. Ids are visited in sorted order: Go's map order is random, and a bot that plays
// the same match differently each time is hard to debug.
func opponentInLine(s *state, me string) (aim [2]int, found bool) {
	mine, ok := s.PlayerPositions[me]
	if !ok {
		return aim, false
	}
	for _, id := range slices.Sorted(maps.Keys(s.PlayerPositions)) {
		if id == me {
			continue
		}
		other := s.PlayerPositions[id]
		di, dj := other[0]-mine[0], other[1]-mine[1]
		if (di == 0) != (dj == 0) || (di != 0 && (di == dj || di == -dj)) {
			return [2]int{sign(di), sign(dj)}, true
		}
	}
	return aim, false
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
