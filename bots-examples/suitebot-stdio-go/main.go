// A SuiteBot II bot written as an ordinary Go program: it reads one JSON object per round on
// stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original protocol. It
// walks towards the richest fields, plants a bomb where the blast would clear several points,
// and keeps out of the way of bombs about to explode. Run it as `go run .`;
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

type bomb struct {
	OwnerID   int `json:"ownerId"`
	Countdown int `json:"countdown"` // rounds left before the round it explodes in
}

// state is one round's object. The board arrays are indexed [x][y], column first.
type state struct {
	AIPlayerID      int               `json:"aiPlayerId"`
	CurrentRound    int               `json:"currentRound"`
	RemainingRounds int               `json:"remainingRounds"` // this round included
	Width           int               `json:"gamePlanWidth"`
	Height          int               `json:"gamePlanHeight"`
	Players         map[string]player `json:"players"`
	FieldResources  [][]int           `json:"fieldResources"`
	// A field without a bomb is null, which decodes to nil.
	FieldBombs [][]*bomb `json:"fieldBombs"`
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
	// The default board's line is about 3 KB, but a 100 x 100 board (the largest the game
	// allows) sends 10,000 values in each board array, a line of about 70 KB: past a Scanner's
	// 64 KiB default, where it stops with bufio.ErrTooLong. 1 MiB leaves room to spare.
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
			// stderr is the bot's log; a round without an answer is a HOLD.
			fmt.Fprintln(os.Stderr, "skipping a line that is not a round:", err)
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
			if b := s.FieldBombs[s.wrapX(x+dx)][s.wrapY(y+dy)]; b != nil {
				found = append(found, nearBomb{dx, dy, b.Countdown})
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
			total += s.FieldResources[s.wrapX(x+dx)][s.wrapY(y+dy)]
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
