// A SuiteBot II bot written as an ordinary Go program: it reads one JSON object per round on
// stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original protocol with
// the game option board=strings (each board column one string of digits). It walks towards the
// richest fields, plants a bomb where the blast would clear several points, and keeps out of the
// way of bombs about to explode. Run it as `go run .`;
// `cargo xtask build-bot bots-examples/suitebot-stdio-go` builds the same program with
// GOOS=wasip1 GOARCH=wasm, a bot the arena runs. Standard library only.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type player struct {
	Resources     int   `json:"resources"`
	AgentLocation point `json:"agentLocation"`
}

// state is one round's object, as board=strings writes it: the board fields are one string per
// column x, so encoding/json decodes a few dozen strings a round instead of two values per field,
// and the bot reads the strings' bytes. With the original nested arrays (board=nested) decoding
// made a round cost about 1.5M fuel and a default match about 157M, over the 100M game budget;
// with strings a round costs about 0.4M and a match about 40M.
type state struct {
	AIPlayerID      int               `json:"aiPlayerId"`
	CurrentRound    int               `json:"currentRound"`
	RemainingRounds int               `json:"remainingRounds"` // this round included
	Width           int               `json:"gamePlanWidth"`
	Height          int               `json:"gamePlanHeight"`
	Players         map[string]player `json:"players"`
	// FieldResources[x][y] is the digit of the points left on (x, y), '0' or '1'.
	FieldResources []string `json:"fieldResources"`
	// FieldBombs[x][2*y] and [2*y+1] are the owner id digit and the countdown digit (rounds left
	// before the round it explodes in) of the bomb on (x, y), ".." for none.
	FieldBombs []string `json:"fieldBombs"`
}

// points is the points left on (x, y).
func (s *state) points(x, y int) int { return int(s.FieldResources[x][y] - '0') }

// bombAt is the countdown of the bomb on (x, y); ok is false when there is none.
func (s *state) bombAt(x, y int) (countdown int, ok bool) {
	column := s.FieldBombs[x]
	if column[2*y] == '.' {
		return 0, false
	}
	return int(column[2*y+1] - '0'), true
}

// The moves the bot walks with, and their offsets: index i of each array is one move. Y grows
// downwards: UP is (0, -1).
var (
	letters = [5]string{"U", "D", "L", "R", "H"}
	moveDX  = [5]int{0, 0, -1, 1, 0}
	moveDY  = [5]int{-1, 1, 0, 0, 0}
)

const (
	blastRadius = 1 // the game's default: a bomb clears the 3 x 3 square around it
	// fuse is how many rounds a bomb ticks: it explodes in the fourth round after planting.
	fuse = 4
)

// turnRight is the heading after a right turn.
var turnRight = map[string]string{"R": "D", "D": "L", "L": "U", "U": "R"}

// memory is what the bot keeps between rounds: the process lives for the whole match.
type memory struct {
	heading   string
	plantedIn int // the round of our last bomb
}

func main() {
	// The default board's line is about 1 KB and a 100 x 100 board's (the largest the game
	// allows) about 32 KB, within a Scanner's 64 KiB default. The 1 MiB cap is room to spare:
	// past its cap a Scanner stops with bufio.ErrTooLong, and the bot with it.
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	// A bufio.Writer flushed after every answer: the host waits for the line, and an answer
	// left in the buffer would never reach it.
	out := bufio.NewWriter(os.Stdout)

	mem := memory{heading: "R", plantedIn: -fuse - 1}
	for in.Scan() {
		if len(in.Bytes()) == 0 {
			continue
		}
		var s state
		if err := json.Unmarshal(in.Bytes(), &s); err != nil {
			// stderr is the bot's log; a round without an answer is a HOLD. A board=nested round
			// (the original arrays of arrays) lands here too: this bot reads board=strings only.
			fmt.Fprintln(os.Stderr, "skipping a line that is not a board=strings round:", err)
			continue
		}
		fmt.Fprintln(out, choose(&s, &mem))
		if err := out.Flush(); err != nil {
			return
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(1)
	}
}

// choose picks one move: safety first, then points, else keep exploring.
func choose(s *state, mem *memory) string {
	me, ok := s.Players[strconv.Itoa(s.AIPlayerID)]
	if !ok {
		return "H"
	}
	x, y := me.AgentLocation.X, me.AgentLocation.Y
	// Every bomb whose blast could reach a field the agent can step onto.
	bombs := s.bombsAround(x, y, blastRadius+1)

	// Plant where the blast clears several points, when no bomb of ours is ticking (time enough
	// to walk two fields away before it explodes) and the bomb would explode before the end.
	if s.CurrentRound-mem.plantedIn > fuse && s.blastValue(x, y) >= 4 && danger(bombs, 0, 0) == 0 &&
		s.RemainingRounds > fuse {
		mem.plantedIn = s.CurrentRound
		return "B"
	}

	// Change heading now and then, so that an agent in cleared land explores.
	if s.CurrentRound%7 == 0 {
		mem.heading = turnRight[mem.heading]
	}

	best, bestScore := 0, 0
	for i, letter := range letters {
		score := 2*s.blastValue(s.wrapX(x+moveDX[i]), s.wrapY(y+moveDY[i])) - danger(bombs, moveDX[i], moveDY[i])
		if letter == mem.heading {
			score++
		}
		if i == 0 || score > bestScore {
			best, bestScore = i, score
		}
	}
	if letters[best] != "H" {
		mem.heading = letters[best]
	}
	return letters[best]
}

// The board is a torus: leaving one edge enters the opposite one.
func (s *state) wrapX(x int) int { return ((x % s.Width) + s.Width) % s.Width }
func (s *state) wrapY(y int) int { return ((y % s.Height) + s.Height) % s.Height }

// nearBomb is a bomb at offset (dx, dy) from the agent.
type nearBomb struct{ dx, dy, countdown int }

// bombsAround lists the bombs within radius fields of (x, y) (Chebyshev distance, on the torus).
func (s *state) bombsAround(x, y, radius int) []nearBomb {
	var found []nearBomb
	for dx := -radius; dx <= radius; dx++ {
		for dy := -radius; dy <= radius; dy++ {
			if countdown, ok := s.bombAt(s.wrapX(x+dx), s.wrapY(y+dy)); ok {
				found = append(found, nearBomb{dx, dy, countdown})
			}
		}
	}
	return found
}

// blastValue is the points a bomb planted on (x, y) would clear.
func (s *state) blastValue(x, y int) int {
	total := 0
	for dx := -blastRadius; dx <= blastRadius; dx++ {
		for dy := -blastRadius; dy <= blastRadius; dy++ {
			total += s.points(s.wrapX(x+dx), s.wrapY(y+dy))
		}
	}
	return total
}

// danger is how bad it is to stand (dx, dy) away from the agent after this round's moves: bombs
// closer to exploding weigh more, and so do bombs closer to the field.
func danger(bombs []nearBomb, dx, dy int) int {
	total := 0
	for _, b := range bombs {
		distance := max(abs(b.dx-dx), abs(b.dy-dy))
		if distance <= blastRadius {
			total += (5-b.countdown)*100 + (blastRadius+1-distance)*10
		}
	}
	return total
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
