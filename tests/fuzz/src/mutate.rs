//! Mutations of valid samples (a real replay, real protocol lines, a real bot), driven by the
//! input bytes: random bytes alone almost never get past a JSON parser or a wasm header, a
//! sample with a few edits does, and reaches the checks behind them.
//!
//! [`bytes`] edits raw bytes (bit flips, inserted tokens, cut and duplicated ranges); [`json`]
//! edits a parsed JSON value (a field replaced by another type or an edge-case number, an
//! element dropped or doubled, a key removed or added), which keeps the text parseable and so
//! exercises what the deserialised values mean.

use arbitrary::Unstructured;
use serde_json::{Map, Value};

/// Text that often matters to a parser.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e999",
    "-0",
    "255",
    "256",
    "4294967296",
    "18446744073709551616",
    "9223372036854775807",
    "null",
    "true",
    "\"\"",
    "[]",
    "{}",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "NaN",
    "\n",
    "\r\n",
    " ",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\",
    "\u{fffd}",
    "é",
];

/// Numbers at the edges of the types fields are read as.
fn edge_number(u: &mut Unstructured) -> Value {
    let numbers: [Value; 16] = [
        Value::from(0),
        Value::from(-1),
        Value::from(1),
        Value::from(2),
        Value::from(255),
        Value::from(256),
        Value::from(65_535),
        Value::from(65_536),
        Value::from(u32::MAX),
        Value::from(u64::from(u32::MAX) + 1),
        Value::from(u64::MAX),
        Value::from(i64::MIN),
        Value::from(i64::MAX),
        Value::from(1.5),
        Value::from(-0.0),
        Value::from(1e300),
    ];
    let index = u.choose_index(numbers.len()).unwrap_or(0);
    numbers[index].clone()
}

/// An index into something of length `len` (0 when empty or out of bytes).
fn index(u: &mut Unstructured, len: usize) -> usize {
    u.choose_index(len).unwrap_or(0)
}

/// A few byte-level edits of `sample`.
pub fn bytes(sample: &[u8], u: &mut Unstructured) -> Vec<u8> {
    let mut out = sample.to_vec();
    let edits = u.int_in_range(1..=4).unwrap_or(1);
    for _ in 0..edits {
        let at = index(u, out.len());
        match u.int_in_range(0..=6).unwrap_or(0) {
            0 => {
                let bit = u.int_in_range(0..=7).unwrap_or(0);
                if let Some(byte) = out.get_mut(at) {
                    *byte ^= 1 << bit;
                }
            }
            1 => {
                let new = u.arbitrary().unwrap_or(0);
                if let Some(byte) = out.get_mut(at) {
                    *byte = new;
                }
            }
            2 => {
                let token = TOKENS[index(u, TOKENS.len())];
                out.splice(at..at, token.bytes());
            }
            3 => {
                let end = (at + u.int_in_range(1..=16).unwrap_or(1)).min(out.len());
                out.drain(at..end);
            }
            4 => {
                let end = (at + u.int_in_range(1..=64).unwrap_or(1)).min(out.len());
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            5 => out.truncate(at),
            _ => {
                let len = u.int_in_range(0..=8).unwrap_or(0);
                let new = u.bytes(len).unwrap_or_default().to_vec();
                out.splice(at..at, new);
            }
        }
    }
    out
}

/// A few edits of a parsed JSON value, each at a random node.
pub fn json(sample: &Value, u: &mut Unstructured) -> Value {
    let mut value = sample.clone();
    let edits = u.int_in_range(1..=3).unwrap_or(1);
    for _ in 0..edits {
        let pointer = pick(&value, u);
        if let Some(node) = value.pointer_mut(&pointer) {
            edit(node, u);
        }
    }
    value
}

/// The JSON pointer of a random node of `value` below the root (replacing a whole file is what
/// raw inputs do): walk down, stopping at each level past the first with probability 1/4.
fn pick(value: &Value, u: &mut Unstructured) -> String {
    let mut pointer = String::new();
    let mut node = value;
    while pointer.is_empty() || !u.ratio(1, 4).unwrap_or(true) {
        let child = match node {
            Value::Array(items) if !items.is_empty() => {
                let at = index(u, items.len());
                pointer.push_str(&format!("/{at}"));
                &items[at]
            }
            Value::Object(fields) if !fields.is_empty() => {
                let at = index(u, fields.len());
                let Some((key, child)) = fields.iter().nth(at) else { break };
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                child
            }
            _ => break,
        };
        node = child;
    }
    pointer
}

/// One edit of one node.
fn edit(node: &mut Value, u: &mut Unstructured) {
    match u.int_in_range(0..=5).unwrap_or(0) {
        0 => *node = edge_number(u),
        1 => *node = arbitrary_value(u, 2),
        2 => match node {
            Value::Array(items) if !items.is_empty() => {
                let at = index(u, items.len());
                items.remove(at);
            }
            Value::Object(fields) if !fields.is_empty() => {
                let at = index(u, fields.len());
                let key = fields.keys().nth(at).cloned().unwrap_or_default();
                fields.remove(&key);
            }
            Value::String(text) => *text = String::from_utf8_lossy(&bytes(text.as_bytes(), u)).into_owned(),
            Value::Number(_) => *node = edge_number(u),
            _ => *node = Value::Null,
        },
        3 => match node {
            Value::Array(items) if !items.is_empty() => {
                let at = index(u, items.len());
                let copy = items[at].clone();
                let times = u.int_in_range(1..=8).unwrap_or(1);
                for _ in 0..times {
                    items.insert(at, copy.clone());
                }
            }
            Value::Object(fields) => {
                let key = arbitrary_key(u);
                fields.insert(key, arbitrary_value(u, 1));
            }
            _ => *node = Value::Array(vec![node.clone()]),
        },
        4 => *node = Value::Null,
        _ => {
            // A number nudged by one, or a string from another field's vocabulary.
            if let Some(n) = node.as_i64() {
                *node = Value::from(n.saturating_add(if u.arbitrary().unwrap_or(false) { 1 } else { -1 }));
            } else if let Some(n) = node.as_u64() {
                *node = Value::from(n.wrapping_add(1));
            } else {
                *node = Value::String(arbitrary_key(u));
            }
        }
    }
}

/// A short key or string: often a name the formats use, so that unions and enums meet
/// their other variants.
fn arbitrary_key(u: &mut Unstructured) -> String {
    const NAMES: &[&str] = &[
        "turns",
        "map",
        "board",
        "placement",
        "seed",
        "players",
        "width",
        "height",
        "rounds",
        "text",
        "standard",
        "corners",
        "Green",
        "Red",
        "Move",
        "Blast",
        "BlastAt",
        "Transform",
        "Wait",
        "Attack",
        "N",
        "SE",
        "Up",
        "PlantBomb",
        "walk",
        "shoot",
        "ten_by_ten",
        "symmetric",
        "auto",
        "answer",
        "applied",
        "faults",
    ];
    if u.ratio(3, 4).unwrap_or(true) {
        NAMES[index(u, NAMES.len())].to_owned()
    } else {
        let len = u.int_in_range(0..=12).unwrap_or(0);
        String::from_utf8_lossy(u.bytes(len).unwrap_or_default()).into_owned()
    }
}

/// A small arbitrary JSON value, nested at most `depth` deep.
pub fn arbitrary_value(u: &mut Unstructured, depth: u32) -> Value {
    let most = if depth == 0 { 4 } else { 6 };
    match u.int_in_range(0..=most).unwrap_or(0) {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary().unwrap_or(false)),
        2 => edge_number(u),
        3 => Value::from(u.arbitrary::<i64>().unwrap_or(0)),
        4 => Value::String(arbitrary_key(u)),
        5 => {
            let len = u.int_in_range(0..=4).unwrap_or(0);
            Value::Array((0..len).map(|_| arbitrary_value(u, depth - 1)).collect())
        }
        _ => {
            let len = u.int_in_range(0..=4).unwrap_or(0);
            let fields: Map<String, Value> =
                (0..len).map(|_| (arbitrary_key(u), arbitrary_value(u, depth - 1))).collect();
            Value::Object(fields)
        }
    }
}
