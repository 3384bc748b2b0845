//! The kernel's loop for pieces that are placed, then moved
//! (`pieces()`, `steps()`, `jumps()`), that fly (`fly_at()`) and whose
//! lines remove (`removes()`, `lose_at()`).
//!
//! The general path lists a position's moves and draws one by its place in
//! the list; this loop counts them instead and walks to the one drawn. The
//! list's order is kept exactly: placements by cell, or each piece's steps
//! by cell and then its jumps in the rulebook's order; where lines remove,
//! the moves that complete none come first, then each completing move once
//! per piece it may remove.

use super::{Finished, Seen, end};
use crate::geometry::{Bits, Cell};
use crate::mechanics::Mechanics;
use crate::position::{Outcome, Position};
use crate::rng::Rng;

/// What a side to move may do, worked out once a move.
struct Turn<const W: usize> {
    own: Bits<W>,
    free: Bits<W>,
    occupied: Bits<W>,
    /// Cells where a piece of the mover would complete a line that removes.
    near: Bits<W>,
    /// A piece may go to any free cell.
    flies: bool,
}

impl<const W: usize> Turn<W> {
    /// Whether the piece on `from` completes a line by going to `to`.
    #[inline(always)]
    fn completes(&self, t: &Mechanics, from: Cell, to: Cell) -> bool {
        self.near.contains(to)
            && t.completes(to, (self.own & !Bits::single(from)) | Bits::single(to))
    }

    /// The cells the piece on `from` may step or fly to (not its jumps).
    #[inline(always)]
    fn targets(&self, t: &Mechanics, from: Cell) -> Bits<W> {
        if self.flies {
            self.free
        } else {
            t.steps[from.index()].prefix::<W>() & self.free
        }
    }

    /// The moves of the mover's pieces: how many, and how many of them
    /// complete a line.
    #[inline(always)]
    fn count(&self, t: &Mechanics, jumps: bool) -> (u32, u32) {
        let (mut n, mut c) = (0, 0);
        for from in self.own {
            let to = self.targets(t, from);
            n += to.count();
            for to in to & self.near {
                c += u32::from(self.completes(t, from, to));
            }
            if jumps && !self.flies {
                for to in self.jumps(t, from) {
                    n += 1;
                    c += u32::from(self.completes(t, from, to));
                }
            }
        }
        (n, c)
    }

    /// The open jumps of the piece on `from`, in the rulebook's order.
    #[inline(always)]
    fn jumps<'a>(&'a self, t: &'a Mechanics, from: Cell) -> impl Iterator<Item = Cell> + 'a {
        t.jumps[from.index()]
            .iter()
            .filter(|j| self.free.contains(j.to) && !j.over.prefix::<W>().intersects(self.occupied))
            .map(|j| j.to)
    }

    /// The `k`-th move of the mover's pieces among those that complete a
    /// line (`completing`) or among those that do not.
    #[inline(always)]
    fn nth(&self, t: &Mechanics, jumps: bool, completing: bool, mut k: u32) -> (Cell, Cell) {
        for from in self.own {
            let to = self.targets(t, from);
            if !completing && !to.intersects(self.near) {
                // None of these completes a line: skip them by their count.
                let m = to.count();
                if k < m {
                    return (from, to.nth(k).expect("k < the count"));
                }
                k -= m;
            } else {
                for to in to {
                    if self.completes(t, from, to) == completing {
                        if k == 0 {
                            return (from, to);
                        }
                        k -= 1;
                    }
                }
            }
            if jumps && !self.flies {
                for to in self.jumps(t, from) {
                    if self.completes(t, from, to) == completing {
                        if k == 0 {
                            return (from, to);
                        }
                        k -= 1;
                    }
                }
            }
        }
        unreachable!("k is below the number of moves counted")
    }
}

/// The loop of [`super::Loop::Pieces`]. Never inlined, as the twists' loop.
#[inline(never)]
pub(super) fn run<const W: usize>(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
) -> Finished {
    let mut marks: [Bits<W>; 2] = [start.marks.x.prefix(), start.marks.o.prefix()];
    let mut hand = [start.in_hand.x, start.in_hand.o];
    let all = t.all.prefix::<W>();
    let mut turn = start.turn;
    let min_run = t.min_run as u32;
    let removes = t.removes();
    let jumps = t.jumps.iter().any(|j| !j.is_empty());
    let fly_at = u32::from(t.fly_at);
    let repetition = t.repetition;
    if repetition.is_some() {
        seen.clear();
        seen.count(&marks, turn);
    }
    for ply in 0.. {
        // Pieces that move make a game that need not end.
        if ply == max_plies {
            return end(Outcome::Draw, ply, marks);
        }
        let s = turn as usize;
        let (own, theirs) = (marks[s], marks[1 - s]);
        let occupied = own | theirs;
        let free = all & !occupied;
        let placing = hand[s] > 0;
        let here = Turn {
            own,
            free,
            occupied,
            // With no opponent piece on the board a line removes nothing:
            // the general path lists its moves as any other.
            near: if removes && !theirs.is_empty() {
                t.completing_cells(own, free)
            } else {
                Bits::EMPTY
            },
            flies: !placing && fly_at != 0 && own.count() <= fly_at,
        };
        let (n, c) = if placing {
            (free.count(), here.near.count())
        } else {
            here.count(t, jumps)
        };
        let removable = if c == 0 {
            Bits::EMPTY
        } else {
            t.removable_of(theirs)
        };
        let plain = n - c;
        let r = removable.count();
        let total = plain + c * r;
        if total == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        let i = rng.below(total as usize) as u32;
        let completing = i >= plain;
        let k = if completing { (i - plain) / r } else { i };
        let (from, to) = if placing {
            let cells = if completing {
                here.near
            } else {
                free & !here.near
            };
            (None, cells.nth(k).expect("k < the count"))
        } else {
            let (from, to) = here.nth(t, jumps, completing, k);
            (Some(from), to)
        };
        let mut own = own | Bits::single(to);
        if let Some(from) = from {
            own = own & !Bits::single(from);
        } else {
            hand[s] -= 1;
        }
        marks[s] = own;
        if completing {
            let take = removable.nth((i - plain) % r).expect("i - plain < c * r");
            marks[1 - s] = theirs & !Bits::single(take);
            if let Some(at) = t.lose_at {
                let left = marks[1 - s].count() + u32::from(hand[1 - s]);
                if left <= u32::from(at) {
                    return end(Outcome::Win(turn), ply + 1, marks);
                }
            }
        } else if !removes && own.count() >= min_run && t.wins_through(to, own) {
            let holder = t.line_result.holder(turn, turn);
            return end(t.line_result.outcome(holder), ply + 1, marks);
        }
        if t.turns.ends_turn(start.marks_played() + ply as u32) {
            turn = turn.other();
        }
        if let Some(limit) = repetition {
            // A placement spends a piece from hand and a removal one from
            // the board for good: no earlier position comes back.
            if placing || completing {
                seen.clear();
            }
            if seen.count(&marks, turn) >= limit {
                return end(Outcome::Draw, ply + 1, marks);
            }
        }
    }
    unreachable!("the loop returns at max_plies")
}
