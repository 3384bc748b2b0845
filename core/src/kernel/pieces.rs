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

use super::{Finished, Policy, Seen, end};
use crate::geometry::{Bits, Cell};
use crate::mechanics::Mechanics;
use crate::mechanics::removals::{PlacingLines, Tally};
use crate::position::{Outcome, Position};
use crate::rng::Rng;

/// What a side to move may do, worked out once a move. `ODD`: lines are
/// exactly so long, or made while placing count for nothing or are
/// refused (`placing_lines()`), which the other rulebooks' loop need not
/// ask.
struct Turn<'a, const W: usize, const ODD: bool> {
    own: Bits<W>,
    free: Bits<W>,
    occupied: Bits<W>,
    /// Cells where a piece of the mover would complete a line that removes.
    near: Bits<W>,
    /// Where the windows are counted: the tally and the lanes of the
    /// windows the mover lacks one mark of.
    short: Option<(&'a Tally, u64)>,
}

/// How the side to move moves this turn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Way {
    /// From hand, to a free cell.
    Places,
    /// Any piece to any free cell.
    Flies,
    /// Along the steps (and jumps) of the rulebook.
    Steps,
}

impl<const W: usize, const ODD: bool> Turn<'_, W, ODD> {
    /// Whether the piece on `from` completes a line by going to `to`.
    #[inline(always)]
    fn completes(&self, t: &Mechanics, from: Cell, to: Cell) -> bool {
        match self.short {
            Some((y, short)) => y.completes_lane(short, from, to),
            None => {
                let own = (self.own & !Bits::single(from)) | Bits::single(to);
                self.near.contains(to)
                    && if ODD {
                        t.completes(to, own)
                    } else {
                        t.completes_window(to, own)
                    }
            }
        }
    }

    /// The cells the piece on `from` may step to (not its jumps).
    #[inline(always)]
    fn steps(&self, t: &Mechanics, from: Cell) -> Bits<W> {
        t.steps[from.index()].prefix::<W>() & self.free
    }

    /// The moves of the mover's pieces (`JUMPS`: with their jumps): how
    /// many, and how many of them complete a line.
    #[inline(always)]
    fn count_steps<const JUMPS: bool>(&self, t: &Mechanics) -> (u32, u32) {
        let (mut n, mut c) = (0, 0);
        for from in self.own {
            n += self.steps(t, from).count();
            if JUMPS {
                for to in self.jumps(t, from) {
                    n += 1;
                    c += u32::from(self.completes(t, from, to));
                }
            }
        }
        // The steps that complete a line end on one of the few cells that
        // do: counted from them, not tested piece by piece.
        for to in self.near {
            for from in t.steps_into[to.index()].prefix::<W>() & self.own {
                c += u32::from(self.completes(t, from, to));
            }
        }
        (n, c)
    }

    /// The flights of the mover's pieces: how many, and how many of them
    /// complete a line.
    #[inline(always)]
    fn count_flights(&self, t: &Mechanics) -> (u32, u32) {
        let n = self.own.count() * self.free.count();
        let mut c = 0;
        for to in self.near {
            for from in self.own {
                c += u32::from(self.completes(t, from, to));
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

    /// The `k`-th of the cells `to` the piece on `from` may go to, counting
    /// only those that complete a line (`completing`) or only those that
    /// do not; otherwise how many there were.
    #[inline(always)]
    fn nth_of(
        &self,
        t: &Mechanics,
        from: Cell,
        to: Bits<W>,
        completing: bool,
        k: u32,
    ) -> Result<Cell, u32> {
        if !completing && !to.intersects(self.near) {
            // None of these completes a line: skip them by their count.
            let m = to.count();
            return if k < m {
                Ok(to.nth(k).expect("k < the count"))
            } else {
                Err(m)
            };
        }
        let mut seen = 0;
        for to in to {
            if self.completes(t, from, to) == completing {
                if seen == k {
                    return Ok(to);
                }
                seen += 1;
            }
        }
        Err(seen)
    }

    /// The `k`-th move of the mover's pieces among those that complete a
    /// line (`completing`) or among those that do not; `JUMPS` as in
    /// [`Turn::count_steps`].
    #[inline(always)]
    fn nth_step<const JUMPS: bool>(
        &self,
        t: &Mechanics,
        completing: bool,
        mut k: u32,
    ) -> (Cell, Cell) {
        for from in self.own {
            match self.nth_of(t, from, self.steps(t, from), completing, k) {
                Ok(to) => return (from, to),
                Err(m) => k -= m,
            }
            if JUMPS {
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

    /// The `k`-th flight, as [`Turn::nth_step`].
    #[inline(always)]
    fn nth_flight(&self, t: &Mechanics, completing: bool, mut k: u32) -> (Cell, Cell) {
        if self.near.is_empty() {
            // Every flight is plain: the piece and the cell by division.
            let f = self.free.count();
            let from = self.own.nth(k / f).expect("k < the count");
            return (from, self.free.nth(k % f).expect("k < the count"));
        }
        for from in self.own {
            match self.nth_of(t, from, self.free, completing, k) {
                Ok(to) => return (from, to),
                Err(m) => k -= m,
            }
        }
        unreachable!("k is below the number of moves counted")
    }
}

/// The loop of [`super::Loop::Pieces`], compiled apart for rulebooks with
/// jumps and without, and with lines that are exactly so long or whose
/// rule while placing is not the usual one ([`Turn`]'s `ODD`) and without.
#[inline(always)]
pub(super) fn run<const W: usize>(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
    policy: Policy,
) -> Finished {
    // Lines of exactly so many, and a rule for lines made while placing,
    // are compiled in only where there are: the others' loop pays nothing
    // for them; nor does the benchmark's for the search's draw.
    let plain = t.placing_lines() == PlacingLines::Remove && !t.exact_lines();
    let jumps = t.jumps.iter().any(|j| !j.is_empty());
    match (policy, jumps, plain) {
        (Policy::Uniform, true, true) => {
            run_in::<W, true, false, false>(t, start, rng, max_plies, seen)
        }
        (Policy::Uniform, false, true) => {
            run_in::<W, false, false, false>(t, start, rng, max_plies, seen)
        }
        (Policy::Uniform, true, false) => {
            run_in::<W, true, true, false>(t, start, rng, max_plies, seen)
        }
        (Policy::Uniform, false, false) => {
            run_in::<W, false, true, false>(t, start, rng, max_plies, seen)
        }
        (Policy::Removals, jumps, plain) => {
            removing::<W>(t, start, rng, max_plies, seen, jumps, plain)
        }
    }
}

/// [`run`] drawing by [`Policy::Removals`]: apart, out of line, so that
/// the benchmark's loop is compiled as it was.
#[inline(never)]
fn removing<const W: usize>(
    t: &Mechanics,
    start: &Position,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut Seen,
    jumps: bool,
    plain: bool,
) -> Finished {
    match (jumps, plain) {
        (true, true) => run_in::<W, true, false, true>(t, start, rng, max_plies, seen),
        (false, true) => run_in::<W, false, false, true>(t, start, rng, max_plies, seen),
        (true, false) => run_in::<W, true, true, true>(t, start, rng, max_plies, seen),
        (false, false) => run_in::<W, false, true, true>(t, start, rng, max_plies, seen),
    }
}

/// [`run`]'s loop (`REMOVING`: drawing by [`Policy::Removals`]). Never
/// inlined, as the twists' loop.
#[inline(never)]
fn run_in<const W: usize, const JUMPS: bool, const ODD: bool, const REMOVING: bool>(
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
    let fly_at = u32::from(t.fly_at);
    let placed_lines = if ODD {
        t.placing_lines()
    } else {
        PlacingLines::Remove
    };
    let repetition = t.repetition;
    // Each side's windows counted, where the counts fit a word.
    let tally = t.tally().filter(|_| removes);
    let mut counts = tally.map_or([0, 0], |y| [y.of(marks[0]), y.of(marks[1])]);
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
        // With no opponent piece on the board a line removes nothing: the
        // general path lists its moves as any other.
        let lines_remove = removes && !theirs.is_empty();
        let short = tally
            .filter(|_| lines_remove)
            .map(|y| (y, y.short_lanes(counts[s], counts[1 - s])));
        let near = match short {
            Some((y, short)) => t.windows_of_lanes(y, short) & free,
            None if lines_remove || (placing && placed_lines == PlacingLines::Refused) => {
                if ODD {
                    t.completing_cells(own, free, placing)
                } else {
                    t.completing_windows(own, free)
                }
            }
            None => Bits::EMPTY,
        };
        let here = Turn::<W, ODD> {
            own,
            free,
            occupied,
            near,
            short,
        };
        let way = if placing {
            Way::Places
        } else if fly_at != 0 && own.count() <= fly_at {
            Way::Flies
        } else {
            Way::Steps
        };
        let (n, c) = match way {
            // What a placement's line does (`placing_lines()`): where it
            // removes nothing no placement is told apart, and where it is
            // refused the cells that would make one are left out.
            Way::Places => match placed_lines {
                PlacingLines::Remove => (free.count(), here.near.count()),
                PlacingLines::CountForNothing => (free.count(), 0),
                PlacingLines::Refused => (free.count() - here.near.count(), 0),
            },
            Way::Flies => here.count_flights(t),
            Way::Steps => here.count_steps::<JUMPS>(t),
        };
        let removable = match tally {
            _ if c == 0 => Bits::EMPTY,
            Some(y) => t.removable_by_tally(y, theirs, counts[1 - s]),
            None => t.removable_of(theirs),
        };
        let plain = n - c;
        let r = removable.count();
        let total = plain + c * r;
        if total == 0 {
            return end(t.stuck(turn, || free.is_empty()), ply, marks);
        }
        let i = if REMOVING && c > 0 && r > 0 && rng.below(2) == 0 {
            // One of the moves that remove (each with each piece).
            plain + rng.below((c * r) as usize) as u32
        } else {
            rng.below(total as usize) as u32
        };
        let completing = i >= plain;
        let k = if completing { (i - plain) / r } else { i };
        let (from, to) = match way {
            Way::Places => {
                let cells = if completing {
                    here.near
                } else if placed_lines == PlacingLines::CountForNothing {
                    free
                } else {
                    free & !here.near
                };
                (None, cells.nth(k).expect("k < the count"))
            }
            Way::Flies => {
                let (from, to) = here.nth_flight(t, completing, k);
                (Some(from), to)
            }
            Way::Steps => {
                let (from, to) = here.nth_step::<JUMPS>(t, completing, k);
                (Some(from), to)
            }
        };
        let mut own = own | Bits::single(to);
        if let Some(from) = from {
            own = own & !Bits::single(from);
        } else {
            hand[s] -= 1;
        }
        marks[s] = own;
        if let Some(y) = tally {
            if let Some(from) = from {
                counts[s] -= y.one[from.index()];
            }
            counts[s] += y.one[to.index()];
        }
        if completing {
            let take = removable.nth((i - plain) % r).expect("i - plain < c * r");
            marks[1 - s] = theirs & !Bits::single(take);
            if let Some(y) = tally {
                counts[1 - s] -= y.one[take.index()];
            }
            if let Some(at) = t.lose_at {
                let left = marks[1 - s].count() + u32::from(hand[1 - s]);
                if left <= u32::from(at) {
                    return end(Outcome::Win(turn), ply + 1, marks);
                }
            }
        } else if !removes && own.count() >= min_run && t.wins_through(to, own, marks[1 - s]) {
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
