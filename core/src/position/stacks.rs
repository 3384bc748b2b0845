//! Pieces of several sizes stacked on the cells (`sizes()`): a cell holds at
//! most one piece of each size, the largest on top, covering the others.
//! What a position holds of them; the mechanic that plays them is
//! `mechanics::stacks`.

use super::{BySide, Side};
use crate::geometry::{Bits, Cell, CellSet};

/// The most sizes a rulebook's pieces may have.
pub const MAX_SIZES: usize = 4;

/// The most cells a board with stacks may have: a layer is one word.
pub const MAX_STACK_CELLS: usize = 64;

/// Every piece on the board by size and side, where pieces have sizes;
/// empty in every other rulebook. The sides' marks ([`crate::Position::marks`])
/// are then the pieces that show: each cell's top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stacks {
    /// By size, smallest first, and side (X, O): the cells that hold such
    /// a piece, covered or not.
    layers: [[u64; 2]; MAX_SIZES],
    /// Whether a piece was ever put on the board: one test, in every
    /// position's key, tells the rulebooks without sizes apart (a piece
    /// once put never leaves the board, so this is "not empty").
    used: bool,
}

impl Stacks {
    /// Whether no piece is on the board.
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.used
    }

    /// Whether a piece is on the board: the rulebook has sizes and a
    /// move has put one down.
    #[inline(always)]
    pub(crate) fn in_use(&self) -> bool {
        self.used
    }

    /// The cells holding a piece of `side` of size `size`.
    #[inline]
    pub(crate) fn layer(&self, side: Side, size: usize) -> u64 {
        self.layers[size][side as usize]
    }

    /// The cells holding a piece of size `size` of either side.
    #[inline]
    fn sized(&self, size: usize) -> u64 {
        self.layers[size][0] | self.layers[size][1]
    }

    /// The cells a piece of size `size` may not go to: their top is as
    /// large or larger.
    #[inline]
    pub(crate) fn at_least(&self, size: usize) -> u64 {
        (size..MAX_SIZES).fold(0, |cells, s| cells | self.sized(s))
    }

    /// The size of the top piece of `cell`, if any.
    #[inline]
    pub(crate) fn top_size(&self, cell: Cell) -> Option<usize> {
        let bit = 1u64 << cell.0;
        (0..MAX_SIZES)
            .rev()
            .find(|&size| self.sized(size) & bit != 0)
    }

    /// The top of `cell`: its side and size.
    pub fn top(&self, cell: Cell) -> Option<(Side, usize)> {
        self.pieces(cell).next()
    }

    /// The pieces on `cell`, top first.
    pub fn pieces(&self, cell: Cell) -> impl Iterator<Item = (Side, usize)> + '_ {
        let bit = 1u64 << cell.0;
        (0..MAX_SIZES).rev().filter_map(move |size| {
            Side::ALL
                .into_iter()
                .find(|&s| self.layer(s, size) & bit != 0)
                .map(|s| (s, size))
        })
    }

    /// How many pieces of `side` of size `size` are on the board.
    #[inline]
    pub fn count(&self, side: Side, size: usize) -> u32 {
        self.layer(side, size).count_ones()
    }

    /// Puts `side`'s piece of size `size` on `cell`, over what is there.
    #[inline]
    pub(crate) fn put(&mut self, side: Side, size: usize, cell: Cell) {
        self.layers[size][side as usize] |= 1 << cell.0;
        self.used = true;
    }

    /// Takes the top piece off `cell`, returning its size.
    #[inline]
    pub(crate) fn lift(&mut self, cell: Cell) -> Option<usize> {
        let (side, size) = self.top(cell)?;
        self.layers[size][side as usize] &= !(1 << cell.0);
        Some(size)
    }

    /// The cells whose top is each side's: the pieces that show.
    pub(crate) fn shown(&self) -> BySide<CellSet> {
        let (mut covered, mut shown) = (0u64, [0u64; 2]);
        for size in (0..MAX_SIZES).rev() {
            for (side, cells) in shown.iter_mut().enumerate() {
                *cells |= self.layers[size][side] & !covered;
            }
            covered |= self.sized(size);
        }
        let set = |w: u64| CellSet::from_prefix(Bits::<1>::from_words(&[w]));
        BySide {
            x: set(shown[0]),
            o: set(shown[1]),
        }
    }

    /// The words mixed into a position's key, one a size: the sides'
    /// layers folded into one word (apart where the board has at most 32
    /// cells, and a hash of both beyond).
    pub(crate) fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.layers.iter().map(|l| l[0] ^ l[1].rotate_left(32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_piece_shows_and_the_covered_show_again_when_it_leaves() {
        let mut st = Stacks::default();
        let b2 = Cell(4);
        st.put(Side::X, 0, b2);
        st.put(Side::O, 2, b2);
        assert_eq!(st.top(b2), Some((Side::O, 2)));
        assert_eq!(
            st.pieces(b2).collect::<Vec<_>>(),
            [(Side::O, 2), (Side::X, 0)]
        );
        assert!(st.shown().o.contains(b2) && !st.shown().x.contains(b2));
        assert_eq!(st.at_least(1), 1 << 4);
        assert_eq!(st.at_least(3), 0);
        assert_eq!(st.lift(b2), Some(2));
        assert_eq!(st.top(b2), Some((Side::X, 0)));
        assert!(st.shown().x.contains(b2));
        assert_eq!(st.lift(b2), Some(0));
        assert_eq!(st.lift(b2), None);
        assert_eq!(st.pieces(b2).count(), 0);
    }
}
