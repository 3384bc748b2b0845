//! Board shape: cells, the grid they live on, and sets of cells.

use std::fmt;

/// Largest number of cells a board may have (the width of [`CellSet`]).
pub const MAX_CELLS: usize = 256;
/// Widest board: columns are named by one letter, `a` to `z`.
pub const MAX_WIDTH: u32 = 26;
/// Tallest board: rows are numbered from 1.
pub const MAX_HEIGHT: u32 = 99;

/// One cell of the board, numbered `row * width + col` from the bottom-left corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(pub u8);

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
        on.then(|| Cell((row * self.width as i64 + col) as u8))
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
        (0..self.len()).map(|i| Cell(i as u8))
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

/// A set of cells: a fixed-size bit set, `Copy`, no heap.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet([u64; 4]);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet([0; 4]);

    /// Whether the set has no cell.
    #[inline]
    pub fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// Number of cells in the set.
    #[inline]
    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub fn contains(self, cell: Cell) -> bool {
        self.0[cell.index() >> 6] & (1 << (cell.0 & 63)) != 0
    }

    /// Adds `cell`.
    #[inline]
    pub fn insert(&mut self, cell: Cell) {
        self.0[cell.index() >> 6] |= 1 << (cell.0 & 63);
    }

    /// Removes `cell`.
    #[inline]
    pub fn remove(&mut self, cell: Cell) {
        self.0[cell.index() >> 6] &= !(1 << (cell.0 & 63));
    }

    /// The set with `cell` added.
    #[inline]
    pub fn with(mut self, cell: Cell) -> CellSet {
        self.insert(cell);
        self
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(self, other: CellSet) -> bool {
        (self & !other).is_empty()
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(self, other: CellSet) -> bool {
        !(self & other).is_empty()
    }

    /// The lowest cell of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.into_iter().next()
    }

    /// The `n`-th cell of the set in index order (from 0), if there are that many.
    #[inline]
    pub fn nth(self, mut n: u32) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                return Some(Cell((i * 64) as u8 + select(w, n) as u8));
            }
            n -= c;
        }
        None
    }

    /// The lowest 64 cells as a word: the whole set on a board of at most 64 cells.
    #[inline]
    pub fn low_word(self) -> u64 {
        self.0[0]
    }

    /// The set of the cells of `word`, the lowest 64.
    #[inline]
    pub fn from_low_word(word: u64) -> CellSet {
        CellSet([word, 0, 0, 0])
    }

    /// The `n`-th cell of a set within the lowest 64 cells (`n < count`).
    #[inline]
    pub fn nth_low(self, n: u32) -> Cell {
        Cell(select(self.0[0], n) as u8)
    }

    /// The 64-bit words, lowest cells first (for hashing).
    pub fn words(self) -> [u64; 4] {
        self.0
    }
}

/// `SELECT_IN_BYTE[b][n]`: the position of the `n`-th set bit of byte `b`
/// (8 where there is none).
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut n = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// The position of the `n`-th set bit of `w` (`n < w.count_ones()`).
///
/// Implementation note: broadword select (Vigna, "Broadword implementation
/// of rank/select queries"): the bytes' running popcounts find the byte in
/// a few branch-free steps, a table the bit within it. The playouts draw a
/// random free cell with it every move, so it must not loop over the bits.
#[inline]
fn select(w: u64, n: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut s = w - ((w >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i: the set bits in bytes 0..=i (at most 64, so no carries).
    let running = s.wrapping_mul(ONES);
    // Bytes whose running count is at most n lie wholly before the bit.
    let before = (((u64::from(n) * ONES) | HIGH) - running) & HIGH;
    let byte = before.count_ones();
    let skipped = ((running << 8) >> (8 * byte)) as u32 & 0xFF;
    let in_byte = (w >> (8 * byte)) as usize & 0xFF;
    8 * byte + u32::from(SELECT_IN_BYTE[in_byte][(n - skipped) as usize & 7])
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(|c| c.0))
            .finish()
    }
}

impl std::ops::BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, o: CellSet) -> CellSet {
        CellSet([
            self.0[0] & o.0[0],
            self.0[1] & o.0[1],
            self.0[2] & o.0[2],
            self.0[3] & o.0[3],
        ])
    }
}

impl std::ops::BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, o: CellSet) -> CellSet {
        CellSet([
            self.0[0] | o.0[0],
            self.0[1] | o.0[1],
            self.0[2] | o.0[2],
            self.0[3] | o.0[3],
        ])
    }
}

impl std::ops::BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, o: CellSet) {
        *self = *self | o;
    }
}

impl std::ops::Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        let mut set = CellSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

/// Iterator over the cells of a [`CellSet`], lowest first.
#[derive(Clone)]
pub struct CellSetIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for CellSetIter {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Cell((self.word * 64) as u8 + w.trailing_zeros() as u8));
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        CellSetIter {
            words: self.0,
            word: 0,
        }
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
    fn cell_set_ops() {
        let mut s = CellSet::EMPTY;
        for i in [0u8, 63, 64, 200, 255] {
            s.insert(Cell(i));
        }
        assert_eq!(s.count(), 5);
        assert_eq!(
            s.into_iter().map(|c| c.0).collect::<Vec<_>>(),
            [0, 63, 64, 200, 255]
        );
        assert_eq!(s.nth(3), Some(Cell(200)));
        assert_eq!(s.nth(5), None);
        s.remove(Cell(63));
        let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..1000 {
            rng = rng.wrapping_mul(0x5851_f42d_4c95_7f2d).wrapping_add(1);
            let w = rng & rng.rotate_left(17);
            for n in 0..w.count_ones() {
                let mut slow = w;
                for _ in 0..n {
                    slow &= slow - 1;
                }
                assert_eq!(select(w, n), slow.trailing_zeros(), "select({w:#x}, {n})");
            }
        }
        assert!(!s.contains(Cell(63)));
        assert!(CellSet::EMPTY.with(Cell(64)).is_subset(s));
    }

    #[test]
    fn grid_limits() {
        assert!(Grid::new(0, 3).is_none());
        assert!(Grid::new(27, 1).is_none());
        assert!(Grid::new(16, 16).is_some());
        assert!(Grid::new(17, 16).is_none());
    }
}
