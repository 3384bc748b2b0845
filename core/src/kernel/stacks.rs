//! The loop of [`super::Loop::Stacks`]: pieces of sizes put from hand or
//! moved, covering smaller ones, the lines of the pieces that show judged
//! after each move. The moves are drawn as the general path lists them
//! (each size from hand, then each piece that shows, cells in order), so
//! one seed gives both the same games.

use super::{Finished, Seen, end};
use crate::geometry::Bits;
use crate::mechanics::Mechanics;
use crate::position::{Move, Outcome, Position};
use crate::rng::Rng;

/// Plays uniformly random moves from `start` to the result, or to
/// `max_plies` moves, a draw. Never inlined: its work is the stacks', and
/// the other loops' code stays as it was.
#[inline(never)]
pub(super) fn run(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
) -> Finished {
    let mut pos = *start;
    let marks = |p: &Position| [p.marks.x.prefix::<1>(), p.marks.o.prefix::<1>()];
    // A position for the repetition rule: every piece, by size and side.
    let layers = |p: &Position| -> [Bits<4>; 2] {
        let side =
            |s| Bits::from_words(&std::array::from_fn::<u64, 4, _>(|z| p.stacks.layer(s, z)));
        [
            side(crate::position::Side::X),
            side(crate::position::Side::O),
        ]
    };
    let repetition = t.repetition;
    if repetition.is_some() {
        seen.clear();
        seen.count(&layers(&pos), pos.turn);
    }
    for ply in 0..max_plies {
        let Some(mv) = t.random_stack_move(&pos, rng) else {
            return end(t.no_moves.outcome(pos.turn), ply, marks(&pos));
        };
        let side = pos.turn;
        t.make_stack_move(&mut pos, side, mv);
        pos.turn = side.other();
        if let Some((outcome, _)) = pos.result {
            return end(outcome, ply + 1, marks(&pos));
        }
        if let Some(limit) = repetition {
            // A piece put from hand never goes back: no earlier position
            // comes back across it.
            if matches!(mv, Move::Sized { .. }) {
                seen.clear();
            }
            if seen.count(&layers(&pos), pos.turn) >= limit {
                return end(Outcome::Draw, ply + 1, marks(&pos));
            }
        }
    }
    end(Outcome::Draw, max_plies, marks(&pos))
}
