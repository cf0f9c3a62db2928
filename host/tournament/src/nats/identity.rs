//! A worker's identity on a ladder that audits its workers (`arena serve --nats`): a token the
//! ladder issues (`arena serve admin add-worker NAME` prints `NAME:SECRET`), from which the worker
//! derives its signing key, the sha256 of the token, which the ladder keeps. Each result a worker
//! publishes carries its name (`Arena-Worker-Name`) and an HMAC-SHA-256 of the message's bytes
//! under that key (`Arena-Signature`), so the token never travels and a result is known to come
//! from the worker it names, unchanged. A batch may name workers that must not play it
//! (`Arena-Exclude`: an audit's re-run goes to a worker other than the one audited), or the only
//! workers that may (`Arena-Trusted-Only`: a private bot's match goes to the workers the operator
//! marked trusted): [`Eligible`]. A worker fetching a bot file from the ladder signs the request
//! the same way ([`fetch_payload`]): a private bot's file is served to trusted workers only, and
//! the token still never travels.

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The header naming the worker that played a result.
pub const NAME_HEADER: &str = "Arena-Worker-Name";
/// The header holding a result's signature (hex).
pub const SIGNATURE_HEADER: &str = "Arena-Signature";
/// The header naming the workers that must not play a batch (comma-separated).
pub const EXCLUDE_HEADER: &str = "Arena-Exclude";
/// The header naming the only workers that may play a batch (comma-separated): a private bot's
/// match, for the ladder's trusted workers.
pub const ONLY_HEADER: &str = "Arena-Trusted-Only";

/// Which workers may play a batch, as its headers say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Eligible {
    /// None of these ([`EXCLUDE_HEADER`]).
    pub exclude: Vec<String>,
    /// When given, only one of these ([`ONLY_HEADER`]); an empty list admits no worker.
    pub only: Option<Vec<String>>,
}

impl Eligible {
    /// Only the workers `names` (a private bot's match: the trusted workers).
    pub fn only(names: Vec<String>) -> Eligible {
        Eligible { exclude: Vec::new(), only: Some(names) }
    }

    /// What a batch's headers say (each a comma-separated list of names, when present).
    pub fn from_headers(exclude: Option<&str>, only: Option<&str>) -> Eligible {
        fn names(list: &str) -> Vec<String> {
            list.split(',').map(str::trim).filter(|name| !name.is_empty()).map(str::to_owned).collect()
        }
        Eligible { exclude: exclude.map(names).unwrap_or_default(), only: only.map(names) }
    }

    /// Whether the worker `name` may play the batch (`None`: a worker without an identity, which
    /// no `only` list names).
    pub fn admits(&self, name: Option<&str>) -> bool {
        let excluded = name.is_some_and(|name| self.exclude.iter().any(|other| other == name));
        let listed = |only: &Vec<String>| name.is_some_and(|name| only.iter().any(|other| other == name));
        !excluded && self.only.as_ref().is_none_or(listed)
    }
}

/// What a worker signs to fetch the bot file `sha256` from a ladder (`GET /blobs/bots/SHA256.wasm`
/// with [`NAME_HEADER`] and [`SIGNATURE_HEADER`]). Bound to the file: a signature seen on the way
/// fetches that file again and nothing else, and whoever saw it on the way saw the file too.
pub fn fetch_payload(sha256: &str) -> String {
    format!("GET /blobs/bots/{sha256}.wasm")
}

/// What a worker signs to fetch the data folder of digest `digest` (`GET /blobs/data/DIGEST.tar`),
/// bound to that folder as [`fetch_payload`] is to a file.
pub fn fetch_data_payload(digest: &str) -> String {
    format!("GET /blobs/data/{digest}.tar")
}

/// A worker's name and signing key.
#[derive(Clone, PartialEq, Eq)]
pub struct WorkerIdentity {
    /// Its name on the ladder.
    pub name: String,
    /// Its key: the sha256 of its token, hex.
    key: String,
}

impl std::fmt::Debug for WorkerIdentity {
    /// The name only: the key signs results.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("WorkerIdentity").field("name", &self.name).finish_non_exhaustive()
    }
}

/// Why a token was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a worker token is NAME:SECRET, as `arena serve admin add-worker NAME` prints it")]
pub struct BadToken;

impl WorkerIdentity {
    /// The identity a token (`NAME:SECRET`) gives.
    pub fn from_token(token: &str) -> Result<WorkerIdentity, BadToken> {
        let (name, secret) = token.trim().split_once(':').ok_or(BadToken)?;
        if !valid_name(name) || secret.len() < 16 {
            return Err(BadToken);
        }
        Ok(WorkerIdentity { name: name.to_owned(), key: key_of(token.trim()) })
    }

    /// The signature of `payload`.
    pub fn sign(&self, payload: &[u8]) -> String {
        signature(&self.key, payload)
    }
}

/// Whether `name` may name a worker: 1 to 64 letters, digits, '-', '_' or '.'.
pub fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"-_.".contains(&byte))
}

/// The signing key of `token`: its sha256, hex (what the ladder keeps).
pub fn key_of(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// HMAC-SHA-256 of `payload` under `key`, hex.
fn signature(key: &str, payload: &[u8]) -> String {
    // HMAC takes a key of any length.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(payload);
    hex::encode(mac.finalize().into_bytes())
}

/// Whether `signed` is the signature of `payload` under `key` (compared in constant time).
pub fn verify(key: &str, payload: &[u8], signed: &str) -> bool {
    let Ok(given) = hex::decode(signed) else { return false };
    let Ok(mut mac) = <Hmac<Sha256> as Mac>::new_from_slice(key.as_bytes()) else { return false };
    mac.update(payload);
    mac.verify_slice(&given).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_proves_the_key_and_the_bytes() {
        let token = "eu-west-1:0123456789abcdef0123";
        let worker = WorkerIdentity::from_token(token).unwrap();
        assert_eq!(worker.name, "eu-west-1");
        let signed = worker.sign(b"a result");
        assert!(verify(&key_of(token), b"a result", &signed));
        assert!(!verify(&key_of(token), b"another result", &signed), "the bytes");
        assert!(!verify(&key_of("eu-west-1:another-secret-here"), b"a result", &signed), "the key");
        assert!(!verify(&key_of(token), b"a result", "not hex"));
        assert!(!format!("{worker:?}").contains(&key_of(token)), "the key is not printed");
        assert!(verify(&key_of(token), fetch_payload("ab").as_bytes(), &worker.sign(fetch_payload("ab").as_bytes())));
        assert!(!verify(&key_of(token), fetch_payload("cd").as_bytes(), &worker.sign(fetch_payload("ab").as_bytes())));
        for bad in ["no-colon", ":0123456789abcdef0123", "a b:0123456789abcdef0123", "short:secret"] {
            assert_eq!(WorkerIdentity::from_token(bad), Err(BadToken), "{bad}");
        }
    }

    #[test]
    fn a_batch_admits_the_workers_its_headers_allow() {
        let anyone = Eligible::from_headers(None, None);
        assert!(anyone.admits(Some("a")) && anyone.admits(None), "no header: any worker");
        let audit = Eligible::from_headers(Some("a, b"), None);
        assert!(!audit.admits(Some("a")) && !audit.admits(Some("b")) && audit.admits(Some("c")));
        assert!(audit.admits(None), "an anonymous worker is excluded by no name");
        let private = Eligible::from_headers(Some("a"), Some("a,t"));
        assert_eq!(private, Eligible { exclude: vec!["a".into()], only: Some(vec!["a".into(), "t".into()]) });
        assert!(private.admits(Some("t")), "trusted, not excluded");
        assert!(!private.admits(Some("a")), "trusted but excluded (audited)");
        assert!(!private.admits(Some("u")) && !private.admits(None), "not trusted, or no identity");
        assert!(!Eligible::only(Vec::new()).admits(Some("t")), "an empty list admits nobody");
    }
}
