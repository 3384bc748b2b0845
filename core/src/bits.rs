//! Sets of cells as bits: [`CellSet`], wide enough for the largest board,
//! and its prefixes [`Bits<W>`] that the hot paths use on smaller boards.
//!
//! Implementation note: a board of up to 704 cells needs eleven words, but
//! a 3×3 board needs one and a 15×15 board four. Every set is stored at full width, and
//! the move generator, `apply` and the playouts are compiled once per
//! prefix width (1, 2, 4 or 11 words) and pick theirs by the board's size:
//! a small board then reads, computes and writes only the words it has, and
//! runs as fast as it did when sets were four words wide.

use crate::geometry::Cell;
use std::fmt;

/// Runs `$body` with the const `$w` bound to the prefix width `$words`
/// names (1, 2, 4 or all the words): the dispatch to the compiled widths.
macro_rules! with_width {
    ($words:expr, $w:ident => $body:expr) => {
        match $words {
            1 => {
                const $w: usize = 1;
                $body
            }
            2 => {
                const $w: usize = 2;
                $body
            }
            4 => {
                const $w: usize = 4;
                $body
            }
            _ => {
                const $w: usize = $crate::bits::WORDS;
                $body
            }
        }
    };
}
pub(crate) use with_width;

/// 64-bit words in a [`CellSet`].
pub(crate) const WORDS: usize = 11;

/// A set of cells in `W` words: a fixed-size bit set, `Copy`, no heap.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bits<const W: usize>([u64; W]);

/// A set of any cells of any board.
pub type CellSet = Bits<WORDS>;

impl<const W: usize> Default for Bits<W> {
    fn default() -> Bits<W> {
        Bits::EMPTY
    }
}

impl<const W: usize> Bits<W> {
    /// The empty set.
    pub const EMPTY: Bits<W> = Bits([0; W]);

    /// The set of one cell.
    #[inline]
    pub fn single(cell: Cell) -> Bits<W> {
        // Word by word, without indexing: a set built in memory by one
        // indexed store and read back whole stalls store forwarding.
        let (word, bit) = (cell.index() >> 6, 1u64 << (cell.0 & 63));
        Bits(std::array::from_fn(|i| {
            u64::from(i == word).wrapping_neg() & bit
        }))
    }

    /// Whether the set has no cell.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0.iter().fold(0, |a, w| a | w) == 0
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

    /// 1 when the set holds the cell numbered `index`, else 0: for
    /// gathering cells into a word without a branch.
    /// `index` must be below `64 * W`.
    #[inline(always)]
    pub(crate) fn bit(self, index: usize) -> u64 {
        // A mask the compiler knows is in bounds, where `W` allows one: no
        // bounds check in the gathering loops that call this per cell.
        let word = if W.is_power_of_two() {
            (index >> 6) & (W - 1)
        } else {
            index >> 6
        };
        (self.0[word] >> (index & 63)) & 1
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
    pub fn with(mut self, cell: Cell) -> Bits<W> {
        self.insert(cell);
        self
    }

    /// Whether every cell of `self` is in `other`.
    #[inline]
    pub fn is_subset(self, other: Bits<W>) -> bool {
        (self & !other).is_empty()
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub fn intersects(self, other: Bits<W>) -> bool {
        !(self & other).is_empty()
    }

    /// The lowest cell of the set, if any.
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.into_iter().next()
    }

    /// The `n`-th cell of the set in index order (from 0), if there are that many.
    // Always inlined: with the twists' loop as one more caller, plain
    // `#[inline]` left it a call in the general path's random placement
    // (a board of sub-boards: 1.4 % more instructions).
    #[inline(always)]
    pub fn nth(self, mut n: u32) -> Option<Cell> {
        for (i, &w) in self.0.iter().enumerate() {
            let c = w.count_ones();
            if n < c {
                return Some(Cell((i * 64) as u16 + select(w, n) as u16));
            }
            n -= c;
        }
        None
    }

    /// The set of the first `W` words of `words` (`words.len() >= W`).
    #[inline(always)]
    pub fn from_words(words: &[u64]) -> Bits<W> {
        Bits(std::array::from_fn(|i| words[i]))
    }

    /// The 64-bit words, lowest cells first (for hashing).
    pub fn words(self) -> [u64; W] {
        self.0
    }
}

impl CellSet {
    /// The first `V` words: the whole set when its cells are below `64 * V`.
    #[inline(always)]
    pub fn prefix<const V: usize>(&self) -> Bits<V> {
        Bits(std::array::from_fn(|i| self.0[i]))
    }

    /// Writes `low` over the first `V` words.
    #[inline(always)]
    pub fn set_prefix<const V: usize>(&mut self, low: Bits<V>) {
        self.0[..V].copy_from_slice(&low.0);
    }

    /// The set whose first `V` words are `low`.
    #[inline]
    pub fn from_prefix<const V: usize>(low: Bits<V>) -> CellSet {
        let mut set = CellSet::EMPTY;
        set.set_prefix(low);
        set
    }
}

/// A set of cells within three consecutive words of a [`CellSet`]: a line
/// window, tested against a set without reading the rest of it (a window
/// table of full sets would take eleven words a window).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    word: u16,
    bits: [u64; 3],
}

impl Span {
    /// The span of `set`, if its cells lie within three consecutive words,
    /// for a board whose sets are tested in their first `words` words.
    pub(crate) fn of(set: CellSet, words: usize) -> Option<Span> {
        let first = set.0.iter().position(|&w| w != 0).unwrap_or(0);
        // Kept inside the prefix, so that a test reads no word past it.
        let word = first.min(words.max(3) - 3);
        let inside = set.0[..word]
            .iter()
            .chain(&set.0[word + 3..])
            .all(|&w| w == 0);
        inside.then(|| Span {
            word: word as u16,
            bits: [set.0[word], set.0[word + 1], set.0[word + 2]],
        })
    }

    /// Whether every cell of the span is in `set` (a prefix of a set whose
    /// other words are empty, as on a board that fits it).
    #[inline(always)]
    pub(crate) fn is_subset<const W: usize>(&self, set: &Bits<W>) -> bool {
        let at = self.word as usize;
        let word = |i: usize| {
            if W >= 3 {
                set.0[at + i]
            } else {
                set.0.get(at + i).copied().unwrap_or(0)
            }
        };
        (self.bits[0] & !word(0)) | (self.bits[1] & !word(1)) | (self.bits[2] & !word(2)) == 0
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

impl<const W: usize> fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.into_iter().map(|c| c.0))
            .finish()
    }
}

impl<const W: usize> std::ops::BitAnd for Bits<W> {
    type Output = Bits<W>;
    #[inline]
    fn bitand(self, o: Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] & o.0[i]))
    }
}

impl<const W: usize> std::ops::BitOr for Bits<W> {
    type Output = Bits<W>;
    #[inline]
    fn bitor(self, o: Bits<W>) -> Bits<W> {
        Bits(std::array::from_fn(|i| self.0[i] | o.0[i]))
    }
}

impl<const W: usize> std::ops::BitOrAssign for Bits<W> {
    #[inline]
    fn bitor_assign(&mut self, o: Bits<W>) {
        *self = *self | o;
    }
}

impl<const W: usize> std::ops::Not for Bits<W> {
    type Output = Bits<W>;
    #[inline]
    fn not(self) -> Bits<W> {
        Bits(self.0.map(|w| !w))
    }
}

impl<const W: usize> FromIterator<Cell> for Bits<W> {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Bits<W> {
        let mut set = Bits::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

/// Iterator over the cells of a set, lowest first.
#[derive(Clone)]
pub struct CellSetIter<const W: usize = WORDS> {
    words: [u64; W],
    word: usize,
}

impl<const W: usize> Iterator for CellSetIter<W> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while self.word < W {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(Cell((self.word * 64) as u16 + w.trailing_zeros() as u16));
            }
            self.word += 1;
        }
        None
    }
}

impl<const W: usize> IntoIterator for Bits<W> {
    type Item = Cell;
    type IntoIter = CellSetIter<W>;
    fn into_iter(self) -> CellSetIter<W> {
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
    fn cell_set_ops() {
        let mut s = CellSet::EMPTY;
        for i in [0u16, 63, 64, 200, 255, 675] {
            s.insert(Cell(i));
        }
        assert_eq!(s.count(), 6);
        assert_eq!(
            s.into_iter().map(|c| c.0).collect::<Vec<_>>(),
            [0, 63, 64, 200, 255, 675]
        );
        assert_eq!(s.nth(3), Some(Cell(200)));
        assert_eq!(s.nth(5), Some(Cell(675)));
        assert_eq!(s.nth(6), None);
        s.remove(Cell(63));
        assert!(!s.contains(Cell(63)));
        assert!(CellSet::EMPTY.with(Cell(64)).is_subset(s));
        assert_eq!(CellSet::single(Cell(675)), CellSet::EMPTY.with(Cell(675)));
    }

    #[test]
    fn prefixes_hold_the_low_cells() {
        let s: CellSet = [0u16, 63, 64, 200].into_iter().map(Cell).collect();
        let low: Bits<4> = s.prefix();
        assert_eq!(low.count(), 4);
        assert_eq!(low.nth(3), Some(Cell(200)));
        assert_eq!(CellSet::from_prefix(low), s);
        let mut t = CellSet::EMPTY.with(Cell(500));
        t.set_prefix(low);
        assert_eq!(t.count(), 5);
    }

    #[test]
    fn spans_test_windows_in_place() {
        let window: CellSet = [60u16, 70, 130].into_iter().map(Cell).collect();
        let span = Span::of(window, WORDS).expect("three words");
        let own = window.with(Cell(3));
        assert!(span.is_subset(&own));
        assert!(span.is_subset(&own.prefix::<3>()));
        assert!(!span.is_subset(&own.prefix::<2>()));
        assert!(!span.is_subset(&CellSet::EMPTY.with(Cell(60))));
        let wide: CellSet = [0u16, 300].into_iter().map(Cell).collect();
        assert_eq!(Span::of(wide, WORDS), None);
        let high = Span::of(CellSet::single(Cell(700)), WORDS).expect("the top words");
        assert!(high.is_subset(&CellSet::single(Cell(700))));
    }

    #[test]
    fn select_finds_the_nth_bit() {
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
    }
}
