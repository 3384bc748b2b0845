//! Table rules: how people play a variant (clock, rematches), as the
//! rulebook's `[table]` section states them.

use crate::error::ScriptError;
use crate::geometry::CellSet;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Position};
use crate::rulebook::Rulebook;

/// Longest per-move limit a rulebook or player may set, in seconds.
pub const MAX_CLOCK: u32 = 24 * 3600;

/// The computer's budget, in playouts a search tree, unless a rulebook's
/// `[table] ai_playouts` says otherwise.
pub const DEFAULT_AI_PLAYOUTS: u32 = 20_000;
/// The range `[table] ai_playouts` may take.
pub const AI_PLAYOUTS: std::ops::RangeInclusive<u32> = 100..=10_000_000;

/// Where a move made for a player whose time ran out goes (T2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutMove {
    /// Any legal move, at random.
    Random,
    /// A placement next to (or diagonally touching) a mark already on the
    /// board when there is one, "not in an empty corner".
    Near,
}

/// The `[table]` section, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRules {
    /// Seconds per move by default; `None` for no clock.
    pub clock: Option<u32>,
    /// The per-move limits a player may choose; empty for any.
    pub clock_options: Vec<u32>,
    /// Whether a rematch swaps marks, so the first move passes to the other seat (G5).
    pub alternate: bool,
    /// Where a timed-out player's move goes.
    pub timeout_move: TimeoutMove,
    /// The pie rule (PI1): the second player may answer the first move
    /// with `swap`, taking the first player's side.
    pub pie: bool,
    /// The computer's budget in playouts a search tree (`ai_playouts`).
    pub ai_playouts: u32,
}

impl Default for TableRules {
    fn default() -> TableRules {
        TableRules {
            clock: None,
            clock_options: Vec::new(),
            alternate: true,
            timeout_move: TimeoutMove::Random,
            pie: false,
            ai_playouts: DEFAULT_AI_PLAYOUTS,
        }
    }
}

impl TableRules {
    /// Whether a per-move limit of `seconds` may be chosen.
    pub fn allows_clock(&self, seconds: u32) -> bool {
        (1..=MAX_CLOCK).contains(&seconds)
            && (self.clock_options.is_empty()
                || self.clock_options.contains(&seconds)
                || self.clock == Some(seconds))
    }
}

impl Rulebook {
    /// The move made for a player whose time ran out: random, and with
    /// [`TimeoutMove::Near`] next to the marks already placed when possible.
    ///
    /// # Errors
    /// A failing `refuse` hook.
    pub fn timeout_move(
        &self,
        pos: &Position,
        history: &[Move],
        rng: &mut Rng,
    ) -> Result<Option<Move>, ScriptError> {
        let mut list = MoveList::new();
        self.legal_moves(pos, history, &mut list)?;
        if list.is_empty() {
            return Ok(None);
        }
        let mut pool: Vec<Move> = list.to_vec();
        if self.table().timeout_move == TimeoutMove::Near {
            let close: Vec<Move> = if pos.occupied().is_empty() {
                // Nothing to be near: the centre, not an empty corner.
                let g = self.grid();
                let off_centre = |m: &Move| {
                    let Some(to) = m.to() else { return i64::MAX };
                    let (c, r) = (i64::from(g.col(to)), i64::from(g.row(to)));
                    (2 * c - i64::from(g.width()) + 1).pow(2)
                        + (2 * r - i64::from(g.height()) + 1).pow(2)
                };
                let best = pool.iter().map(off_centre).min().unwrap_or(0);
                pool.iter()
                    .copied()
                    .filter(|m| off_centre(m) == best)
                    .collect()
            } else {
                let near = self.neighbourhood(pos.occupied());
                pool.iter()
                    .copied()
                    .filter(|m| m.to().is_some_and(|to| near.contains(to)))
                    .collect()
            };
            if !close.is_empty() {
                pool = close;
            }
        }
        Ok(Some(pool[rng.below(pool.len())]))
    }

    /// Cells touching `cells` by a side or a corner.
    fn neighbourhood(&self, cells: CellSet) -> CellSet {
        let g = self.grid();
        let mut near = CellSet::EMPTY;
        for c in cells {
            let (col, row) = (i64::from(g.col(c)), i64::from(g.row(c)));
            for (dc, dr) in [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ] {
                if let Some(n) = g.cell(col + dc, row + dr) {
                    near.insert(n);
                }
            }
        }
        near
    }
}
