//! The turn structure (`turn_marks()`): how many marks a side places in its
//! turn, by turn number. Connect6 says `[1, 2]`: X places one mark, then
//! every turn is two marks. A turn may name its marks instead, whoever
//! places them: the swap opening of five in a row says `[["X", "O", "X"], 1]`, the
//! first player placing two X and an O. Each mark is a move of its own;
//! the turn, and the mark within it, follow from the number of moves
//! played.

use crate::position::{BySide, Side};

/// Marks per turn, by turn number; the last count repeats for every later turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turns {
    counts: Vec<u32>,
    /// The mark each of the game's first moves places, where a turn names
    /// its marks (`None`: the mover's own); empty where none does.
    named: Vec<Option<Side>>,
}

/// Where a move falls in the turn structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnPlace {
    /// The turn, from 0: X plays the even turns, O the odd ones.
    pub turn: u32,
    /// The mark within the turn, from 0.
    pub mark: u32,
    /// How many marks the turn has.
    pub of: u32,
}

impl TurnPlace {
    /// The side whose turn it is.
    pub fn side(self) -> Side {
        if self.turn.is_multiple_of(2) {
            Side::X
        } else {
            Side::O
        }
    }

    /// Whether the move is the last of its turn.
    pub fn ends_turn(self) -> bool {
        self.mark + 1 == self.of
    }
}

impl Default for Turns {
    fn default() -> Turns {
        Turns {
            counts: vec![1],
            named: Vec::new(),
        }
    }
}

impl Turns {
    /// The structure `counts` describes (each at least 1; not empty).
    pub(crate) fn new(counts: Vec<u32>) -> Turns {
        debug_assert!(!counts.is_empty() && counts.iter().all(|&c| c > 0));
        Turns {
            counts,
            named: Vec::new(),
        }
    }

    /// The structure `counts` describes, the game's first moves placing
    /// the marks `named` names (`None`: the mover's own).
    pub(crate) fn with_named(counts: Vec<u32>, mut named: Vec<Option<Side>>) -> Turns {
        while named.last() == Some(&None) {
            named.pop();
        }
        Turns {
            named,
            ..Turns::new(counts)
        }
    }

    /// The mark the move at `ply` places where its turn names it.
    #[inline]
    pub fn named_mark(&self, ply: u32) -> Option<Side> {
        self.named.get(ply as usize).copied().flatten()
    }

    /// The moves whose marks a turn names, counted from the game's first:
    /// past them every mark is the mover's own.
    pub fn named_moves(&self) -> u32 {
        self.named.len() as u32
    }

    /// Whether every turn from the move at `ply` on is one mark, the sides
    /// alternating, each placing its own.
    pub fn alternates_from(&self, ply: u32) -> bool {
        if self.is_alternating() {
            return true;
        }
        let (&last, explicit) = self.counts.split_last().expect("at least one count");
        // The first move of the ones-a-turn that run to the end.
        let ones = explicit.iter().rev().take_while(|&&c| c == 1).count();
        let from: u32 = explicit[..explicit.len() - ones].iter().sum();
        last == 1 && ply >= from && ply >= self.named_moves()
    }

    /// One mark a turn, the sides alternating: the common case, checked
    /// first on the hot path.
    #[inline]
    pub fn is_alternating(&self) -> bool {
        self.counts == [1]
    }

    /// The counts as `turn_marks()` gave them.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// Where the move at `ply` (from 0) falls.
    pub fn place(&self, mut ply: u32) -> TurnPlace {
        let (last, explicit) = self.counts.split_last().expect("at least one count");
        for (turn, &of) in explicit.iter().enumerate() {
            if ply < of {
                return TurnPlace {
                    turn: turn as u32,
                    mark: ply,
                    of,
                };
            }
            ply -= of;
        }
        TurnPlace {
            turn: explicit.len() as u32 + ply / last,
            mark: ply % last,
            of: *last,
        }
    }

    /// Whether the move at `ply` is the last of its turn.
    #[inline]
    pub fn ends_turn(&self, ply: u32) -> bool {
        self.is_alternating() || self.place(ply).ends_turn()
    }

    /// The marks of each kind on the board after `ply` moves (none taken):
    /// each side's own, but where a turn names its marks.
    pub fn marks_after(&self, ply: u32) -> BySide<u32> {
        let mut marks = self.placed(ply);
        for (at, named) in (0..ply).zip(&self.named) {
            if let Some(mark) = *named {
                let mover = self.place(at).side();
                *marks.get_mut(mover) -= 1;
                *marks.get_mut(mark) += 1;
            }
        }
        marks
    }

    /// The marks each side has placed after `ply` moves.
    pub fn placed(&self, ply: u32) -> BySide<u32> {
        let mut placed = BySide::default();
        let mut done = 0;
        let mut turn = 0u32;
        while done < ply {
            let of = self.place(done).of;
            let n = of.min(ply - done);
            let side = if turn.is_multiple_of(2) {
                Side::X
            } else {
                Side::O
            };
            *placed.get_mut(side) += n;
            done += n;
            turn += 1;
        }
        placed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect6_turns() {
        let t = Turns::new(vec![1, 2]);
        let places: Vec<(u32, u32, u32)> = (0..6)
            .map(|p| {
                let at = t.place(p);
                (at.turn, at.mark, at.of)
            })
            .collect();
        assert_eq!(
            places,
            [
                (0, 0, 1),
                (1, 0, 2),
                (1, 1, 2),
                (2, 0, 2),
                (2, 1, 2),
                (3, 0, 2)
            ]
        );
        let ends: Vec<bool> = (0..6).map(|p| t.ends_turn(p)).collect();
        assert_eq!(ends, [true, false, true, false, true, false]);
        assert_eq!(t.place(3).side(), Side::X);
        let placed = t.placed(4);
        assert_eq!((placed.x, placed.o), (2, 2));
        let placed = t.placed(2);
        assert_eq!((placed.x, placed.o), (1, 1));
    }

    /// The swap opening of five in a row: X places X, O, X, then one mark a turn.
    #[test]
    fn named_marks_turns() {
        let t = Turns::with_named(
            vec![3, 1],
            vec![Some(Side::X), Some(Side::O), Some(Side::X)],
        );
        let named: Vec<Option<Side>> = (0..5).map(|p| t.named_mark(p)).collect();
        assert_eq!(
            named,
            [Some(Side::X), Some(Side::O), Some(Side::X), None, None]
        );
        let marks = t.marks_after(3);
        assert_eq!((marks.x, marks.o), (2, 1));
        let placed = t.placed(3);
        assert_eq!((placed.x, placed.o), (3, 0));
        let marks = t.marks_after(5);
        assert_eq!((marks.x, marks.o), (3, 2));
        assert!(!t.alternates_from(2) && t.alternates_from(3));
        let connect6 = Turns::new(vec![1, 2]);
        assert!(!connect6.alternates_from(9));
        let late = Turns::new(vec![2, 1, 1]);
        assert!(!late.alternates_from(1) && late.alternates_from(2));
        // A named turn of own marks past the counts: named to its end.
        let own_named = Turns::with_named(vec![1, 1], vec![None, Some(Side::X)]);
        assert!(!own_named.alternates_from(1) && own_named.alternates_from(2));
    }

    #[test]
    fn alternating_turns() {
        let t = Turns::default();
        assert!(t.is_alternating());
        assert!((0..5).all(|p| t.ends_turn(p)));
        let placed = t.placed(5);
        assert_eq!((placed.x, placed.o), (3, 2));
    }
}
