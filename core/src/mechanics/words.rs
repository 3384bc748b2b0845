//! The rulebook language's verdicts: what a completed line does, which mark
//! a move places, who holds a region filled without a line, and what having
//! no legal move means. Each is one word (or two) returned by a load-time
//! hook, read once into these enums.

use super::load::{Load, Word};
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::Bits;
use crate::position::{Move, MoveList, Outcome, Side};
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "words",
    hooks: &[
        HookId::NoMoves,
        HookId::FullBoard,
        HookId::LineResult,
        HookId::Marks,
        HookId::FullRegion,
    ],
    build,
};

/// Reads the one-word primitives.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    t.no_moves = load.word::<NoMoves>(HookId::NoMoves)?;
    t.full_board = load
        .word_if_any::<NoMoves>(HookId::FullBoard)?
        .filter(|&w| w != t.no_moves);
    t.line_result = load.word::<LineResult>(HookId::LineResult)?;
    t.marks = load.word::<Marks>(HookId::Marks)?;
    t.full_region = load.word::<FullRegion>(HookId::FullRegion)?;
    Ok(())
}

/// What completing a line does (`line_result()`). The *owner* is the side
/// whose marks form the line; the *mover* is the side that completed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineResult {
    /// The owner wins (tic-tac-toe).
    OwnerWins,
    /// The owner loses (misère).
    OwnerLoses,
    /// The mover wins, whatever the marks (Wild).
    MoverWins,
    /// The mover loses, whatever the marks (Notakto).
    MoverLoses,
    /// This side wins, whoever completed it (Order in Order and Chaos).
    Wins(Side),
}

impl Word for LineResult {
    const WORDS: &'static [(&'static str, LineResult)] = &[
        ("owner wins", LineResult::OwnerWins),
        ("owner loses", LineResult::OwnerLoses),
        ("mover wins", LineResult::MoverWins),
        ("mover loses", LineResult::MoverLoses),
        ("X wins", LineResult::Wins(Side::X)),
        ("O wins", LineResult::Wins(Side::O)),
    ];
}

impl LineResult {
    /// The side a line of `owner`'s marks, completed by `mover`, is counted
    /// for: the owner for the owner rules, the mover for the mover rules, the
    /// named side otherwise. Regions won by a line go to this side.
    #[inline]
    pub(crate) fn holder(self, owner: Side, mover: Side) -> Side {
        match self {
            LineResult::OwnerWins | LineResult::OwnerLoses => owner,
            LineResult::MoverWins | LineResult::MoverLoses => mover,
            LineResult::Wins(side) => side,
        }
    }

    /// The result of a line held by `holder` (see [`LineResult::holder`]).
    #[inline]
    pub(crate) fn outcome(self, holder: Side) -> Outcome {
        match self {
            LineResult::OwnerLoses | LineResult::MoverLoses => Outcome::Win(holder.other()),
            _ => Outcome::Win(holder),
        }
    }

    /// Whether the rule speaks of the line's owner, which a shared mark lacks.
    pub(crate) fn needs_owner(self) -> bool {
        matches!(self, LineResult::OwnerWins | LineResult::OwnerLoses)
    }
}

/// Which mark a placement puts down (`marks()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marks {
    /// The mover's own mark: X for X, O for O.
    Own,
    /// Either mark, the mover's choice (`b2=O`; a bare `b2` places its own).
    Either,
    /// One mark for both sides, X (Notakto).
    Shared,
}

impl Word for Marks {
    const WORDS: &'static [(&'static str, Marks)] = &[
        ("own", Marks::Own),
        ("either", Marks::Either),
        ("shared", Marks::Shared),
    ];
}

impl Marks {
    /// The mark a bare cell (`b2`) places for `mover`.
    #[inline]
    pub fn default_mark(self, mover: Side) -> Side {
        match self {
            Marks::Own | Marks::Either => mover,
            Marks::Shared => Side::X,
        }
    }

    /// Whether `mover` may place `mark`.
    #[inline]
    pub fn allows(self, mover: Side, mark: Side) -> bool {
        self == Marks::Either || mark == self.default_mark(mover)
    }

    /// Pushes a placement on each `free` cell for `mover`: of both marks
    /// when either may be chosen (X's first), else of its one mark.
    #[inline(always)]
    pub(crate) fn push_placements<const W: usize>(
        self,
        mover: Side,
        free: Bits<W>,
        out: &mut MoveList,
    ) {
        if self == Marks::Either {
            for to in free {
                out.push(Move::Place { to, mark: Side::X });
                out.push(Move::Place { to, mark: Side::O });
            }
        } else {
            let mark = self.default_mark(mover);
            for to in free {
                out.push(Move::Place { to, mark });
            }
        }
    }
}

/// Who holds a region filled without a line (`full_region()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FullRegion {
    /// Nobody: it blocks the lines of regions through it (a board of regions, U6).
    Nobody,
    /// Both sides: it counts in either side's lines of regions.
    Both,
    /// The side whose move filled it.
    Mover,
}

impl Word for FullRegion {
    const WORDS: &'static [(&'static str, FullRegion)] = &[
        ("nobody", FullRegion::Nobody),
        ("both", FullRegion::Both),
        ("mover", FullRegion::Mover),
    ];
}

/// What the side to move gets when it has no legal move (`no_moves()`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoMoves {
    /// The game is drawn.
    Draw,
    /// It loses.
    Loss,
    /// It wins.
    Win,
    /// This side wins, whoever is to move (Chaos, on a full board).
    Wins(Side),
}

impl Word for NoMoves {
    const WORDS: &'static [(&'static str, NoMoves)] = &[
        ("draw", NoMoves::Draw),
        ("loss", NoMoves::Loss),
        ("win", NoMoves::Win),
        ("X wins", NoMoves::Wins(Side::X)),
        ("O wins", NoMoves::Wins(Side::O)),
    ];
}

impl NoMoves {
    /// The result when `to_move` has no legal move.
    #[inline]
    pub fn outcome(self, to_move: Side) -> Outcome {
        match self {
            NoMoves::Draw => Outcome::Draw,
            NoMoves::Loss => Outcome::Win(to_move.other()),
            NoMoves::Win => Outcome::Win(to_move),
            NoMoves::Wins(side) => Outcome::Win(side),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_and_the_first_is_the_default() {
        assert_eq!(LineResult::default_word(), LineResult::OwnerWins);
        assert_eq!(Marks::from_word("either"), Some(Marks::Either));
        assert_eq!(NoMoves::from_word("O wins"), Some(NoMoves::Wins(Side::O)));
        assert_eq!(FullRegion::from_word("all"), None);
        assert_eq!(Marks::choices(), "\"own\", \"either\" or \"shared\"");
    }

    #[test]
    fn line_results() {
        use Side::{O, X};
        // A line of X's marks completed by O.
        let cases = [
            (LineResult::OwnerWins, Outcome::Win(X)),
            (LineResult::OwnerLoses, Outcome::Win(O)),
            (LineResult::MoverWins, Outcome::Win(O)),
            (LineResult::MoverLoses, Outcome::Win(X)),
            (LineResult::Wins(X), Outcome::Win(X)),
        ];
        for (rule, want) in cases {
            assert_eq!(rule.outcome(rule.holder(X, O)), want, "{rule:?}");
        }
    }
}
