//! Captures on the kept board (pente's pairs): taking the marks a placed
//! mark captures and putting them back on undo, finding where a side
//! captures from the marks it would take, and what captures add to the
//! threats, the move order and the wins the search asks about.

use super::{Board, WEIGHT};
use crate::position::Side;

impl Board<'_> {
    /// Takes off the board the opponent's marks that `side`'s mark on `c`
    /// captures, in every pattern at once, as the rules do.
    #[inline(never)]
    pub(super) fn capture<const WEIGHTS: bool>(&mut self, c: usize, side: Side) {
        let shape = self.shape;
        let (own, theirs) = (1 + side as u8, 1 + side.other() as u8);
        let from = self.taken.len() as u32;
        let mut made = 0u16;
        for p in &shape.captures[c] {
            let whole = p.take.iter().all(|&t| self.stone[t as usize] == theirs);
            if whole && self.stone[p.by as usize] == own {
                for &t in &p.take {
                    self.lift::<WEIGHTS>(t as usize, side.other());
                    self.taken.push(t);
                }
                made += p.worth;
            }
        }
        if made > 0 {
            self.hash ^= self.caught_key(side);
            self.caught[side as usize] += made;
            self.hash ^= self.caught_key(side);
        }
        self.taken_at.push((from, made));
    }

    /// Puts back the marks the last move of `side` captured.
    #[inline(never)]
    pub(super) fn uncapture<const WEIGHTS: bool>(&mut self, side: Side) {
        let Some((from, made)) = self.taken_at.pop() else {
            return;
        };
        for i in from as usize..self.taken.len() {
            let t = self.taken[i] as usize;
            self.put::<WEIGHTS>(t, side.other());
            self.empty -= 1;
        }
        self.taken.truncate(from as usize);
        if made > 0 {
            self.hash ^= self.caught_key(side);
            self.caught[side as usize] -= made;
            self.hash ^= self.caught_key(side);
        }
    }

    /// Whether `side` has a cell where it makes the captures that win.
    #[inline(never)]
    pub(super) fn has_capture_win(&self, side: Side) -> bool {
        self.capturing(side).any(|c| self.wins_by_captures(side, c))
    }

    /// The open cells where a mark of `side` captures at least once, some
    /// more than once: found from the marks it could take, far fewer than
    /// the open cells.
    pub(super) fn capturing(&self, side: Side) -> impl Iterator<Item = usize> + '_ {
        let own = 1 + side as u8;
        self.flanks(side, own).map(|(c, _)| c)
    }

    /// The patterns in which `side` could take marks of the opponent's
    /// that are all on the board, their capturing cell open and their
    /// `by` cell holding `by` (an own mark: a capture now; empty: one a
    /// mark there makes possible), as (the capturing cell, the `by` cell):
    /// found from the opponent's marks, not from every cell.
    fn flanks(&self, side: Side, by: u8) -> impl Iterator<Item = (usize, usize)> + '_ {
        let theirs = 1 + side.other() as u8;
        let firsts = self.stones[side.other() as usize]
            .iter()
            .flat_map(move |&t| &self.shape.taken_first[t as usize]);
        firsts.filter_map(move |&(c, i)| {
            let p = &self.shape.captures[c as usize][i as usize];
            let whole = self.stone[c as usize] == 0
                && self.stone[p.by as usize] == by
                && p.take.iter().all(|&t| self.stone[t as usize] == theirs);
            whole.then_some((c as usize, p.by as usize))
        })
    }

    /// Adds to `out`, up to `most`, the cells where `side` makes the
    /// captures that win.
    #[inline(never)]
    pub(super) fn capture_wins(&self, side: Side, most: usize, out: &mut Vec<usize>) {
        for c in self.capturing(side) {
            if out.len() >= most {
                break;
            }
            if !out.contains(&c) && self.wins_by_captures(side, c) {
                out.push(c);
            }
        }
    }

    /// Whether `side` is close enough to the captures that win to look for
    /// a move that makes them: two captures short or nearer. A move that
    /// makes three captures at once is rare enough not to look for on every
    /// node (the look reads each of the opponent's marks' patterns).
    #[inline]
    pub(in crate::search::rows) fn near_capture_win(&self, side: Side) -> bool {
        let two = 2 * self.shape.most_worth;
        self.shape
            .capture_wins
            .is_some_and(|n| self.caught[side as usize] + two >= n)
    }

    /// Whether `side`'s mark on the open cell `c` makes the captures that win.
    pub(super) fn wins_by_captures(&self, side: Side, c: usize) -> bool {
        self.shape.capture_wins.is_some_and(|n| {
            let made = self.captures_at(side, c);
            made > 0 && self.caught[side as usize] + made >= n
        })
    }

    /// What the captures `side`'s mark on the open cell `c` would make
    /// add to its count, the patterns taken in order as the rules take them (a mark taken by one
    /// is not there for the next; past a cell's 64th pattern that is not
    /// checked — no built-in cell has more than eight).
    pub(in crate::search::rows) fn captures_at(&self, side: Side, c: usize) -> u16 {
        let Some(patterns) = self.shape.captures.get(c) else {
            return 0;
        };
        let (own, theirs) = (1 + side as u8, 1 + side.other() as u8);
        let mut made = 0;
        // The patterns taken so far, as bits: most cells take none, and
        // this is on every cell's move ordering.
        let mut taken = 0u64;
        for (i, p) in patterns.iter().enumerate() {
            if self.stone[p.take[0] as usize] != theirs || self.stone[p.by as usize] != own {
                continue;
            }
            let gone = |t: &u16| {
                let mut bits = taken;
                std::iter::from_fn(|| {
                    (bits != 0).then(|| {
                        let j = bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        j
                    })
                })
                .any(|j| patterns[j].take.contains(t))
            };
            if p.take
                .iter()
                .all(|t| self.stone[*t as usize] == theirs && !gone(t))
            {
                made += p.worth;
                if i < 64 {
                    taken |= 1 << i;
                }
            }
        }
        made
    }

    /// Where marks capture and `side` is near the captures that win
    /// (see [`Board::wins`]): the cells after which it could make them
    /// next move, by flanking marks it could then take — threats that
    /// force an answer as a four does, and so answers to a three. Each is
    /// tried.
    #[inline(never)]
    pub(in crate::search::rows) fn capture_threats(&mut self, side: Side) -> Vec<usize> {
        if self.shape.captures.is_empty() || !self.near_capture_win(side) {
            return Vec::new();
        }
        // A mark makes a capture possible where it flanks: the empty `by`
        // cell of a pattern whose taken marks are all there.
        let mut cells: Vec<usize> = self.flanks(side, 0).map(|(_, by)| by).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
            .into_iter()
            .filter(|&c| {
                self.play_at_horizon(c);
                let threat = self.has_win(side);
                self.undo_at_horizon(c);
                threat
            })
            .collect()
    }

    /// The open cells where `side`'s mark captures: where a mark may
    /// answer a line by taking part of it.
    pub(in crate::search::rows) fn capture_cells(&self, side: Side) -> Vec<usize> {
        if self.shape.captures.is_empty() {
            return Vec::new();
        }
        let mut cells: Vec<usize> = self.capturing(side).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// Adds to each of `scored`'s [`Board::order`] what captures do there:
    /// a capture ranks with a three made, a cell the opponent would
    /// capture from a little below. The captures are found from the marks
    /// they take, once for the list, not cell by cell.
    #[inline]
    pub(in crate::search::rows) fn capture_order(&self, scored: &mut [(i64, usize)]) {
        if !self.shape.captures.is_empty() {
            self.add_capture_order(scored);
        }
    }

    /// [`Board::capture_order`] where marks capture.
    #[inline(never)]
    pub(super) fn add_capture_order(&self, scored: &mut [(i64, usize)]) {
        let three = i64::from(WEIGHT[(self.shape.k - 2).min(7)]);
        let sides = [(self.turn, 11 * three), (self.turn.other(), 10 * three)];
        for (side, worth) in sides {
            for c in self.capturing(side) {
                if let Some(s) = scored.iter_mut().find(|(_, d)| *d == c) {
                    s.0 += worth;
                }
            }
        }
    }
}
