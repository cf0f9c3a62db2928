//! `azul-table`: an Azul bot that knows nothing but a table in its data folder. At start-up it
//! reads `/data/weights.txt` (one `NAME VALUE` a line: `immediate`, `line1` to `line5`, `floor`)
//! and then plays the legal move of highest value, `immediate` times the move's immediate score
//! change plus the weight of the line its tiles go to; ties go to the first move in
//! `legal_moves` order. Without the file (no data folder) it says so in its log and plays the
//! first legal move.
//!
//! The build puts the example's `data/` folder beside the bot, as `azul-table.data/`, where
//! `arena match` finds it (`NAME.data` beside `NAME.wasm`); `--data 0=DIR` gives it another.

use arena_sdk::azul::prelude::*;

/// Where the table is, in the bot's data folder.
const TABLE: &str = "/data/weights.txt";

/// The table: what a move's parts are worth.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Per point of the move's immediate score change.
    immediate: i32,
    /// Per target: pattern lines 1 to 5, then the floor.
    lines: [i32; 6],
}

impl Weights {
    /// Parses the table's text: `NAME VALUE` lines, `#` comments; a name left out is 0.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut weights = Weights { immediate: 0, lines: [0; 6] };
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(format!("line {}: expected `NAME VALUE`", number + 1));
            };
            let value: i32 = value.parse().map_err(|_| format!("line {}: {value:?} is not a number", number + 1))?;
            let slot = match name {
                "immediate" => &mut weights.immediate,
                "floor" => &mut weights.lines[5],
                _ => {
                    let line =
                        name.strip_prefix("line").and_then(|n| n.parse::<usize>().ok()).filter(|n| (1..=5).contains(n));
                    let Some(line) = line else { return Err(format!("line {}: unknown name {name:?}", number + 1)) };
                    &mut weights.lines[line - 1]
                }
            };
            *slot = value;
        }
        Ok(weights)
    }

    /// What `mv` is worth in `state`.
    pub fn value(&self, state: &BoardState, mv: &Move) -> i32 {
        // Pattern lines are 0 to 4, the floor is `FLOOR_LINE` (5).
        let line = usize::from(mv.line.min(FLOOR_LINE));
        self.immediate * state.score_if_placed(mv) + self.lines[line]
    }
}

/// The table from the data folder, or `None` (logged) without one.
#[derive(Default)]
pub struct TableBot {
    weights: Option<Weights>,
}

impl AzulBot for TableBot {
    fn init(&mut self, _info: &InitInfo) {
        self.weights = match std::fs::read_to_string(TABLE) {
            Ok(text) => match Weights::parse(&text) {
                Ok(weights) => Some(weights),
                Err(why) => {
                    log::warn(&format!("{TABLE}: {why}; playing the first legal move"));
                    None
                }
            },
            Err(err) => {
                log::info(&format!("no table ({TABLE}: {err}); playing the first legal move"));
                None
            }
        };
    }

    fn act(&mut self, view: &View) -> Move {
        let moves = view.state.legal_moves();
        let best = match &self.weights {
            // `max_by_key` keeps the last of equal values: reversed, it keeps the first.
            Some(weights) => moves.iter().rev().max_by_key(|mv| weights.value(&view.state, mv)).copied(),
            None => moves.first().copied(),
        };
        best.unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(TableBot);
