//! Board shape: cells, the grid they live on, and sets of cells.

use std::fmt;

pub use crate::bits::{Bits, CellSet, CellSetIter};
pub(crate) use crate::bits::{Span, WORDS};

/// Largest number of cells a board may have (the width of [`CellSet`]): a
/// 26×26 board fits, the widest the column letters allow.
pub const MAX_CELLS: usize = 64 * WORDS;
/// Widest board: columns are named by one letter, `a` to `z`.
pub const MAX_WIDTH: u32 = 26;
/// Tallest board: rows are numbered from 1.
pub const MAX_HEIGHT: u32 = 99;

/// One cell of the board, numbered `row * width + col` from the bottom-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u16);

impl Cell {
    /// The cell's number as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Width and height of a rectangular board; maps cells to coordinates and back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    width: u32,
    height: u32,
}

impl Grid {
    /// A grid of `width` columns and `height` rows, if it fits the engine's limits.
    pub fn new(width: u32, height: u32) -> Option<Grid> {
        let fits = (1..=MAX_WIDTH).contains(&width)
            && (1..=MAX_HEIGHT).contains(&height)
            && (width * height) as usize <= MAX_CELLS;
        fits.then_some(Grid { width, height })
    }

    /// Number of columns.
    pub fn width(self) -> u32 {
        self.width
    }

    /// Number of rows.
    pub fn height(self) -> u32 {
        self.height
    }

    /// Number of cells.
    pub fn len(self) -> usize {
        (self.width * self.height) as usize
    }

    /// Always false: a grid has at least one cell.
    pub fn is_empty(self) -> bool {
        false
    }

    /// The cell at column `col` and row `row` (both from 0), if on the board.
    pub fn cell(self, col: i64, row: i64) -> Option<Cell> {
        let on = (0..self.width as i64).contains(&col) && (0..self.height as i64).contains(&row);
        on.then(|| Cell((row * self.width as i64 + col) as u16))
    }

    /// Column of a cell, from 0.
    pub fn col(self, cell: Cell) -> u32 {
        cell.0 as u32 % self.width
    }

    /// Row of a cell, from 0.
    pub fn row(self, cell: Cell) -> u32 {
        cell.0 as u32 / self.width
    }

    /// Whether the cell number lies on this board.
    pub fn contains(self, cell: Cell) -> bool {
        cell.index() < self.len()
    }

    /// Every cell of the board, in index order.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.len()).map(|i| Cell(i as u16))
    }

    /// The set of all cells.
    pub fn all(self) -> CellSet {
        self.cells().collect()
    }

    /// A cell's name in the notation: column letter, then row number (`b2`).
    pub fn name(self, cell: Cell) -> CellName {
        CellName {
            col: self.col(cell),
            row: self.row(cell),
        }
    }

    /// Parses a coordinate such as `b2`; `None` when it is not one or is off the board.
    pub fn parse_cell(self, text: &str) -> Option<Cell> {
        let letter = text.chars().next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = &text[1..];
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: i64 = digits.parse().ok()?;
        self.cell(i64::from(letter as u8 - b'a'), row - 1)
    }
}

/// Display form of a cell (`b2`), see [`Grid::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellName {
    col: u32,
    row: u32,
}

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col as u8) as char, self.row + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        let g = Grid::new(15, 15).unwrap();
        for c in g.cells() {
            assert_eq!(g.parse_cell(&g.name(c).to_string()), Some(c));
        }
        assert_eq!(g.parse_cell("o15"), Some(Cell(224)));
        assert_eq!(g.parse_cell("p1"), None);
        assert_eq!(g.parse_cell("a16"), None);
        assert_eq!(g.parse_cell("a0"), None);
        assert_eq!(g.parse_cell("A1"), None);
    }

    #[test]
    fn grid_limits() {
        assert!(Grid::new(0, 3).is_none());
        assert!(Grid::new(27, 1).is_none());
        assert!(Grid::new(26, 26).is_some());
        assert!(Grid::new(26, 27).is_some());
        assert!(Grid::new(26, 28).is_none());
        assert!(Grid::new(7, 99).is_some());
    }
}
