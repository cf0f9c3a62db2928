//! Accounts' secrets: passwords hashed with argon2id (PHC strings, a random salt each), and
//! random tokens (sessions, their CSRF tokens, API tokens) of which the database keeps only the
//! sha256, so a copy of the database opens no account. Names are checked here too.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

/// Shortest password accepted.
pub const MIN_PASSWORD: usize = 8;
/// Longest password accepted (argon2 takes any length; this bounds the work per request).
pub const MAX_PASSWORD: usize = 256;
/// Longest account or bot name.
pub const MAX_NAME: usize = arena_tournament::spec::MAX_BOT_NAME;

/// Why a secret or a name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// A password too short or too long.
    #[error("a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")]
    PasswordLength,
    /// A name with characters or a length not allowed.
    #[error("{what} {name:?}: a name has 1 to {MAX_NAME} characters among letters, digits, '-' and '_'")]
    BadName {
        /// Account or bot.
        what: &'static str,
        /// The name.
        name: String,
    },
    /// The system's random source failed.
    #[error("no randomness: {0}")]
    Random(String),
    /// Hashing failed.
    #[error("hashing the password: {0}")]
    Hash(String),
}

/// Checks a name (an account's or a bot's): 1 to [`MAX_NAME`] of `A-Za-z0-9-_`.
pub fn check_name(what: &'static str, name: &str) -> Result<(), AuthError> {
    if arena_tournament::spec::is_valid_name(name) {
        Ok(())
    } else {
        Err(AuthError::BadName { what, name: name.chars().take(60).collect() })
    }
}

/// `count` random bytes from the system.
fn random_bytes<const N: usize>() -> Result<[u8; N], AuthError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|err| AuthError::Random(err.to_string()))?;
    Ok(bytes)
}

/// The argon2id hash of `password`, as a PHC string.
pub fn hash_password(password: &str) -> Result<String, AuthError> {
    if !(MIN_PASSWORD..=MAX_PASSWORD).contains(&password.chars().count()) {
        return Err(AuthError::PasswordLength);
    }
    let salt = SaltString::encode_b64(&random_bytes::<16>()?).map_err(|err| AuthError::Hash(err.to_string()))?;
    let hash =
        Argon2::default().hash_password(password.as_bytes(), &salt).map_err(|err| AuthError::Hash(err.to_string()))?;
    Ok(hash.to_string())
}

/// Whether `password` matches the PHC string `hash` (false for an unreadable or empty hash).
pub fn verify_password(hash: &str, password: &str) -> bool {
    if password.len() > MAX_PASSWORD * 4 {
        return false;
    }
    PasswordHash::new(hash).is_ok_and(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
}

/// A new random token: 32 bytes, hex, with `prefix` (`arena_` for API tokens, so one found in a
/// log or a repository says what it is).
pub fn new_token(prefix: &str) -> Result<String, AuthError> {
    Ok(format!("{prefix}{}", hex::encode(random_bytes::<32>()?)))
}

/// The sha256 of a token, hex: what the database keeps.
pub fn token_sha256(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Compares two secrets in time that depends only on their lengths.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_verifies_against_its_own_hash_only() {
        let hash = hash_password("correct horse").unwrap();
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password(&hash, "correct horse"));
        assert!(!verify_password(&hash, "correct horsE"));
        assert!(!verify_password("", "correct horse"));
        assert_ne!(hash_password("correct horse").unwrap(), hash, "a new salt each time");
        assert_eq!(hash_password("short"), Err(AuthError::PasswordLength));
    }

    #[test]
    fn names_are_letters_digits_dashes_and_underscores() {
        assert!(check_name("bot", "my-bot_2").is_ok());
        for bad in ["", "a b", "<script>", "é", &"x".repeat(MAX_NAME + 1)] {
            assert!(check_name("bot", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tokens_are_random_and_kept_as_hashes() {
        let (a, b) = (new_token("arena_").unwrap(), new_token("arena_").unwrap());
        assert!(a.starts_with("arena_") && a.len() == 6 + 64);
        assert_ne!(a, b);
        assert_eq!(token_sha256(&a).len(), 64);
        assert!(same_secret(&a, &a.clone()) && !same_secret(&a, &b));
    }
}
