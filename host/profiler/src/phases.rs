//! Which phase of the match each sample fell in (start-up and `init`, turn N, suspended, trapped),
//! read from the match's replay: the replay records the fuel the seat spent in its start-up and
//! in every turn, so the seat's running total tells the phase of any point of its fuel counter.

use serde_json::Value;

/// One stretch of the seat's fuel: `label` covers consumed fuel in `(start, end]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phase {
    /// `start-up and init`, `turn 12`, `turn 13 (suspended)`, `turn 40 (trapped: stack overflow)`.
    pub label: String,
    /// The seat's consumed fuel when the phase ended.
    pub end: u64,
}

/// Seat `seat`'s phases, in order, from a replay (the JSON `arena match --replay` writes).
pub fn phases(replay: &Value, seat: usize) -> Vec<Phase> {
    let seat_of = |entry: &&Value| entry["seat"].as_u64() == Some(seat as u64);
    let mut end = 0;
    let mut out = Vec::new();
    let startup = replay["setup"].as_array().into_iter().flatten().find(seat_of);
    if let Some(entry) = startup {
        end += entry["fuel"].as_u64().unwrap_or(0);
        out.push(Phase { label: with_faults("start-up and init".into(), entry), end });
    }
    for turn in replay["turns"].as_array().into_iter().flatten() {
        let Some(entry) = turn["seats"].as_array().into_iter().flatten().find(seat_of) else { continue };
        end += entry["fuel"].as_u64().unwrap_or(0);
        let label = format!("turn {}", turn["turn"].as_u64().unwrap_or(0));
        out.push(Phase { label: with_faults(label, entry), end });
    }
    out
}

/// `label` with what went wrong in the phase, from the entry's `faults`.
fn with_faults(label: String, entry: &Value) -> String {
    let faults: Vec<String> = entry["faults"].as_array().into_iter().flatten().map(fault_label).collect();
    if faults.is_empty() { label } else { format!("{label} ({})", faults.join(", ")) }
}

/// A fault as a phase label shows it (the replay's tagged form, `{"fault": "trapped", "trap":
/// "stack_overflow", ...}`): `suspended`, `trapped: stack overflow`, `invalid action`,
/// `forfeit: game fuel exhausted`.
fn fault_label(fault: &Value) -> String {
    let words = |value: &Value| value.as_str().map(|text| text.replace('_', " "));
    let kind = words(&fault["fault"]).unwrap_or_else(|| "fault".into());
    let detail = words(&fault["trap"]).or_else(|| words(&fault["reason"]));
    match detail {
        Some(detail) => format!("{kind}: {detail}"),
        None => kind,
    }
}

/// The phase a sample taken at consumed fuel `at` belongs to: the first that ended at or after
/// it; past the last phase (fuel the replay does not account for), `None`.
pub fn phase_of(phases: &[Phase], at: u64) -> Option<&Phase> {
    phases.get(phases.partition_point(|phase| phase.end < at))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay() -> Value {
        serde_json::json!({
            "setup": [{"seat": 0, "fuel": 100}, {"seat": 1, "fuel": 7}],
            "turns": [
                {"turn": 1, "seats": [{"seat": 0, "fuel": 50}]},
                {"turn": 2, "seats": [{"seat": 1, "fuel": 9}]},
                {"turn": 3, "seats": [{"seat": 0, "fuel": 1000, "faults": [{"fault": "suspended"}]}]},
                {"turn": 5, "seats": [{"seat": 0, "fuel": 20, "faults": [
                    {"fault": "trapped", "phase": "turn", "trap": "stack_overflow"},
                    {"fault": "invalid_action", "reason": {"kind": "illegal"}}
                ]}]},
            ],
        })
    }

    #[test]
    fn phases_follow_the_seats_running_total() {
        let phases = phases(&replay(), 0);
        let labels: Vec<(&str, u64)> = phases.iter().map(|phase| (phase.label.as_str(), phase.end)).collect();
        assert_eq!(
            labels,
            [
                ("start-up and init", 100),
                ("turn 1", 150),
                ("turn 3 (suspended)", 1150),
                ("turn 5 (trapped: stack overflow, invalid action)", 1170)
            ]
        );
    }

    #[test]
    fn a_sample_belongs_to_the_phase_its_fuel_falls_in() {
        let phases = phases(&replay(), 0);
        assert_eq!(phase_of(&phases, 1).unwrap().label, "start-up and init");
        assert_eq!(phase_of(&phases, 100).unwrap().label, "start-up and init");
        assert_eq!(phase_of(&phases, 101).unwrap().label, "turn 1");
        assert_eq!(phase_of(&phases, 1_160).unwrap().label, "turn 5 (trapped: stack overflow, invalid action)");
        assert_eq!(phase_of(&phases, 1_171), None);
    }
}
