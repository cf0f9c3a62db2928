//! A worker's identity on a ladder that audits its workers (`arena serve --nats`): a token the
//! ladder issues (`arena serve admin add-worker NAME` prints `NAME:SECRET`), from which the worker
//! derives its signing key, the sha256 of the token, which the ladder keeps. Each result a worker
//! publishes carries its name (`Arena-Worker-Name`) and an HMAC-SHA-256 of the message's bytes
//! under that key (`Arena-Signature`), so the token never travels and a result is known to come
//! from the worker it names, unchanged. A batch may name workers that must not play it
//! (`Arena-Exclude`: an audit's re-run goes to a worker other than the one audited).

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

/// The header naming the worker that played a result.
pub const NAME_HEADER: &str = "Arena-Worker-Name";
/// The header holding a result's signature (hex).
pub const SIGNATURE_HEADER: &str = "Arena-Signature";
/// The header naming the workers that must not play a batch (comma-separated).
pub const EXCLUDE_HEADER: &str = "Arena-Exclude";

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
        for bad in ["no-colon", ":0123456789abcdef0123", "a b:0123456789abcdef0123", "short:secret"] {
            assert_eq!(WorkerIdentity::from_token(bad), Err(BadToken), "{bad}");
        }
    }
}
