//! Positions numbered by the cells each side holds: a side's cells are a
//! combination of the board's, ranked in colexicographic order, so that
//! every position with given counts of marks is one place in an array and
//! no position needs a key or a hash.

/// Cells are bits of one word: at most 64.
const MOST: usize = 64;

/// Ranks and unranks sets of cells of a board of `cells` cells.
#[derive(Debug)]
pub(super) struct Numbering {
    cells: u32,
    /// `choose[n][k]`: the k-element subsets of n cells.
    choose: Vec<[u64; MOST + 1]>,
}

impl Numbering {
    /// The numbering of a board of `cells` cells (at most 64).
    pub(super) fn new(cells: u32) -> Numbering {
        let mut choose = vec![[0u64; MOST + 1]; MOST + 1];
        for n in 0..=MOST {
            choose[n][0] = 1;
            for k in 1..=n {
                choose[n][k] = choose[n - 1][k - 1].saturating_add(choose[n - 1][k]);
            }
        }
        Numbering { cells, choose }
    }

    /// The board's cells.
    pub(super) fn cells(&self) -> u32 {
        self.cells
    }

    /// The `k`-element subsets of `n` cells.
    pub(super) fn choose(&self, n: u32, k: u32) -> u64 {
        if k > n {
            0
        } else {
            self.choose[n as usize][k as usize]
        }
    }

    /// How many positions have `x` marks of X and `o` of O (one side to move).
    pub(super) fn pairs(&self, x: u32, o: u32) -> u64 {
        self.choose(self.cells, x)
            .saturating_mul(self.choose(self.cells - x.min(self.cells), o))
    }

    /// The rank of the set of X's cells `x` and O's `o` among [`Self::pairs`]:
    /// X's set first, then O's among the cells X leaves.
    pub(super) fn rank_pair(&self, x: u64, o: u64) -> u64 {
        let others = self.choose(self.cells - x.count_ones(), o.count_ones());
        self.rank(x) * others + self.rank(squeeze(o, !x))
    }

    /// The sets of X's cells and O's with `x` and `o` marks ranked `rank`.
    pub(super) fn unrank_pair(&self, rank: u64, x: u32, o: u32) -> (u64, u64) {
        let others = self.choose(self.cells - x, o);
        let xs = self.unrank(rank / others, x, self.cells);
        let free = !xs & low(self.cells);
        (
            xs,
            spread(self.unrank(rank % others, o, self.cells - x), free),
        )
    }

    /// The colexicographic rank of a set: the sum, over its `i`-th cell
    /// from the lowest (from 1), of the `i`-subsets of the cells below it.
    fn rank(&self, mut set: u64) -> u64 {
        let mut rank = 0;
        let mut i = 1;
        while set != 0 {
            rank += self.choose[set.trailing_zeros() as usize][i];
            i += 1;
            set &= set - 1;
        }
        rank
    }

    /// The set of `k` of `n` cells ranked `rank`: its cells from the highest
    /// down, each the highest whose subsets do not pass what is left.
    fn unrank(&self, mut rank: u64, k: u32, n: u32) -> u64 {
        let mut set = 0;
        let mut c = n as usize;
        for i in (1..=k as usize).rev() {
            c -= 1;
            while self.choose[c][i] > rank {
                c -= 1;
            }
            set |= 1 << c;
            rank -= self.choose[c][i];
        }
        set
    }
}

/// The lowest `n` bits.
fn low(n: u32) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

/// The bits of `set` that lie in `within`, packed down to the low end in
/// order (`pext`).
fn squeeze(set: u64, within: u64) -> u64 {
    let mut out = 0;
    let mut rest = set & within;
    while rest != 0 {
        let bit = rest & rest.wrapping_neg();
        out |= 1 << (within & (bit - 1)).count_ones();
        rest &= rest - 1;
    }
    out
}

/// The low bits of `packed` spread over the bits of `within`, in order
/// (`pdep`): the inverse of [`squeeze`].
fn spread(mut packed: u64, mut within: u64) -> u64 {
    let mut out = 0;
    while packed != 0 && within != 0 {
        let bit = within & within.wrapping_neg();
        if packed & 1 != 0 {
            out |= bit;
        }
        packed >>= 1;
        within &= within - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair of sets of a small board has its own rank, within the
    /// count, and comes back from it.
    #[test]
    fn pairs_rank_one_to_one() {
        let n = Numbering::new(7);
        for (x, o) in [(0, 0), (1, 0), (2, 1), (3, 3), (2, 4), (0, 7)] {
            let mut seen = vec![false; n.pairs(x, o) as usize];
            for xs in 0..1u64 << 7 {
                for os in 0..1u64 << 7 {
                    if xs & os != 0 || xs.count_ones() != x || os.count_ones() != o {
                        continue;
                    }
                    let r = n.rank_pair(xs, os);
                    assert!(!seen[r as usize], "{xs:b} {os:b}: rank {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(n.unrank_pair(r, x, o), (xs, os));
                }
            }
            assert!(seen.iter().all(|&s| s), "{x} {o}: a rank left over");
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let within = 0b1011_0110;
        assert_eq!(squeeze(0b1001_0010, within), 0b1_0101);
        assert_eq!(spread(0b1_0101, within), 0b1001_0010);
    }
}
