//! Stable state hashing: FNV-1a (64-bit) over the value's bincode encoding.
//!
//! `std`'s hashers are randomly keyed or unspecified across releases; replays compare these
//! hashes across machines and years, so the algorithm is fixed here.

use serde::Serialize;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `value`'s bincode (standard config) encoding.
///
/// A value that cannot be encoded (not possible for the plain data the engines hold) hashes as
/// the empty byte string.
pub fn stable_hash<T: Serialize + ?Sized>(value: &T) -> u64 {
    // The encoding streams into the hash: every turn hashes the whole state, and a buffer of the
    // encoding would cost an allocation (and its growth) per turn for nothing.
    let mut hasher = Fnv1a(FNV_OFFSET);
    match bincode::serde::encode_into_writer(value, &mut hasher, bincode::config::standard()) {
        Ok(()) => hasher.0,
        Err(_) => FNV_OFFSET,
    }
}

/// FNV-1a 64 as a bincode writer.
struct Fnv1a(u64);

impl bincode::enc::write::Writer for &mut Fnv1a {
    // Inlined into the encoder's every field write (most are a byte or a few): as a call, the
    // hash of an Azul state (about 150 bytes) took half as long again (`cargo xtask bench turn`).
    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) -> Result<(), bincode::error::EncodeError> {
        self.0 = fnv1a_from(self.0, bytes);
        Ok(())
    }
}

fn fnv1a_from(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(FNV_PRIME))
}

#[cfg(test)]
fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_from(FNV_OFFSET, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    /// Streaming the encoding into the hash gives what hashing the whole encoding gives (the
    /// replays' recorded hashes depend on it).
    #[test]
    fn streamed_hash_equals_the_hash_of_the_whole_encoding() {
        let value = (7u32, "seven", vec![1u64, u64::MAX], Some(-3i16));
        let bytes = bincode::serde::encode_to_vec(&value, bincode::config::standard()).unwrap_or_default();
        assert!(bytes.len() > 10);
        assert_eq!(stable_hash(&value), fnv1a(&bytes));
    }

    #[test]
    fn equal_values_hash_equal_and_different_values_differ() {
        assert_eq!(stable_hash(&(1u8, "x")), stable_hash(&(1u8, "x")));
        assert_ne!(stable_hash(&(1u8, "x")), stable_hash(&(2u8, "x")));
    }
}
