//! The loop of [`super::Loop::Wide`] without regions: marks only placed, a placement's
//! lines judged by the counts of its windows ([`Lack`]) rather than by
//! their masks, on boards whose masks outgrow the cache (`WindowList`).

use super::{Finished, Lack, draw_placement, end, supported};
use crate::geometry::Bits;
use crate::mechanics::Mechanics;
use crate::position::Position;
use crate::rng::Rng;

/// Plays the game from `start` to its end (inlined into `kernel::wide`,
/// itself called once a game).
#[inline(always)]
pub(super) fn run<const W: usize>(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    lack: &mut Lack,
) -> Finished {
    let list = t
        .window_list
        .as_ref()
        .expect("the counts' loop serves rulebooks with a window list");
    let mut marks: [Bits<W>; 2] = [start.marks.x.prefix(), start.marks.o.prefix()];
    let mut open: Bits<W> = t.fillable_in::<W>(start);
    let mut turn = start.turn;
    lack.reset(list, &marks);
    for ply in 0.. {
        let n = open.count();
        if n == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        let (i, mark) = draw_placement(t.marks, turn, n, rng);
        let to = open.nth(i).expect("i < n cells");
        let bit = Bits::single(to);
        marks[mark as usize] |= bit;
        open = open & !bit;
        if t.gravity {
            open |= supported(t, to, marks[0] | marks[1]);
        }
        if lack.place(list, to, mark) {
            let holder = t.line_result.holder(mark, turn);
            return end(t.line_result.outcome(holder), ply + 1, marks);
        }
        if t.turns.ends_turn(start.marks_played() + ply as u32) {
            turn = turn.other();
        }
    }
    unreachable!("a board has finitely many cells")
}
