//! The transposition table of the row search: what a position was worth
//! at which depth, and its best move, by its key.

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
    key: u64,
    pub(super) value: i32,
    pub(super) depth: i16,
    pub(super) bound: Bound,
    /// The best move's cell, or `u16::MAX`.
    pub(super) best: u16,
}

const EMPTY: Entry = Entry {
    key: 0,
    value: 0,
    depth: -1,
    bound: Bound::Upper,
    best: u16::MAX,
};

/// A table of `2^bits` entries, replaced by depth.
pub(super) struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        Table {
            entries: vec![EMPTY; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    pub(super) fn get(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    pub(super) fn put(&mut self, key: u64, value: i32, depth: i16, bound: Bound, best: u16) {
        let slot = &mut self.entries[key as usize & self.mask];
        // A deeper answer for another position stays, unless it is stale
        // (the same key is always refreshed).
        if slot.key == key || depth >= slot.depth {
            *slot = Entry {
                key,
                value,
                depth,
                bound,
                best,
            };
        }
    }
}
