// A SuiteBot II bot written as an ordinary C++ program: it reads one JSON object per round on
// stdin and prints its move (U, D, L, R, H or B) on stdout, SuiteBot II's original protocol with
// the game option board=strings (each board column one string of digits). It walks towards the
// richest fields, plants a bomb where the blast would clear several points, and keeps out of the
// way of bombs about to explode. Natively: `c++ -std=c++20 -O2 main.cpp -o bot && ./bot`;
// `cargo xtask build-bot bots-examples/suitebot-stdio-cpp` builds the same program with clang++
// for wasm32-wasi, a bot the arena runs. It needs nlohmann/json (Debian's nlohmann-json3-dev)
// besides the standard library.

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

using json = nlohmann::json;

namespace {

// One line of stdin, its newline included, in a buffer reused by every call; nullopt when stdin
// ends. POSIX getline rather than std::getline(std::cin, line): in the arena the bot pays fuel
// for every instruction, and libc++'s istream takes each character through its stream buffer
// (about 150 fuel a byte, several times what parsing the JSON costs), while getline copies
// the line out of stdio's buffer in one go.
std::optional<std::string_view> read_line() {
    static char* buffer = nullptr;
    static size_t capacity = 0;
    ssize_t length = getline(&buffer, &capacity, stdin);
    if (length < 0) {
        return std::nullopt;
    }
    return std::string_view(buffer, static_cast<size_t>(length));
}

constexpr int kBlastRadius = 1;  // the game's default: a bomb clears the 3 x 3 square around it
constexpr int kFuse = 4;         // a bomb explodes in the fourth round after it is planted

// The moves the bot walks with: letter and offset. Y grows downwards: UP is (0, -1).
struct Move {
    char letter;
    int dx, dy;
};
constexpr std::array<Move, 5> kMoves{{{'U', 0, -1}, {'D', 0, 1}, {'L', -1, 0}, {'R', 1, 0}, {'H', 0, 0}}};

// The heading after a right turn.
char turn_right(char heading) {
    switch (heading) {
    case 'R': return 'D';
    case 'D': return 'L';
    case 'L': return 'U';
    default: return 'R';
    }
}

// One round's object, as board=strings writes it. The JSON library was built without
// exceptions, so a field of the wrong type would abort the bot: fields are read with value(),
// which gives the default when the field is missing.
struct State {
    int round = 0;
    int remaining = 0;  // rounds left, this one included
    int width = 0;
    int height = 0;
    int x = 0, y = 0;  // our agent
    // resources[x][y] is the digit of the points left on (x, y), '0' or '1'.
    std::vector<std::string> resources;
    // bombs[x][2y] and [2y+1] are the owner id digit and the countdown digit (rounds left before
    // the round it explodes in) of the bomb on (x, y), ".." for none.
    std::vector<std::string> bombs;

    // The board is a torus: leaving one edge enters the opposite one.
    int wrap_x(int v) const { return ((v % width) + width) % width; }
    int wrap_y(int v) const { return ((v % height) + height) % height; }
    int points(int px, int py) const { return resources[wrap_x(px)][wrap_y(py)] - '0'; }
    // The countdown of the bomb on (px, py), nullopt when there is none.
    std::optional<int> bomb(int px, int py) const {
        const std::string& column = bombs[wrap_x(px)];
        int at = 2 * wrap_y(py);
        if (column[at] == '.') {
            return std::nullopt;
        }
        return column[at + 1] - '0';
    }
};

// The board fields as strings of `length` characters per column, `width` columns; nullopt when
// they are not (the game's default, board=nested, sends arrays of arrays).
std::optional<std::vector<std::string>> columns(const json& field, int width, int length) {
    if (!field.is_array() || static_cast<int>(field.size()) != width) {
        return std::nullopt;
    }
    std::vector<std::string> result;
    for (const json& column : field) {
        if (!column.is_string() || static_cast<int>(column.get_ref<const std::string&>().size()) != length) {
            return std::nullopt;
        }
        result.push_back(column.get<std::string>());
    }
    return result;
}

// The member `key` of `object`, nullptr when `object` is not an object or has none. (Asking a
// const json's operator[] for a missing member is undefined behaviour in a release build.)
const json* member(const json* object, const std::string& key) {
    if (object == nullptr || !object->is_object()) {
        return nullptr;
    }
    auto found = object->find(key);
    return found == object->end() ? nullptr : &*found;
}

// The round's state; nullopt when the line is not a round as board=strings writes it.
std::optional<State> read_state(const json& line) {
    State s;
    s.round = line.value("currentRound", 0);
    s.remaining = line.value("remainingRounds", 0);
    s.width = line.value("gamePlanWidth", 0);
    s.height = line.value("gamePlanHeight", 0);
    std::string me = std::to_string(line.value("aiPlayerId", 0));
    const json* agent = member(member(member(&line, "players"), me), "agentLocation");
    const json* resources_field = member(&line, "fieldResources");
    const json* bombs_field = member(&line, "fieldBombs");
    if (s.width <= 0 || s.height <= 0 || agent == nullptr || !agent->is_object() || resources_field == nullptr ||
        bombs_field == nullptr) {
        return std::nullopt;
    }
    s.x = agent->value("x", 0);
    s.y = agent->value("y", 0);
    auto resources = columns(*resources_field, s.width, s.height);
    auto bombs = columns(*bombs_field, s.width, 2 * s.height);
    if (!resources || !bombs) {
        return std::nullopt;
    }
    s.resources = std::move(*resources);
    s.bombs = std::move(*bombs);
    return s;
}

// A bomb at offset (dx, dy) from the agent.
struct NearBomb {
    int dx, dy, countdown;
};

// The bombs within `radius` fields of the agent (Chebyshev distance, on the torus).
std::vector<NearBomb> bombs_around(const State& s, int radius) {
    std::vector<NearBomb> found;
    for (int dx = -radius; dx <= radius; dx++) {
        for (int dy = -radius; dy <= radius; dy++) {
            if (std::optional<int> countdown = s.bomb(s.x + dx, s.y + dy)) {
                found.push_back({dx, dy, *countdown});
            }
        }
    }
    return found;
}

// The points a bomb planted on (x, y) would clear.
int blast_value(const State& s, int x, int y) {
    int total = 0;
    for (int dx = -kBlastRadius; dx <= kBlastRadius; dx++) {
        for (int dy = -kBlastRadius; dy <= kBlastRadius; dy++) {
            total += s.points(x + dx, y + dy);
        }
    }
    return total;
}

// How bad it is to stand (dx, dy) away from the agent after this round's moves: bombs closer to
// exploding weigh more, and so do bombs closer to the field.
int danger(const std::vector<NearBomb>& bombs, int dx, int dy) {
    int total = 0;
    for (const NearBomb& b : bombs) {
        int distance = std::max(std::abs(b.dx - dx), std::abs(b.dy - dy));
        if (distance <= kBlastRadius) {
            total += (5 - b.countdown) * 100 + (kBlastRadius + 1 - distance) * 10;
        }
    }
    return total;
}

// What the bot keeps between rounds: the process lives for the whole match.
struct Memory {
    char heading = 'R';
    int planted_in = -kFuse - 1;  // the round of our last bomb
};

// Picks one move: safety first, then points, else keep exploring.
char choose(const State& s, Memory& memory) {
    // Every bomb whose blast could reach a field the agent can step onto.
    std::vector<NearBomb> bombs = bombs_around(s, kBlastRadius + 1);

    // Plant where the blast clears several points, when no bomb of ours is ticking (time enough
    // to walk two fields away before it explodes) and the bomb would explode before the end.
    if (s.round - memory.planted_in > kFuse && blast_value(s, s.x, s.y) >= 4 && danger(bombs, 0, 0) == 0 &&
        s.remaining > kFuse) {
        memory.planted_in = s.round;
        return 'B';
    }

    // Change heading now and then, so that an agent in cleared land explores.
    if (s.round % 7 == 0) {
        memory.heading = turn_right(memory.heading);
    }

    const Move* best = nullptr;
    int best_score = 0;
    for (const Move& move : kMoves) {
        int score = 2 * blast_value(s, s.x + move.dx, s.y + move.dy) - danger(bombs, move.dx, move.dy);
        if (move.letter == memory.heading) {
            score++;
        }
        if (best == nullptr || score > best_score) {
            best = &move;
            best_score = score;
        }
    }
    if (best->letter != 'H') {
        memory.heading = best->letter;
    }
    return best->letter;
}

}  // namespace

int main() {
    Memory memory;
    while (std::optional<std::string_view> line = read_line()) {
        if (line->find_first_not_of(" \r\n") == std::string_view::npos) {
            continue;
        }
        // parse(..., nullptr, false) returns a "discarded" value instead of aborting the bot
        // when the line is not JSON.
        json message = json::parse(line->begin(), line->end(), nullptr, false);
        if (message.is_discarded() || !message.is_object()) {
            // stderr is the bot's log; a round without an answer is a HOLD.
            std::fprintf(stderr, "skipping a line that is not a JSON object: %.*s", static_cast<int>(line->size()), line->data());
            continue;
        }
        std::optional<State> state = read_state(message);
        if (!state) {
            std::fprintf(stderr, "this bot reads the board as strings: play it with --option board=strings\n");
            return EXIT_FAILURE;
        }
        // One letter and a newline; stdout is fully buffered when it is not a terminal, so
        // without the flush the host would never see the line.
        std::printf("%c\n", choose(*state, memory));
        std::fflush(stdout);
    }
    return EXIT_SUCCESS;
}
