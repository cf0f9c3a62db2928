//! Frame-to-frame JSON patches: a match's states are written once in full and then as the
//! differences from one turn to the next, so a 1000-turn page stays small. The page's script
//! applies them (`applyPatch` in `page.html`); this module and that function are one format.
//!
//! A patch is either `{"=": value}` (replace the whole value), `{"o": {key: patch, ...}}` (an
//! object whose listed keys changed; a key mapped to `{"-": 0}` was removed) or `{"a": {index:
//! patch, ...}}` (an array of the same length whose listed elements changed).

use serde_json::{Map, Value, json};

/// The patch that turns `before` into `after`; `None` when they are equal.
pub fn diff(before: &Value, after: &Value) -> Option<Value> {
    if before == after {
        return None;
    }
    match (before, after) {
        (Value::Object(old), Value::Object(new)) => {
            let mut changed = Map::new();
            for (key, value) in new {
                match old.get(key) {
                    Some(previous) => {
                        if let Some(patch) = diff(previous, value) {
                            changed.insert(key.clone(), patch);
                        }
                    }
                    None => {
                        changed.insert(key.clone(), json!({ "=": value }));
                    }
                }
            }
            for key in old.keys().filter(|key| !new.contains_key(*key)) {
                changed.insert(key.clone(), json!({ "-": 0 }));
            }
            Some(json!({ "o": changed }))
        }
        (Value::Array(old), Value::Array(new)) if old.len() == new.len() => {
            let changed: Map<String, Value> = old
                .iter()
                .zip(new)
                .enumerate()
                .filter_map(|(index, (previous, value))| diff(previous, value).map(|patch| (index.to_string(), patch)))
                .collect();
            Some(json!({ "a": changed }))
        }
        _ => Some(json!({ "=": after })),
    }
}

/// `before` with `patch` applied (the Rust twin of the page's `applyPatch`, for tests).
#[cfg(test)]
fn apply(before: &Value, patch: &Value) -> Value {
    if let Some(value) = patch.get("=") {
        return value.clone();
    }
    let mut after = before.clone();
    if let (Some(Value::Object(changes)), Value::Object(fields)) = (patch.get("o"), &mut after) {
        for (key, change) in changes {
            if change.get("-").is_some() {
                fields.remove(key);
            } else {
                let patched = apply(fields.get(key).unwrap_or(&Value::Null), change);
                fields.insert(key.clone(), patched);
            }
        }
    }
    if let (Some(Value::Object(changes)), Value::Array(items)) = (patch.get("a"), &mut after) {
        for (index, change) in changes {
            if let Some(item) = index.parse::<usize>().ok().and_then(|index| items.get_mut(index)) {
                *item = apply(item, change);
            }
        }
    }
    after
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn a_patch_turns_the_first_value_into_the_second() {
        let cases = [
            (json!({"a": 1, "b": [1, 2, 3], "c": {"d": null}}), json!({"a": 2, "b": [1, 5, 3], "c": {"d": [1]}})),
            (json!({"a": 1, "gone": true}), json!({"a": 1, "new": "x"})),
            (json!([1, 2]), json!([1, 2, 3])),
            (json!({"=": 1, "o": 2}), json!({"=": 2, "o": 2})),
            (json!("x"), json!({"y": 1})),
        ];
        for (before, after) in cases {
            let patch = diff(&before, &after).unwrap();
            assert_eq!(apply(&before, &patch), after, "{patch}");
        }
        assert_eq!(diff(&json!({"a": [1]}), &json!({"a": [1]})), None);
    }

    #[test]
    fn a_patch_holds_only_what_changed() {
        let before = json!({"grid": vec![0; 100], "turn": 1});
        let mut grid = vec![0; 100];
        grid[42] = 7;
        let patch = diff(&before, &json!({"grid": grid, "turn": 2})).unwrap();
        assert_eq!(patch, json!({"o": {"grid": {"a": {"42": {"=": 7}}}, "turn": {"=": 2}}}));
    }
}
