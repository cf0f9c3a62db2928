//! Game options from the command line (`--option key=value`), shared by every game.
//!
//! A game's `Config` is plain serde data, so the default mapping needs no per-game code: the
//! pairs are laid over the JSON form of `Config::default()` (each value read as JSON where it
//! parses, else as a string) and the result deserialised. Unknown keys are refused by name.

use crate::SetupError;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// One documented option, for `arena games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionDoc {
    /// The key, as given to `--option key=value`.
    pub name: &'static str,
    /// What it does and which values it takes.
    pub help: &'static str,
    /// Its default, rendered.
    pub default: String,
}

/// Builds a config from `key=value` pairs over the defaults.
pub fn config_from_pairs<C: Serialize + DeserializeOwned + Default>(
    game: &'static str,
    pairs: &[(String, String)],
) -> Result<C, SetupError> {
    let bad = |reason: String| SetupError::Config { game, reason };
    if pairs.is_empty() {
        return Ok(C::default());
    }
    let mut json = serde_json::to_value(C::default()).map_err(|err| bad(err.to_string()))?;
    let Some(fields) = json.as_object_mut() else {
        return Err(bad("this game takes no options".into()));
    };
    for (key, value) in pairs {
        if !fields.contains_key(key) {
            let known: Vec<&str> = fields.keys().map(String::as_str).collect();
            let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
            return Err(bad(format!("unknown option {key:?} (options: {known})")));
        }
        let parsed = serde_json::from_str(value).unwrap_or_else(|_| serde_json::Value::String(value.clone()));
        fields.insert(key.clone(), parsed);
    }
    serde_json::from_value(json).map_err(|err| bad(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
    struct Config {
        turns: u32,
        board: String,
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn pairs_override_defaults_and_parse_as_json_or_string() {
        let config: Config = config_from_pairs("t", &pairs(&[("turns", "50"), ("board", "ten_by_ten")])).unwrap();
        assert_eq!(config, Config { turns: 50, board: "ten_by_ten".into() });
        let config: Config = config_from_pairs("t", &pairs(&[("board", "x")])).unwrap();
        assert_eq!(config.turns, 0);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let err = config_from_pairs::<Config>("t", &pairs(&[("size", "3")])).unwrap_err();
        assert!(err.to_string().contains("unknown option \"size\" (options: board, turns)"), "{err}");
        let err = config_from_pairs::<Config>("t", &pairs(&[("turns", "many")])).unwrap_err();
        assert!(err.to_string().contains("bad t config"), "{err}");
    }
}
