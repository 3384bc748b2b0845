//! The transposition table of the row search: what a position was worth
//! at which depth, and its best move, by its key. Shared by the threads
//! of one search (Lazy SMP), without locks: an entry is its data and its
//! key XOR its data, so a pair torn by two writers reads as another key's
//! and is not used.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored value says of the true one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (every move failed low).
    Upper,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) value: i32,
    pub(super) depth: i16,
    pub(super) bound: Bound,
    /// The best move's cell, or `u16::MAX`.
    pub(super) best: u16,
}

impl Entry {
    /// The entry in 64 bits: the value, the depth offset so that 0 is an
    /// empty slot, the bound and the best cell.
    fn pack(self) -> u64 {
        let depth = (i32::from(self.depth) + 128).clamp(1, 255) as u64;
        let bound = match self.bound {
            Bound::Exact => 0,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.value as u32) | depth << 32 | bound << 40 | u64::from(self.best) << 48
    }

    /// The entry packed in `data`, if the slot holds one.
    fn unpack(data: u64) -> Option<Entry> {
        let depth = (data >> 32) as u8;
        (depth != 0).then(|| Entry {
            value: data as u32 as i32,
            depth: i16::from(depth) - 128,
            bound: match (data >> 40) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            best: (data >> 48) as u16,
        })
    }
}

/// A table of `2^bits` entries, replaced by depth.
pub(super) struct Table {
    /// Per slot, the key XOR the data, and the data.
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            mask: (1 << bits) - 1,
        }
    }

    /// The slot of `key`, its key and its entry as they read now.
    fn read(&self, key: u64) -> (&[AtomicU64; 2], u64, Option<Entry>) {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let held = slot[0].load(Ordering::Relaxed) ^ data;
        (slot, held, Entry::unpack(data))
    }

    /// The entry of `key`, if it holds one searched to a depth of 0 or
    /// more (those below the horizon are kept, but not used).
    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        match self.read(key) {
            (_, held, entry) if held == key => entry.filter(|e| e.depth >= 0),
            _ => None,
        }
    }

    pub(super) fn put(&self, key: u64, value: i32, depth: i16, bound: Bound, best: u16) {
        let (slot, held, old) = self.read(key);
        // A deeper answer for another position stays, unless it is stale
        // (the same key is always refreshed).
        if held == key || depth >= old.map_or(-1, |e| e.depth) {
            let data = Entry {
                value,
                depth,
                bound,
                best,
            }
            .pack();
            slot[0].store(key ^ data, Ordering::Relaxed);
            slot[1].store(data, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_it_was_put_and_only_under_its_key() {
        let t = Table::new(4);
        for (key, value, depth, bound, best) in [
            (
                0x1234_5678_9abc_def0u64,
                -99_999,
                61,
                Bound::Upper,
                u16::MAX,
            ),
            (0x0fed_cba9_8765_4321, 1_000_000, 60, Bound::Lower, 0),
            (7, 0, 0, Bound::Exact, 224),
        ] {
            t.put(key, value, depth, bound, best);
            let e = t.get(key).expect("just put");
            assert_eq!(
                (e.value, e.depth, e.bound, e.best),
                (value, depth, bound, best)
            );
            assert!(t.get(key ^ 1 << 40).is_none(), "another key, the same slot");
        }
        assert!(Table::new(4).get(0).is_none(), "an empty slot is no entry");
        // Below the horizon an entry is kept but not given.
        t.put(99, 5, -3, Bound::Exact, 1);
        assert!(t.get(99).is_none());
    }
}
