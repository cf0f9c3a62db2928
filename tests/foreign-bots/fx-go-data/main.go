// fx-go-data: a Go program with a data folder. At start it logs on stderr one `data <what>: ok
// <answer>` or `data <what>: denied (<error>)` line for reading /data/table.txt, listing /data
// and writing /data/new.txt, then plays Paint on its line protocol as
// bots-examples/paint-stdio-go reads and answers it: it shoots east every turn. The arena runs
// it as the core module it is, on WASI preview1, where the data folder is descriptor 3.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func report(what string, value any, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "data %s: denied (%v)\n", what, err)
		return
	}
	fmt.Fprintf(os.Stderr, "data %s: ok %v\n", what, value)
}

func probe() {
	table, err := os.ReadFile("/data/table.txt")
	report("read table", fmt.Sprintf("%q", table), err)
	entries, err := os.ReadDir("/data")
	names := []string{}
	for _, entry := range entries {
		names = append(names, entry.Name())
	}
	report("list", names, err)
	err = os.WriteFile("/data/new.txt", []byte("x"), 0o644)
	report("write", "", err)
}

// state is the part of a turn's line the bot reads: turns_left, the nonce its answer echoes.
type state struct {
	TurnsLeft int `json:"turns_left"`
}

type answer struct {
	TurnsLeft int    `json:"turns_left"`
	Type      string `json:"type"`
	Direction [2]int `json:"direction"`
}

func main() {
	probe()
	in := bufio.NewReader(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	if _, err := in.ReadString('\n'); err != nil {
		return
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
			fmt.Fprintln(os.Stderr, "skipping a line that is not a state:", err)
			continue
		}
		if err := out.Encode(answer{TurnsLeft: s.TurnsLeft, Type: "shoot", Direction: [2]int{0, 1}}); err != nil {
			return
		}
	}
}
