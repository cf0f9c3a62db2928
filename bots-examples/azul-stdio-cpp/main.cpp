// An Azul bot written as an ordinary C++ program: it speaks the arena's Azul text protocol on
// stdin and stdout (docs/games/azul.md, "Original protocol"), asks for the whole state every turn,
// and plays the move with the best immediate score change: the points of a pattern line it
// completes, minus the floor penalty of the tiles that do not fit; ties go to the move that puts
// more tiles on a pattern line, then to the first in source, colour, line order. Natively:
// `c++ -std=c++20 -O2 main.cpp -o bot && ./bot`; `cargo xtask build-bot bots-examples/azul-stdio-cpp`
// builds the same program with clang++ for wasm32-wasi, a bot the arena runs. Standard library
// only.

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <vector>

namespace {

// The colour letters in the game's order: a colour is its index here.
constexpr std::string_view kColours = "gobyr";
constexpr int kLines = 5;    // pattern lines 0..4, each holding up to line + 1 tiles
constexpr int kFloor = 5;    // the answer's line for the floor
constexpr int kSources = 6;  // 0 = the center, 1..5 = the factories
// The penalty of each floor slot, left to right; tiles beyond the seventh slot cost nothing.
constexpr std::array<int, 7> kFloorPenalties{-1, -1, -2, -2, -2, -3, -3};

// One line of stdin, its newline included, in a buffer reused by every call; nullopt when stdin
// ends. POSIX getline rather than std::getline(std::cin, line): in the arena the bot pays fuel
// for every instruction, and libc++'s istream takes each character through its stream buffer
// (about 150 fuel a byte), while getline copies the line out of stdio's buffer in one go.
std::optional<std::string_view> read_line() {
    static char* buffer = nullptr;
    static size_t capacity = 0;
    ssize_t length = getline(&buffer, &capacity, stdin);
    if (length < 0) {
        return std::nullopt;
    }
    return std::string_view(buffer, static_cast<size_t>(length));
}

// The words of a line, split at spaces (the newline dropped).
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> result;
    while (true) {
        size_t start = line.find_first_not_of(" \r\n");
        if (start == std::string_view::npos) {
            return result;
        }
        line.remove_prefix(start);
        size_t end = std::min(line.find_first_of(" \r\n"), line.size());
        result.push_back(line.substr(0, end));
        line.remove_prefix(end);
    }
}

int number(std::string_view word) {
    int value = 0;
    std::from_chars(word.data(), word.data() + word.size(), value);
    return value;
}

// A colour letter's index, -1 for another character.
int colour(char letter) {
    size_t index = kColours.find(letter);
    return index == std::string_view::npos ? -1 : static_cast<int>(index);
}

// Tiles per colour in a tile word: the colour letters repeated per tile, `-` for none.
std::array<int, 5> counts(std::string_view tiles) {
    std::array<int, 5> result{};
    for (char letter : tiles) {
        if (int c = colour(letter); c >= 0) {
            result[c]++;
        }
    }
    return result;
}

struct Board {
    int floor = 0;  // occupied floor slots, the marker included
    std::array<std::array<bool, 5>, 5> wall{};
    std::array<int, kLines> line_count{};
    std::array<int, kLines> line_colour{};  // -1 when the line is empty
};

// What the bot knows of the game, rebuilt from the state lines of every turn.
struct State {
    int seat = 0;
    std::array<std::array<int, 5>, kSources> sources{};  // tiles per colour
    bool marker_in_center = false;
    std::array<Board, 2> boards;

    // Applies one line from the host; true at `go`, the end of a turn's message.
    bool apply(std::string_view line) {
        std::vector<std::string_view> w = words(line);
        if (w.empty()) {
            return false;
        }
        if (w[0] == "go") {
            return true;
        } else if (w[0] == "azul" && w.size() >= 2) {
            seat = number(w[1]) % 2;
        } else if (w[0] == "factories") {
            for (size_t i = 1; i < w.size() && i < kSources; i++) {
                sources[i] = counts(w[i]);
            }
        } else if (w[0] == "center" && w.size() >= 2) {
            sources[0] = counts(w[1]);
        } else if (w[0] == "marker" && w.size() >= 2) {
            marker_in_center = w[1] == "center";
        } else if (w[0] == "board" && w.size() >= 10) {
            // board <seat> <score> <floor> <wall> <l0> ... <l4>
            Board& board = boards[number(w[1]) % 2];
            board.floor = number(w[3]);
            // The wall's five rows are joined by '/': a letter where a tile lies, '.' elsewhere.
            for (int row = 0; row < 5; row++) {
                for (int col = 0; col < 5; col++) {
                    size_t at = static_cast<size_t>(row * 6 + col);
                    board.wall[row][col] = at < w[4].size() && w[4][at] != '.';
                }
            }
            for (int line_index = 0; line_index < kLines; line_index++) {
                std::string_view tiles = w[5 + line_index];
                int c = colour(tiles[0]);
                board.line_colour[line_index] = c;
                board.line_count[line_index] = c < 0 ? 0 : static_cast<int>(tiles.size());
            }
        }
        return false;
    }
};

// The wall column of `colour` in row `row`.
int wall_column(int row, int colour) { return (row + colour) % 5; }

// The points of a tile placed on the wall at (row, col): the horizontal run through it if at
// least 2 long, plus the vertical one likewise, or 1 for a tile with no neighbour.
int placement_points(const Board& board, int row, int col) {
    auto run = [&](int dr, int dc) {
        int length = 0;
        for (int r = row + dr, c = col + dc; 0 <= r && r < 5 && 0 <= c && c < 5 && board.wall[r][c]; r += dr, c += dc) {
            length++;
        }
        return length;
    };
    int horizontal = run(0, -1) + run(0, 1) + 1;
    int vertical = run(-1, 0) + run(1, 0) + 1;
    int points = (horizontal >= 2 ? horizontal : 0) + (vertical >= 2 ? vertical : 0);
    return points == 0 ? 1 : points;
}

// The total penalty of `slots` occupied floor slots (0 or negative).
int floor_penalty(int slots) {
    int total = 0;
    for (int i = 0; i < slots && i < static_cast<int>(kFloorPenalties.size()); i++) {
        total += kFloorPenalties[i];
    }
    return total;
}

struct Move {
    int source, colour, line;
};

bool legal(const Board& board, const Move& move) {
    if (move.line == kFloor) {
        return true;
    }
    int row = move.line;
    return board.line_count[row] < row + 1 &&
           (board.line_colour[row] < 0 || board.line_colour[row] == move.colour) &&
           !board.wall[row][wall_column(row, move.colour)];
}

// How good a legal move is: its immediate score change, times 8, plus the tiles it puts on a
// pattern line (at most 5) to break ties towards progress.
int value(const State& state, const Move& move) {
    const Board& board = state.boards[state.seat];
    int taken = state.sources[move.source][move.colour];
    int room = move.line == kFloor ? 0 : move.line + 1 - board.line_count[move.line];
    int to_line = std::min(taken, room);
    int to_floor = taken - to_line;
    if (move.source == 0 && state.marker_in_center) {
        to_floor++;  // the starting-player marker takes a floor slot
    }
    int points = 0;
    if (to_line > 0 && board.line_count[move.line] + to_line == move.line + 1) {
        points = placement_points(board, move.line, wall_column(move.line, move.colour));
    }
    int change = points + floor_penalty(board.floor + to_floor) - floor_penalty(board.floor);
    return change * 8 + to_line;
}

// The best legal move; nullopt when the table is empty.
std::optional<Move> choose(const State& state) {
    std::optional<Move> best;
    int best_value = 0;
    for (int source = 0; source < kSources; source++) {
        for (int c = 0; c < 5; c++) {
            if (state.sources[source][c] == 0) {
                continue;
            }
            for (int line = 0; line <= kFloor; line++) {
                Move move{source, c, line};
                if (!legal(state.boards[state.seat], move)) {
                    continue;
                }
                int v = value(state, move);
                if (!best || v > best_value) {
                    best = move;
                    best_value = v;
                }
            }
        }
    }
    return best;
}

// Writes one line. stdout is fully buffered when it is not a terminal: without the flush the
// host would never see the line.
void say(const char* text) {
    std::puts(text);
    std::fflush(stdout);
}

}  // namespace

int main() {
    // The first line declares the mode: the whole state every turn.
    say("state");
    State state;
    while (std::optional<std::string_view> line = read_line()) {
        if (!state.apply(*line)) {
            continue;
        }
        // The host ends each turn's message with `go`: the answer is `d c l`.
        Move move = choose(state).value_or(Move{0, 0, kFloor});
        char answer[16];
        std::snprintf(answer, sizeof answer, "%d %c %d", move.source, kColours[move.colour], move.line);
        say(answer);
    }
    return EXIT_SUCCESS;
}
