//! The five tile colours and their one fixed order (azul.md "Components": green, orange, blue,
//! yellow, red), used for every per-colour array in this crate, the WIT enums and the protocol.

use serde::{Deserialize, Serialize};

/// A tile colour. The declaration order is the spec's order and every `[_; 5]` per-colour array
/// is indexed by [`Colour::index`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    /// Green, `g`.
    Green,
    /// Orange, `o`.
    Orange,
    /// Blue, `b`.
    Blue,
    /// Yellow, `y`.
    Yellow,
    /// Red, `r`.
    Red,
}

/// All colours in the spec's order.
pub const COLOURS: [Colour; 5] = [Colour::Green, Colour::Orange, Colour::Blue, Colour::Yellow, Colour::Red];

impl Colour {
    /// Position in [`COLOURS`] (0..5), the index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour at position `i` of [`COLOURS`], `None` if `i >= 5`.
    pub fn from_index(i: usize) -> Option<Colour> {
        COLOURS.get(i).copied()
    }

    /// The original protocol's letter: `g o b y r`.
    pub fn letter(self) -> char {
        match self {
            Colour::Green => 'g',
            Colour::Orange => 'o',
            Colour::Blue => 'b',
            Colour::Yellow => 'y',
            Colour::Red => 'r',
        }
    }

    /// The colour for a protocol letter (lowercase only, as the original protocol sends them).
    pub fn from_letter(c: char) -> Option<Colour> {
        COLOURS.into_iter().find(|colour| colour.letter() == c)
    }
}

impl std::fmt::Display for Colour {
    /// Writes the protocol letter.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// azul.md "Components": the colour order is g o b y r everywhere.
    #[test]
    fn order_index_and_letters_round_trip() {
        let letters: String = COLOURS.iter().map(|c| c.letter()).collect();
        assert_eq!(letters, "gobyr");
        for (i, colour) in COLOURS.iter().enumerate() {
            assert_eq!(colour.index(), i);
            assert_eq!(Colour::from_index(i), Some(*colour));
            assert_eq!(Colour::from_letter(colour.letter()), Some(*colour));
        }
        assert_eq!(Colour::from_index(5), None);
        assert_eq!(Colour::from_letter('x'), None);
        assert_eq!(Colour::from_letter('G'), None);
    }
}
