//! The move made for a player whose time ran out (`[table] timeout_move`).

use crate::error::ScriptError;
use crate::geometry::CellSet;
use crate::position::{Move, MoveList, Position};
use crate::rng::Rng;
use crate::rulebook::Rulebook;
use crate::table::TimeoutMove;

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
