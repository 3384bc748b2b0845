//! What the threat sequences have settled of the positions they reached:
//! that the attacker wins within so many of its moves, with which first
//! move, or that it does not. A sequence of threats reaches the same
//! position by many orders of the same moves; each is searched once.

use crate::position::Side;

/// One position's settled answers. Depths are kept one up, so that 0
/// says "nothing known" and a depth of 0 (a forced answer's last move)
/// is kept too.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// No win within one less than this many attacker moves.
    fails: u8,
    /// A win within one less than this many, its first move and the plies
    /// to it against the longest defence that search considered.
    wins: u8,
    cell: u16,
    plies: u16,
}

/// Which threat sequences an answer is of: each kind keeps its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Continuous fours (VCF).
    Fours,
    /// Fours and threes (VCT).
    Threes,
    /// Turns of two marks, each leaving the defender's whole turn forced
    /// (connect6's double threats).
    Turns,
}

/// A table of `2^bits` positions, the last answer kept; made at its
/// first answer (a search that runs no threat sequence makes none).
pub(super) struct Proofs {
    slots: Vec<Slot>,
    bits: u32,
    /// Per attacker, and per kind of sequence: what sets their keys apart.
    salt: [[u64; 3]; 2],
}

impl Proofs {
    pub(super) fn new(bits: u32) -> Proofs {
        Proofs {
            slots: Vec::new(),
            bits,
            salt: [
                [
                    0x2545_f491_4f6c_dd1d,
                    0x9e37_79b9_7f4a_7c15,
                    0xd6e8_feb8_6659_fd93,
                ],
                [
                    0xbf58_476d_1ce4_e5b9,
                    0x94d0_49bb_1331_11eb,
                    0xa076_1d64_78bd_642f,
                ],
            ],
        }
    }

    fn key(&self, hash: u64, att: Side, kind: Kind) -> u64 {
        hash ^ self.salt[att as usize][kind as usize]
    }

    fn slot(&self, key: u64) -> usize {
        key as usize & (self.slots.len().max(1) - 1)
    }

    /// What is settled of the position `hash` for `att` within `depth`
    /// attacker moves: `Some(Some(win))`, `Some(None)` for no win, `None`
    /// where nothing is. A win kept from a search of fewer moves is given
    /// for more: still a win, though a search of more might have found
    /// another first move.
    pub(super) fn get(
        &self,
        hash: u64,
        att: Side,
        kind: Kind,
        depth: u32,
    ) -> Option<Option<(usize, u32)>> {
        let key = self.key(hash, att, kind);
        let s = *self.slots.get(self.slot(key))?;
        let up = depth.saturating_add(1);
        if s.key != key {
            None
        } else if s.wins != 0 && u32::from(s.wins) <= up {
            // A win within fewer moves is a win within more.
            Some(Some((usize::from(s.cell), u32::from(s.plies))))
        } else if u32::from(s.fails) >= up {
            Some(None)
        } else {
            None
        }
    }

    /// Keeps what `attack` found at `hash` within `depth` moves.
    pub(super) fn put(
        &mut self,
        hash: u64,
        att: Side,
        kind: Kind,
        depth: u32,
        found: Option<(usize, u32)>,
    ) {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); 1 << self.bits];
        }
        let key = self.key(hash, att, kind);
        let at = self.slot(key);
        let slot = &mut self.slots[at];
        if slot.key != key {
            *slot = Slot {
                key,
                ..Slot::default()
            };
        }
        let up = depth.saturating_add(1).min(u32::from(u8::MAX)) as u8;
        match found {
            Some((cell, plies)) if slot.wins == 0 || up < slot.wins => {
                slot.wins = up;
                slot.cell = cell as u16;
                slot.plies = plies.min(u32::from(u16::MAX)) as u16;
            }
            Some(_) => {}
            None => slot.fails = slot.fails.max(up),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_holds_for_more_moves_and_a_failure_for_fewer_and_sides_are_apart() {
        let mut p = Proofs::new(8);
        p.put(77, Side::X, Kind::Threes, 3, Some((12, 5)));
        assert_eq!(p.get(77, Side::X, Kind::Threes, 3), Some(Some((12, 5))));
        assert_eq!(p.get(77, Side::X, Kind::Threes, 6), Some(Some((12, 5))));
        assert_eq!(p.get(77, Side::X, Kind::Threes, 2), None);
        assert_eq!(
            p.get(77, Side::O, Kind::Threes, 3),
            None,
            "the other attacker"
        );
        assert_eq!(p.get(77, Side::X, Kind::Fours, 3), None, "fours only");
        assert_eq!(p.get(77, Side::X, Kind::Turns, 3), None, "forcing turns");
        p.put(99, Side::O, Kind::Fours, 4, None);
        assert_eq!(p.get(99, Side::O, Kind::Fours, 4), Some(None));
        assert_eq!(p.get(99, Side::O, Kind::Fours, 1), Some(None));
        assert_eq!(p.get(99, Side::O, Kind::Fours, 5), None);
        // A depth of 0 is a depth: a win there holds, and a failure there
        // says nothing of one more move.
        p.put(5, Side::X, Kind::Fours, 0, Some((3, 2)));
        assert_eq!(p.get(5, Side::X, Kind::Fours, 0), Some(Some((3, 2))));
        p.put(6, Side::X, Kind::Fours, 0, None);
        assert_eq!(p.get(6, Side::X, Kind::Fours, 0), Some(None));
        assert_eq!(p.get(6, Side::X, Kind::Fours, 1), None);
        assert_eq!(
            Proofs::new(8).get(6, Side::X, Kind::Fours, 0),
            None,
            "nothing kept"
        );
    }
}
