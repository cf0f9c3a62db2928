//! Enums carried across the wasm boundary as plain numbers: a field holds the case's index in
//! the WIT enum. Records whose fields are all numbers need no decoding on the bot's side (the
//! canonical ABI lifts a list of them as one block), so the unit lists of the games with many
//! units use them; each engine's `wit_glue` lists its enums' cases in WIT order and converts
//! with these two functions.

/// The index of `value` in `cases` (the WIT enum's cases, in order). Every value of an engine
/// enum is listed, so the fallback 0 is never reached.
pub fn code_of<T: PartialEq>(cases: &[T], value: &T) -> u8 {
    cases.iter().position(|case| case == value).and_then(|index| u8::try_from(index).ok()).unwrap_or(0)
}

/// The case with index `code`, `None` past the last one (the caller picks the fallback: a code
/// from the host is always in range, but the bot's side must not panic on any byte).
pub fn case_of<T: Copy>(cases: &[T], code: u8) -> Option<T> {
    cases.get(usize::from(code)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_indices_and_come_back() {
        let cases = ['a', 'b', 'c'];
        for (index, case) in cases.iter().enumerate() {
            assert_eq!(usize::from(code_of(&cases, case)), index);
            assert_eq!(case_of(&cases, code_of(&cases, case)), Some(*case));
        }
        assert_eq!(case_of(&cases, 3), None);
        assert_eq!(case_of(&cases, 255), None);
    }
}
