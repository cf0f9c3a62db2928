//! What a seat sees, always in its own perspective (code-character.md "Perspective" and "What a
//! bot sees and returns"), and the helpers bots call on it. Every helper delegates to
//! [`crate::rules`] or [`crate::command`], the functions the engine uses.
//!
//! The view is split in two: [`StaticView`] (the terrain, the flags, the match length: sent once,
//! at a bot's `init`) and [`View`] (everything that changes: `Game::Observation`, sent every
//! turn). Fuel is not here: the host adds it.

use crate::command::{Command, CommandError, Rejection, UnitInfo, validate_commands};
use crate::geometry::{Tile, Vec2};
use crate::map::Map;
use crate::rules;
use crate::unit::{BotStatus, Intent, TowerState};
use serde::{Deserialize, Serialize};

/// What never changes during a match, in the seat's own perspective.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StaticView {
    /// The observer's seat (0 or 1); everything below is already in its perspective.
    pub seat: u8,
    /// The terrain.
    pub map: Map,
    /// The flag tile centres, in row-major order.
    pub flags: Vec<Vec2>,
    /// Turns in the match.
    pub turns: u32,
    /// The observer's base position (always (0.5, 0.5)).
    pub base: Vec2,
    /// The enemy's base position (always (29.5, 29.5)).
    pub enemy_base: Vec2,
}

/// A bot as a player sees it.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotView {
    /// Its id: own units by their own number, the enemy's unit `k` as
    /// [`crate::ENEMY_ID_BASE`]` + k` **\[ours\]**.
    pub id: u32,
    /// Its hp (0 when DEAD, also after transforming **\[ours\]**).
    pub hp: u32,
    /// Where it stands.
    pub position: Vec2,
    /// Its state (MOVE_TO_BLAST shows as BLAST, MOVE_TO_TRANSFORM as TRANSFORM).
    pub state: BotStatus,
    /// Its current intent (the enemy's too, as the original showed them); for a bot in
    /// TRANSFORM given a blast or transform order, that stored order (never carried out).
    pub intent: Intent,
    /// The `move(p)` target kept aside while it walks to a blast or transform target or waits
    /// in TRANSFORM, in the observer's frame like [`BotView::intent`]'s target (the enemy's
    /// too); it never walks there. Beside a blast or transform target (a walking blaster or
    /// transformer, or an order stored in TRANSFORM) it is the original's two tasks:
    /// NO_MULTIPLE_BOT_TASK on every turn the bot gets no command (code-character.md "Orders to
    /// busy bots").
    pub extra_move: Option<Vec2>,
}

/// A tower as a player sees it.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TowerView {
    /// Its id (the id of the bot that built it; an enemy's as for [`BotView::id`]).
    pub id: u32,
    /// Its hp (0 when DEAD).
    pub hp: u32,
    /// Its tile centre.
    pub position: Vec2,
    /// Its tile.
    pub tile: Tile,
    /// Turns since it was built (it may blast from age 3).
    pub age: u32,
    /// Its state.
    pub state: TowerState,
}

/// What changes, in the seat's own perspective. DEAD units stay visible for one turn.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The observer's seat (0 or 1).
    pub seat: u8,
    /// Turns played so far (0 before the first).
    pub turn: u32,
    /// Game scores, [own, enemy].
    pub scores: [u32; 2],
    /// Last turn's points, [own, enemy] (not in the spec's list **\[ours\]**: it saves bots
    /// recomputing them).
    pub points: [u32; 2],
    /// The observer's bots, oldest first.
    pub bots: Vec<BotView>,
    /// The enemy's bots, oldest first.
    pub enemy_bots: Vec<BotView>,
    /// The observer's towers, oldest first.
    pub towers: Vec<TowerView>,
    /// The enemy's towers, oldest first.
    pub enemy_towers: Vec<TowerView>,
    /// The observer's commands rejected last turn, and why.
    pub rejected: Vec<Rejection>,
}

impl View {
    /// A bot (own or enemy) by id.
    pub fn bot(&self, id: u32) -> Option<&BotView> {
        self.bots.iter().chain(&self.enemy_bots).find(|bot| bot.id == id)
    }

    /// A tower (own or enemy) by id.
    pub fn tower(&self, id: u32) -> Option<&TowerView> {
        self.towers.iter().chain(&self.enemy_towers).find(|tower| tower.id == id)
    }

    /// Whether `id` is one of the observer's units.
    pub fn is_own(&self, id: u32) -> bool {
        self.bots.iter().any(|b| b.id == id) || self.towers.iter().any(|t| t.id == id)
    }

    /// The tile of a position (floor, floor): [`rules::tile_of`].
    pub fn tile_of(&self, position: Vec2) -> Tile {
        rules::tile_of(position)
    }

    /// The tiles of living towers, both players'.
    pub fn tower_tiles(&self) -> Vec<Tile> {
        self.towers.iter().chain(&self.enemy_towers).filter(|t| t.state != TowerState::Dead).map(|t| t.tile).collect()
    }

    /// The tiles living bots count as standing on (own bots by [`rules::tile_of`], enemy bots by
    /// [`rules::enemy_tile_of`]), as the engine counts them for transforms.
    pub fn bot_tiles(&self) -> Vec<Tile> {
        let alive = |bot: &&BotView| bot.state != BotStatus::Dead;
        let own = self.bots.iter().filter(alive).map(|bot| rules::tile_of(bot.position));
        let enemy = self.enemy_bots.iter().filter(alive).map(|bot| rules::enemy_tile_of(bot.position));
        own.chain(enemy).collect()
    }

    /// The flag tile centre nearest to `from`: [`rules::nearest_flag`].
    pub fn nearest_flag(&self, statics: &StaticView, from: Vec2) -> Option<Vec2> {
        rules::nearest_flag(&statics.map, from)
    }

    /// The nearest tile where a transform could succeed: [`rules::nearest_free_tile`] with every
    /// living unit as an occupant (so a bot asking from its own tile finds another one).
    pub fn nearest_free_tile(&self, statics: &StaticView, from: Vec2) -> Option<Tile> {
        rules::nearest_free_tile(&statics.map, &self.tower_tiles(), &self.bot_tiles(), from)
    }

    /// What the engine would say about each of `commands` now: one result per command, the
    /// engine's own validation.
    pub fn check_commands(&self, statics: &StaticView, commands: &[Command]) -> Vec<Result<(), CommandError>> {
        // A bot that just transformed (DEAD) shares its id with its new tower: the id names the
        // tower.
        let own = |id: u32| {
            if let Some(tower) = self.towers.iter().find(|t| t.id == id) {
                return Some(UnitInfo::Tower { age: tower.age, dead: tower.state == TowerState::Dead });
            }
            self.bots
                .iter()
                .find(|b| b.id == id)
                .map(|b| UnitInfo::Bot { position: b.position, dead: b.state == BotStatus::Dead })
        };
        let is_enemy =
            |id: u32| self.enemy_bots.iter().any(|b| b.id == id) || self.enemy_towers.iter().any(|t| t.id == id);
        validate_commands(&statics.map, commands, own, is_enemy, self.towers.len())
    }
}
