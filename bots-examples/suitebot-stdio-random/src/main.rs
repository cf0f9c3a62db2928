//! `suitebot-stdio-random`: a SuiteBot II bot written for the original protocol and nothing
//! else. It reads one JSON object per round from stdin and writes one of `U D L R H` (it never
//! plants, so it never blows itself up) per line to stdout. Its randomness is a xorshift seeded
//! from the first round's text, so the same match plays the same moves. Knows nothing of the
//! arena's SDK: any program that reads and writes these lines works the same way.

use std::io::{BufRead, Write};

const ACTIONS: [&str; 5] = ["U", "D", "L", "R", "H"];

fn main() {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    let mut state: u64 = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if state == 0 {
            // FNV-1a of the first round: differs per player (the JSON holds `aiPlayerId`).
            state = line.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
            state |= 1;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let action = ACTIONS[(state % ACTIONS.len() as u64) as usize];
        if writeln!(stdout, "{action}").and_then(|()| stdout.flush()).is_err() {
            break;
        }
    }
}
