//! The playout kernel: a lean random-game loop for rulebooks whose moves
//! only place marks.
//!
//! Implementation note: a random playout is the figure of merit of a rules
//! engine and the inner loop of the computer's search. The general path
//! ([`Rulebook::apply`] on a whole [`Position`]) carries pieces, regions,
//! the redirect and the per-move hooks on every move. A rulebook without any
//! of these (marks only placed, by any of the `marks()` rules, under any
//! `line_result()`, `no_moves()` and `support()`) is played here on two bit
//! sets and the set of fillable cells, in one machine word when the board has
//! at most 64 cells. It draws exactly the random numbers the general path
//! draws and reaches exactly its results; `tests::same_games_as_the_general_path`
//! holds it to that.

use crate::geometry::{Cell, CellSet};
use crate::playout::Rng;
use crate::position::{BySide, Outcome, Position, UNLIMITED};
use crate::rulebook::{Rulebook, Tables};
use crate::rules::draw_placement;
use std::ops::{BitAnd, BitOr, Not};

/// Whether `rules` can be played by the kernel: marks only placed, no
/// regions, no per-move hook, no repetition rule.
pub(crate) fn eligible(rules: &Rulebook) -> bool {
    let t = &rules.tables;
    t.pieces == UNLIMITED
        && t.regions.is_empty()
        && t.repetition.is_none()
        && !rules.refuse_hook
        && !rules.outcome_hook
}

/// A set of cells as the kernel holds it: one word, or the full [`CellSet`].
trait Bits: Copy + Eq + BitAnd<Output = Self> + BitOr<Output = Self> + Not<Output = Self> {
    fn from_set(set: CellSet) -> Self;
    fn to_set(self) -> CellSet;
    fn count(self) -> u32;
    fn nth(self, n: u32) -> Cell;
    fn bit(cell: Cell) -> Self;
    fn is_empty(self) -> bool;
    /// Whether `own` holds a completed line through `cell`.
    fn wins(t: &Tables, cell: Cell, own: Self) -> bool;
    fn cells(self) -> impl Iterator<Item = Cell>;
}

impl Bits for u64 {
    #[inline]
    fn from_set(set: CellSet) -> u64 {
        set.low_word()
    }
    #[inline]
    fn to_set(self) -> CellSet {
        CellSet::from_low_word(self)
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn nth(self, n: u32) -> Cell {
        CellSet::from_low_word(self).nth_low(n)
    }
    #[inline]
    fn bit(cell: Cell) -> u64 {
        1 << cell.0
    }
    #[inline]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline]
    fn wins(t: &Tables, cell: Cell, own: u64) -> bool {
        t.wins_through_word(cell, own)
    }
    #[inline]
    fn cells(self) -> impl Iterator<Item = Cell> {
        let mut w = self;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let c = Cell(w.trailing_zeros() as u8);
                w &= w - 1;
                c
            })
        })
    }
}

impl Bits for CellSet {
    #[inline]
    fn from_set(set: CellSet) -> CellSet {
        set
    }
    #[inline]
    fn to_set(self) -> CellSet {
        self
    }
    #[inline]
    fn count(self) -> u32 {
        CellSet::count(self)
    }
    #[inline]
    fn nth(self, n: u32) -> Cell {
        CellSet::nth(self, n).expect("n < count")
    }
    #[inline]
    fn bit(cell: Cell) -> CellSet {
        CellSet::EMPTY.with(cell)
    }
    #[inline]
    fn is_empty(self) -> bool {
        CellSet::is_empty(self)
    }
    #[inline]
    fn wins(t: &Tables, cell: Cell, own: CellSet) -> bool {
        t.wins_through(cell, own)
    }
    #[inline]
    fn cells(self) -> impl Iterator<Item = Cell> {
        self.into_iter()
    }
}

/// How a kernel game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finished {
    pub outcome: Outcome,
    /// Moves played.
    pub plies: usize,
    /// The marks on the board at the end.
    pub marks: BySide<CellSet>,
}

/// Plays uniformly random moves from `start` to the result. `start` must not
/// be over, and `rules` must be [`eligible`].
pub(crate) fn playout(rules: &Rulebook, start: &Position, rng: &mut Rng) -> Finished {
    if rules.tables.narrow {
        run::<u64>(rules, start, rng)
    } else {
        run::<CellSet>(rules, start, rng)
    }
}

#[inline]
fn run<B: Bits>(rules: &Rulebook, start: &Position, rng: &mut Rng) -> Finished {
    let t = &rules.tables;
    let mut marks = [B::from_set(start.marks.x), B::from_set(start.marks.o)];
    let mut open = B::from_set(rules.fillable(start));
    let mut turn = start.turn;
    let min_run = t.min_run as u32;
    let end = |outcome, plies, marks: [B; 2]| Finished {
        outcome,
        plies,
        marks: BySide {
            x: marks[0].to_set(),
            o: marks[1].to_set(),
        },
    };
    for ply in 0.. {
        let n = open.count();
        if n == 0 {
            return end(t.no_moves.outcome(turn), ply, marks);
        }
        let (i, mark) = draw_placement(t.marks, turn, n, rng);
        let to = open.nth(i);
        let bit = B::bit(to);
        let own = &mut marks[mark as usize];
        *own = *own | bit;
        open = open & !bit;
        if t.gravity {
            let occupied = marks[0] | marks[1];
            for d in B::from_set(t.dependents[to.index()]).cells() {
                if (B::from_set(t.support[d.index()]) & !occupied).is_empty() {
                    open = open | B::bit(d);
                }
            }
        }
        // Fewer marks than the shortest winning run cannot hold a line.
        let own = marks[mark as usize];
        if own.count() >= min_run && B::wins(t, to, own) {
            let holder = t.line_result.holder(mark, turn);
            return end(t.line_result.outcome(holder), ply + 1, marks);
        }
        turn = turn.other();
    }
    unreachable!("a board has finitely many cells")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::MoveList;

    /// The kernel plays the same games as `random_move` + `apply`: the same
    /// marks, result and number of moves, seed for seed.
    #[test]
    fn same_games_as_the_general_path() {
        let mut covered = 0;
        for name in Rulebook::builtin_names() {
            let rules = Rulebook::builtin(name).unwrap();
            if !eligible(&rules) {
                continue;
            }
            covered += 1;
            let games = if rules.grid().len() > 100 { 30 } else { 300 };
            for seed in 0..games {
                let start = rules.initial();
                let (mut a, mut b) = (Rng::new(seed), Rng::new(seed));
                let kernel = playout(&rules, &start, &mut a);
                let mut pos = start;
                let mut list = MoveList::new();
                let mut general_plies = 0;
                while !pos.is_over() {
                    let mv = rules
                        .random_move(&pos, &[], &mut b, &mut list)
                        .unwrap()
                        .unwrap();
                    rules.apply(&mut pos, &[], mv).unwrap();
                    general_plies += 1;
                }
                let general = Finished {
                    outcome: pos.outcome().unwrap(),
                    plies: general_plies,
                    marks: pos.marks,
                };
                assert_eq!(kernel, general, "{name}, seed {seed}");
            }
        }
        assert!(covered >= 8, "only {covered} built-ins use the kernel");
    }
}
