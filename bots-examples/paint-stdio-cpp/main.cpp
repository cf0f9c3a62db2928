// A Paint bot written as an ordinary C++ program: it reads the game's states as JSON lines on
// stdin and prints its moves on stdout (Paint's original protocol). It walks to the nearest
// square that is not its colour, and now and then shoots an opponent standing in line with it.
// Natively: `c++ -std=c++20 -O2 main.cpp -o bot && ./bot`; `cargo xtask build-bot
// bots-examples/paint-stdio-cpp` builds the same program with clang++ for wasm32-wasi, a bot the
// arena runs. It needs nlohmann/json (Debian's nlohmann-json3-dev) besides the standard library.
//
// Written for `--option previous_actions=last`: the bot never reads previous_actions, but it
// parses its whole line, and with the original `all` that line grows every turn.

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

// A step [di, dj], di the row delta.
using Step = std::array<int, 2>;

// The 8 king moves, in a fixed order so that the bot plays the same match the same way.
constexpr std::array<Step, 8> kDirections{{{-1, 0}, {-1, 1}, {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}}};

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

// Writes one answer line. stdout is fully buffered when it is not a terminal: without the flush
// the host would never see the line.
void answer(const json& message) {
    std::puts(message.dump().c_str());
    std::fflush(stdout);
}

// What the bot uses of one turn's state. The JSON library was built without exceptions, so a
// field of the wrong type would abort the bot: fields are read with value(), which gives the
// default when the field is missing.
struct State {
    int width = 0;
    int height = 0;
    Step me{};
    std::vector<Step> opponents;  // in id order: the JSON object's keys are sorted
    std::vector<bool> to_paint;   // [i * width + j]: not our colour yet
    std::vector<bool> blocked;    // [i * width + j]: an obstacle

    bool on_board(int i, int j) const { return 0 <= i && i < height && 0 <= j && j < width; }
};

Step position(const json& pair) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() || !pair[1].is_number_integer()) {
        return {-1, -1};
    }
    return {pair[0].get<int>(), pair[1].get<int>()};
}

State read_state(const json& line, const std::string& id) {
    State s;
    s.width = line.value("width", 0);
    s.height = line.value("height", 0);
    s.to_paint.assign(static_cast<size_t>(s.width * s.height), false);
    s.blocked.assign(s.to_paint.size(), false);
    if (auto players = line.find("player_positions"); players != line.end() && players->is_object()) {
        for (const auto& [who, where] : players->items()) {
            if (who == id) {
                s.me = position(where);
            } else {
                s.opponents.push_back(position(where));
            }
        }
    }
    // colors[i][j] is the id owning square [i, j], null when unpainted.
    if (auto colors = line.find("colors"); colors != line.end() && colors->is_array()) {
        for (int i = 0; i < s.height && i < static_cast<int>(colors->size()); i++) {
            const json& row = (*colors)[i];
            for (int j = 0; j < s.width && j < static_cast<int>(row.size()); j++) {
                const json& owner = row[j];
                s.to_paint[i * s.width + j] = !owner.is_string() || owner.get_ref<const std::string&>() != id;
            }
        }
    }
    // Only sent when the match has obstacles: squares nobody can enter or paint.
    if (auto obstacles = line.find("obstacles"); obstacles != line.end() && obstacles->is_array()) {
        for (const json& square : *obstacles) {
            auto [i, j] = position(square);
            if (s.on_board(i, j)) {
                s.blocked[i * s.width + j] = true;
            }
        }
    }
    return s;
}

// The first step of a shortest walk from our square to the nearest square that is not our colour
// (breadth first, directions in a fixed order); nullopt when every reachable square is ours.
std::optional<Step> first_step_to_paint(const State& s) {
    struct Node {
        int i, j, first;  // first: index into kDirections, -1 for the start
    };
    auto [si, sj] = s.me;
    if (!s.on_board(si, sj)) {
        return std::nullopt;
    }
    std::vector<bool> seen = s.blocked;  // a walk into an obstacle is dropped
    seen[si * s.width + sj] = true;
    std::vector<Node> queue{{si, sj, -1}};
    for (size_t next = 0; next < queue.size(); next++) {
        Node n = queue[next];
        if (n.first >= 0 && s.to_paint[n.i * s.width + n.j]) {
            return kDirections[n.first];
        }
        for (int d = 0; d < static_cast<int>(kDirections.size()); d++) {
            int i = n.i + kDirections[d][0], j = n.j + kDirections[d][1];
            if (!s.on_board(i, j) || seen[i * s.width + j]) {
                continue;
            }
            seen[i * s.width + j] = true;
            queue.push_back({i, j, n.first < 0 ? d : n.first});
        }
    }
    return std::nullopt;
}

int sign(int x) { return (x > 0) - (x < 0); }

// The direction of an opponent standing on a straight or diagonal line from our square, if any.
std::optional<Step> opponent_in_line(const State& s) {
    for (auto [oi, oj] : s.opponents) {
        int di = oi - s.me[0], dj = oj - s.me[1];
        if ((di == 0) != (dj == 0) || (di != 0 && (di == dj || di == -dj))) {
            return Step{sign(di), sign(dj)};
        }
    }
    return std::nullopt;
}

// Shoots an opponent in line every third turn (a shot paints a line of squares and can stop an
// opponent's), and otherwise walks towards the nearest square still to paint: the walker's square
// is painted on arrival.
json choose(const State& s, int turns_left) {
    std::optional<Step> aim = opponent_in_line(s);
    if (aim && turns_left % 3 == 0) {
        return {{"type", "shoot"}, {"direction", *aim}};
    }
    if (std::optional<Step> step = first_step_to_paint(s)) {
        return {{"type", "walk"}, {"direction", *step}};
    }
    // Every reachable square is ours already: a shot is the only move that can paint more.
    return {{"type", "shoot"}, {"direction", aim.value_or(Step{1, 0})}};
}

}  // namespace

int main() {
    std::string id;  // our player id, which is also our colour on the board
    while (std::optional<std::string_view> line = read_line()) {
        // parse(..., nullptr, false) returns a "discarded" value instead of aborting the bot
        // when the line is not JSON.
        json message = json::parse(line->begin(), line->end(), nullptr, false);
        if (message.is_discarded() || !message.is_object()) {
            // stderr is the bot's log; a turn without an answer is a turn standing still.
            std::fprintf(stderr, "skipping a line that is not a JSON object: %.*s", static_cast<int>(line->size()), line->data());
            continue;
        }
        // The greeting, {"player_id":"a"}, comes first.
        if (auto player = message.find("player_id"); player != message.end() && player->is_string()) {
            id = player->get<std::string>();
            answer({{"ready", true}});
            continue;
        }
        int turns_left = message.value("turns_left", 0);
        json move = choose(read_state(message, id), turns_left);
        // turns_left must echo the state's: it ties the answer to the state it answers.
        move["turns_left"] = turns_left;
        answer(move);
    }
    return EXIT_SUCCESS;
}
