//! The positions a kernel game has met, for the repetition rule: counted
//! exactly (a side's marks word by word and the side to move, so no two
//! positions share a count as two hashes might). A few are found by a
//! scan; more through a hash table — a scan alone made a 360-move game
//! cost 180 comparisons a move.

use crate::geometry::Bits;
use crate::position::Side;

/// Positions met since the last move that none can come back across.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// Each distinct position's words (X's marks, O's, the side to move)
    /// and then its count, `2W + 2` words an entry.
    entries: Vec<u64>,
    /// Open addressing over `entries` once they are more than
    /// [`SCANNED`]: a slot holds the generation it was written in and the
    /// entry's number; a slot of an older generation is empty, so a new
    /// table costs one increment.
    slots: Vec<(u32, u32)>,
    generation: u32,
    /// While positions are found by a filtered scan, one bit per position
    /// met, at its hash: a position whose bit is clear is new without a scan (most
    /// are, in a random game).
    met: u64,
}

impl Seen {
    /// Forgets every position (the table is rebuilt, in a new
    /// generation, once there are more than a scan's worth again).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.met = 0;
    }

    /// Counts one more occurrence of the position (`marks`, `turn`) and
    /// says how many times it has now occurred. Always inlined: a call a
    /// move cost the short games of slides 6 % more instructions
    /// than the scan it replaced.
    #[inline(always)]
    pub(crate) fn count<const W: usize>(&mut self, marks: &[Bits<W>; 2], turn: Side) -> u32 {
        let stride = 2 * W + 2;
        let number = self.entries.len() / stride;
        let (x, o, turn) = (marks[0].words(), marks[1].words(), turn as u64);
        let same = |e: &[u64]| e[0] == x[0] && e[..W] == x && e[W..2 * W] == o && e[2 * W] == turn;
        if number < FILTERED {
            // Very few positions: a scan is cheapest.
            if let Some(e) = self.entries.chunks_exact_mut(stride).find(|e| same(e)) {
                e[2 * W + 1] += 1;
                return e[2 * W + 1] as u32;
            }
            self.push(&x, &o, turn);
            if number + 1 == FILTERED {
                self.met = self.entries.chunks_exact(stride).fold(0, |met, e| {
                    met | 1 << (mark(&e[..W], &e[W..2 * W], e[2 * W]) >> 58)
                });
            }
            return 1;
        }
        if number <= SCANNED {
            // Few positions: a scan is cheaper than a table, and the scan
            // is skipped when the position's bit says it is new.
            let bit = 1 << (mark(&x, &o, turn) >> 58);
            if self.met & bit != 0
                && let Some(e) = self.entries.chunks_exact_mut(stride).find(|e| same(e))
            {
                e[2 * W + 1] += 1;
                return e[2 * W + 1] as u32;
            }
            self.met |= bit;
            self.push(&x, &o, turn);
            if number == SCANNED {
                self.index::<W>();
            }
            return 1;
        }
        let mask = self.slots.len() - 1;
        let mut i = hash(&x, &o, turn) as usize & mask;
        loop {
            let (generation, e) = self.slots[i];
            if generation != self.generation {
                self.slots[i] = (self.generation, number as u32);
                self.push(&x, &o, turn);
                // At most half full: probes stay short.
                if self.slots.len() < 2 * (number + 2) {
                    self.index::<W>();
                }
                return 1;
            }
            let entry = &mut self.entries[e as usize * stride..][..stride];
            if same(entry) {
                entry[2 * W + 1] += 1;
                return entry[2 * W + 1] as u32;
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a position met for the first time.
    #[inline(always)]
    fn push(&mut self, x: &[u64], o: &[u64], turn: u64) {
        self.entries.extend_from_slice(x);
        self.entries.extend_from_slice(o);
        self.entries.extend_from_slice(&[turn, 1]);
    }

    /// Puts every entry into the table, made at least 1 024 slots and
    /// twice as many as the entries, in a new generation.
    #[cold]
    #[inline(never)]
    fn index<const W: usize>(&mut self) {
        let stride = 2 * W + 2;
        let number = self.entries.len() / stride;
        let size = (4 * number).next_power_of_two().max(1024);
        if self.slots.len() < size {
            self.slots = vec![(0, 0); size];
            self.generation = 0;
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.fill((0, 0));
            self.generation = 1;
        }
        let mask = self.slots.len() - 1;
        for (n, e) in self.entries.chunks_exact(stride).enumerate() {
            let mut i = hash(&e[..W], &e[W..2 * W], e[2 * W]) as usize & mask;
            while self.slots[i].0 == self.generation {
                i = (i + 1) & mask;
            }
            self.slots[i] = (self.generation, n as u32);
        }
    }
}

/// Below this many positions a scan finds them with no filter.
const FILTERED: usize = 4;

/// Up to this many positions are found by a scan; beyond, by the table.
const SCANNED: usize = 24;

/// A quick hash for the scan's filter: the words folded by xor, one
/// multiply.
#[inline(always)]
fn mark(x: &[u64], o: &[u64], turn: u64) -> u64 {
    let folded = x
        .iter()
        .zip(o)
        .fold(turn, |h, (&x, &o)| h ^ x ^ o.rotate_left(29));
    folded.wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A position's hash: every word mixed in turn.
#[inline(always)]
fn hash(x: &[u64], o: &[u64], turn: u64) -> u64 {
    const M: u64 = 0xff51_afd7_ed55_8ccd;
    let mut h = 0x9e37_79b9_7f4a_7c15 ^ turn;
    for &w in x.iter().chain(o) {
        h = (h ^ w).wrapping_mul(M);
        h ^= h >> 29;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    /// Counts are per position, survive the table's growth, and start
    /// again after `clear`.
    #[test]
    fn counts_each_position_exactly() {
        let mut seen = Seen::default();
        seen.clear();
        let at = |x: u16, o: u16| [Bits::<2>::single(Cell(x)), Bits::<2>::single(Cell(o))];
        // Enough positions to grow the table twice.
        for round in 1..=3 {
            for x in 0..40 {
                for o in 64..100 {
                    assert_eq!(seen.count(&at(x, o), Side::X), round);
                }
            }
        }
        assert_eq!(seen.count(&at(0, 64), Side::O), 1);
        seen.clear();
        assert_eq!(seen.count(&at(0, 64), Side::X), 1);
    }
}
