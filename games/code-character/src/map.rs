//! The terrain (code-character.md "Map"): the map-file format and its parser, the
//! point-symmetry check, and the default map.
//!
//! A map file is 30 lines of 30 characters `L` (LAND), `W` (WATER) or `F` (FLAG); line index =
//! x, character index = y. **\[ours\]**: a trailing `\r` or trailing spaces on a line and empty
//! lines after the 30th are tolerated; anything else is an error naming the line and column
//! (1-based, as an editor shows them). Both base tiles must be LAND or FLAG **\[ours\]** (bots
//! spawn there).

use crate::geometry::{MAP_SIZE, Tile};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a tile is made of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// Walkable land (`L`).
    Land,
    /// Water (`W`): never walkable, no tower.
    Water,
    /// A flag tile (`F`): walkable; units on it score.
    Flag,
}

impl Terrain {
    /// The map-file letter.
    pub fn letter(self) -> char {
        match self {
            Terrain::Land => 'L',
            Terrain::Water => 'W',
            Terrain::Flag => 'F',
        }
    }

    /// LAND or FLAG: bots may stand there and towers may be built there.
    pub fn is_walkable(self) -> bool {
        self != Terrain::Water
    }

    fn from_letter(c: char) -> Option<Terrain> {
        match c {
            'L' => Some(Terrain::Land),
            'W' => Some(Terrain::Water),
            'F' => Some(Terrain::Flag),
            _ => None,
        }
    }
}

/// Why a map file was refused. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum MapError {
    /// The file does not have 30 lines.
    #[error("the map has {found} lines, not 30")]
    LineCount {
        /// Lines found.
        found: usize,
    },
    /// A line does not have 30 characters.
    #[error("line {line} has {found} characters, not 30")]
    LineLength {
        /// The line.
        line: usize,
        /// Characters found.
        found: usize,
    },
    /// A character other than `L`, `W`, `F`.
    #[error("line {line}, column {column}: {found:?} is not L, W or F")]
    BadCharacter {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// The character.
        found: char,
    },
    /// The map is not point-symmetric under (x, y) -> (29 - x, 29 - y).
    #[error(
        "the map is not point-symmetric: line {line}, column {column} is {found:?} but its mirror, \
         line {mirror_line}, column {mirror_column}, is {mirror:?}"
    )]
    NotSymmetric {
        /// The first differing line.
        line: usize,
        /// Its column.
        column: usize,
        /// The letter there.
        found: char,
        /// The mirror tile's line.
        mirror_line: usize,
        /// The mirror tile's column.
        mirror_column: usize,
        /// The letter there.
        mirror: char,
    },
    /// A base tile is WATER.
    #[error("line {line}, column {column} is a base tile and must be L or F")]
    BaseInWater {
        /// The line.
        line: usize,
        /// The column.
        column: usize,
    },
}

/// A 30x30 terrain grid, indexed `[x][y]`. Always point-symmetric (the constructors check it),
/// so both players' views of it are the same grid.
///
/// It serialises as its 30 text lines, and deserialising parses (and checks) them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    tiles: [[Terrain; MAP_SIZE]; MAP_SIZE],
}

impl Default for Map {
    /// The default map: WATER on rows 14-15 and on columns 14-15, except the central block
    /// rows 13-16 x columns 13-16, which is FLAG; the rest LAND.
    fn default() -> Map {
        let mut tiles = [[Terrain::Land; MAP_SIZE]; MAP_SIZE];
        for (x, row) in tiles.iter_mut().enumerate() {
            for (y, tile) in row.iter_mut().enumerate() {
                let centre = |i: usize| (13..=16).contains(&i);
                let channel = |i: usize| i == 14 || i == 15;
                *tile = if centre(x) && centre(y) {
                    Terrain::Flag
                } else if channel(x) || channel(y) {
                    Terrain::Water
                } else {
                    Terrain::Land
                };
            }
        }
        Map { tiles }
    }
}

impl Map {
    /// Parses and checks a map file (see the module docs).
    pub fn parse(text: &str) -> Result<Map, MapError> {
        let mut lines: Vec<&str> = text.lines().map(|line| line.trim_end_matches([' ', '\r'])).collect();
        while lines.len() > MAP_SIZE && lines.last().is_some_and(|line| line.is_empty()) {
            lines.pop();
        }
        if lines.len() != MAP_SIZE {
            return Err(MapError::LineCount { found: lines.len() });
        }
        let mut tiles = [[Terrain::Land; MAP_SIZE]; MAP_SIZE];
        for (x, (line, row)) in lines.iter().zip(tiles.iter_mut()).enumerate() {
            let found = line.chars().count();
            if found != MAP_SIZE {
                return Err(MapError::LineLength { line: x + 1, found });
            }
            for (y, (c, tile)) in line.chars().zip(row.iter_mut()).enumerate() {
                *tile =
                    Terrain::from_letter(c).ok_or(MapError::BadCharacter { line: x + 1, column: y + 1, found: c })?;
            }
        }
        Map::from_tiles(tiles)
    }

    /// A map from a grid, checked like a parsed file.
    pub fn from_tiles(tiles: [[Terrain; MAP_SIZE]; MAP_SIZE]) -> Result<Map, MapError> {
        let map = Map { tiles };
        // Row-major, tile [x][y] is entry 30 x + y and its mirror [29 - x][29 - y] entry
        // 899 - (30 x + y): the map is symmetric when the flat list reads the same backwards.
        // Mismatches come in pairs, so the first (row-major) is in the first half. (A bot's SDK
        // runs this check on the map it gets in `init`: a few instructions per tile.)
        let flat = map.tiles.as_flattened();
        let last = flat.len() - 1;
        if let Some(index) = (0..flat.len() / 2).find(|&index| flat.get(index) != flat.get(last - index)) {
            let tile = Tile::new((index / MAP_SIZE) as u8, (index % MAP_SIZE) as u8);
            let mirror = tile.mirrored();
            return Err(MapError::NotSymmetric {
                line: usize::from(tile.x) + 1,
                column: usize::from(tile.y) + 1,
                found: map.terrain(tile).letter(),
                mirror_line: usize::from(mirror.x) + 1,
                mirror_column: usize::from(mirror.y) + 1,
                mirror: map.terrain(mirror).letter(),
            });
        }
        let base = Tile::new(0, 0);
        if !map.terrain(base).is_walkable() {
            return Err(MapError::BaseInWater { line: 1, column: 1 });
        }
        Ok(map)
    }

    /// The terrain of `tile` (a tile outside the map reads as WATER).
    pub fn terrain(&self, tile: Tile) -> Terrain {
        self.tiles
            .get(usize::from(tile.x))
            .and_then(|row| row.get(usize::from(tile.y)))
            .copied()
            .unwrap_or(Terrain::Water)
    }

    /// The flag tiles in row-major order.
    pub fn flags(&self) -> Vec<Tile> {
        Tile::all().filter(|tile| self.terrain(*tile) == Terrain::Flag).collect()
    }

    /// The grid as seen by the other player (`[i][j] -> [29 - i][29 - j]`): equal to `self` for
    /// every accepted map, kept so that the perspective code does not rely on that.
    pub fn mirrored(&self) -> Map {
        let mut tiles = self.tiles;
        for tile in Tile::all() {
            tiles[usize::from(tile.x)][usize::from(tile.y)] = self.terrain(tile.mirrored());
        }
        Map { tiles }
    }

    /// The map-file text: 30 lines, each ending in `\n`.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(MAP_SIZE * (MAP_SIZE + 1));
        for row in &self.tiles {
            text.extend(row.iter().map(|terrain| terrain.letter()));
            text.push('\n');
        }
        text
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let lines: Vec<String> = self.tiles.iter().map(|row| row.iter().map(|t| t.letter()).collect()).collect();
        lines.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        let lines = Vec::<String>::deserialize(deserializer)?;
        Map::parse(&lines.join("\n")).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_text() -> String {
        Map::default().to_text()
    }

    /// code-character.md "Map": the default map's water channels and central flag block.
    #[test]
    fn default_map_layout() {
        let map = Map::default();
        assert_eq!(map.terrain(Tile::new(14, 0)), Terrain::Water);
        assert_eq!(map.terrain(Tile::new(3, 15)), Terrain::Water);
        assert_eq!(map.terrain(Tile::new(13, 13)), Terrain::Flag);
        assert_eq!(map.terrain(Tile::new(14, 14)), Terrain::Flag);
        assert_eq!(map.terrain(Tile::new(16, 16)), Terrain::Flag);
        assert_eq!(map.terrain(Tile::new(13, 12)), Terrain::Land);
        assert_eq!(map.terrain(Tile::new(17, 14)), Terrain::Water);
        assert_eq!(map.flags().len(), 16);
        assert_eq!(map.mirrored(), map);
        assert_eq!(Map::parse(&default_text()), Ok(map));
    }

    /// code-character.md "Map": a map that is not point-symmetric is refused, naming the line
    /// and column.
    #[test]
    fn asymmetric_maps_are_refused_with_line_and_column() {
        let mut lines: Vec<String> = default_text().lines().map(str::to_string).collect();
        lines[2].replace_range(6..7, "W");
        let err = Map::parse(&lines.join("\n")).unwrap_err();
        assert_eq!(
            err,
            MapError::NotSymmetric { line: 3, column: 7, found: 'W', mirror_line: 28, mirror_column: 24, mirror: 'L' }
        );
        assert!(err.to_string().contains("line 3, column 7"), "{err}");
    }

    /// The symmetry check names the first asymmetric tile in row-major order, as a tile-by-tile
    /// scan does, for changes anywhere (a tile and its mirror changed alike stay symmetric).
    #[test]
    fn the_first_asymmetric_tile_is_the_one_a_plain_scan_finds() {
        let mut rng = arena_game::new_rng(5);
        let terrains = [Terrain::Land, Terrain::Water, Terrain::Flag];
        for _ in 0..200 {
            let mut tiles = Map::default().tiles;
            for _ in 0..arena_game::rng_below(&mut rng, 4) {
                let tile =
                    Tile::new(arena_game::rng_below(&mut rng, 30) as u8, arena_game::rng_below(&mut rng, 30) as u8);
                let terrain = terrains[arena_game::rng_below(&mut rng, 3) as usize];
                tiles[usize::from(tile.x)][usize::from(tile.y)] = terrain;
                if arena_game::rng_below(&mut rng, 2) == 0 {
                    let mirror = tile.mirrored();
                    tiles[usize::from(mirror.x)][usize::from(mirror.y)] = terrain;
                }
            }
            let map = Map { tiles };
            let first = Tile::all().find(|tile| map.terrain(*tile) != map.terrain(tile.mirrored()));
            match (Map::from_tiles(tiles), first) {
                (Err(MapError::NotSymmetric { line, column, .. }), Some(tile)) => {
                    assert_eq!((line, column), (usize::from(tile.x) + 1, usize::from(tile.y) + 1));
                }
                (Err(MapError::BaseInWater { .. }) | Ok(_), None) => {}
                (result, first) => panic!("{result:?} but the plain scan found {first:?}"),
            }
        }
    }

    #[test]
    fn malformed_files_are_refused() {
        let text = default_text();
        assert_eq!(Map::parse(""), Err(MapError::LineCount { found: 0 }));
        let short: String = text.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(Map::parse(&short), Err(MapError::LineCount { found: 29 }));
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[4].push('L');
        assert_eq!(Map::parse(&lines.join("\n")), Err(MapError::LineLength { line: 5, found: 31 }));
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[0].replace_range(2..3, "x");
        assert_eq!(Map::parse(&lines.join("\n")), Err(MapError::BadCharacter { line: 1, column: 3, found: 'x' }));
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[0].replace_range(0..1, "W");
        lines[29].replace_range(29..30, "W");
        assert_eq!(Map::parse(&lines.join("\n")), Err(MapError::BaseInWater { line: 1, column: 1 }));
        // Windows line ends, trailing spaces and blank lines at the end are fine.
        let crlf: String = text.lines().map(|l| format!("{l} \r\n")).collect::<String>() + "\n\n";
        assert_eq!(Map::parse(&crlf), Ok(Map::default()));
        assert!(Map::parse(&"é".repeat(30)).is_err());
    }

    #[test]
    fn serialises_as_text_lines() {
        let json = serde_json::to_string(&Map::default()).unwrap_or_default();
        assert!(json.starts_with("[\"LLLLLLLLLLLLLLWWLLLLLLLLLLLLLL\""), "{json}");
        let back: Map = serde_json::from_str(&json).unwrap();
        assert_eq!(back, Map::default());
        assert!(serde_json::from_str::<Map>("[\"L\"]").is_err());
    }
}
