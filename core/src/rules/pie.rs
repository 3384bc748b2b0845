//! The pie rule (PI1, `[table] pie`): after the first turn the second
//! player may answer `swap`, taking the first player's side and leaving
//! the board as it is. A rule of the table rather than of a script, so it
//! has no load-time hook; the position text says a spent swap with a last
//! word `swapped` (read in `setup.rs`).

use crate::position::{Move, Position};
use crate::refusal::Refusal;
use crate::rulebook::Rulebook;

impl Rulebook {
    /// Whether the side to move may answer with `swap`: the pie rule, and
    /// exactly the first turn played.
    #[inline]
    pub(crate) fn swap_legal(&self, pos: &Position) -> bool {
        // After the first turn (one mark, or as many as `turn_marks()` gives it).
        self.table().pie
            && !pos.swapped
            && pos.marks_played() == self.mechanics.turns.place(0).of
            && !pos.is_over()
    }

    /// Why `swap` is refused in `pos`, if it is.
    pub(super) fn check_swap(&self, pos: &Position) -> Result<(), Refusal> {
        if !self.table().pie {
            Err(Refusal::NoPieRule)
        } else if !self.swap_legal(pos) {
            Err(Refusal::SwapLate)
        } else {
            Ok(())
        }
    }
}

/// Plays `swap` on `p`: the seats exchange marks; the board and the side
/// to move stay.
pub(super) fn apply_swap(p: &mut Position) {
    p.ply = p.ply.saturating_add(1);
    p.swapped = true;
    p.last = Some(Move::Swap);
}
