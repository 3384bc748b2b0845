//! The loop of [`super::Loop::Wide`] on a board of regions: marks placed, each move sending the next to a region (`redirect(cell)`), a
//! region closed by a line or when full, a line of held regions deciding.
//! The rules are the mechanics' own ([`Mechanics::closing`],
//! [`Mechanics::region_line`], [`Mechanics::sent_to`]); only the state is
//! the loop's: the regions held and closed as words, not a whole position.

use super::{Finished, draw_placement, end};
use crate::geometry::Bits;
use crate::mechanics::Mechanics;
use crate::position::{NO_REGION, Position};
use crate::rng::Rng;

/// Plays the game from `start` to its end (inlined into `kernel::wide`,
/// itself called once a game).
#[inline(always)]
pub(super) fn run<const W: usize>(t: &Mechanics, start: &Position, rng: &mut Rng) -> Finished {
    let mut marks: [Bits<W>; 2] = [start.marks.x.prefix(), start.marks.o.prefix()];
    let all = t.all.prefix::<W>();
    let mut closed_cells: Bits<W> = start.closed_cells.prefix();
    let mut closed = start.regions_closed;
    let mut held = [start.regions_won.x, start.regions_won.o];
    let mut target = start.target;
    let mut turn = start.turn;
    for ply in 0.. {
        let fillable = all & !(marks[0] | marks[1]) & !closed_cells;
        let free = match target {
            NO_REGION => fillable,
            r => fillable & t.regions[r as usize].prefix::<W>(),
        };
        let n = free.count();
        // A target region always has a free cell (`sent_to`): no free cell
        // is no fillable cell.
        if n == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        let (i, mark) = draw_placement(t.marks, turn, n, rng);
        let to = free.nth(i).expect("i < n cells");
        let own = marks[mark as usize] | Bits::single(to);
        marks[mark as usize] = own;
        let line = t.wins_through(to, own, marks[1 - mark as usize]);
        let occupied = marks[0] | marks[1];
        if let Some(c) = t.closing::<W>(closed, occupied, to, mark, turn, line) {
            closed |= 1 << c.region;
            closed_cells |= t.regions[c.region].prefix::<W>();
            for h in c.holders.into_iter().flatten() {
                held[h as usize] |= 1 << c.region;
            }
            if let Some(h) = t.region_line(c, |h| held[h as usize]) {
                return end(t.line_result.outcome(h), ply + 1, marks);
            }
        }
        target = t.sent_to(to, all & !occupied & !closed_cells);
        if t.turns.ends_turn(start.marks_played() + ply as u32) {
            turn = turn.other();
        }
    }
    unreachable!("a board has finitely many cells")
}
