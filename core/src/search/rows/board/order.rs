//! The move order by shapes: what a mark on a cell makes along each line
//! through it — a line, an open or a closed four, an open or a closed
//! three, two or one, or nothing that can still become a line — for the
//! mover and for the opponent, each kind worth what a fit to a strong
//! program's choices gave it (see [`MOVER`]).
//!
//! Each cell keeps, per line through it and per side, its `k - 1`
//! neighbours either way as a number in base 3 (empty, the side's own,
//! blocked), brought up to date as marks come and go; a table built once
//! for the rulebook's `k` and its rule for a line reads the kind off it.

use crate::mechanics::Mechanics;
use crate::position::Side;

/// What a mark makes along one line, weakest first: nothing, a closed
/// (one way to a line) or open one, two, three, four, then the line.
const KINDS: usize = 10;
const LINE: u8 = 9;
/// From a kind to the kind one mark short of it: an open four comes from
/// an open three, a closed four from a closed three, and so on down.
const STEP: u8 = 2;

/// What each kind is worth to the mover's order where the mover makes it,
/// and where the opponent would (the cell's block), in hundredths.
/// Fitted (a softmax over the row search's candidate cells, held-out
/// games scored) to the moves of Rapfi 0.43's classical evaluation
/// playing itself at 60 ms a move on 20×20 from 800 random openings
/// (17 370 positions that are not a line to complete or to block; a fifth
/// of the games held out): it names the cell Rapfi chose first in 35 % of
/// the held-out positions, against 28 % for the windows' sums, and within
/// the first twelve (the search's width) in 90 % against 87 %. A line is
/// worth no fit (those positions are left out): it only has to come first.
/// A closed and an open one share a worth: fitted apart, a closed one came
/// out worth more (it stands by the opponent's marks, where play is), and
/// the search answered a first mark in the corner by the edge, where the
/// board closes every line (the pie rule's transcript PI1 pins the answer).
const MOVER: [i32; KINDS] = [0, 26, 26, 45, 139, 161, 339, 468, 1161, 5000];
const OPPONENT: [i32; KINDS] = [0, -14, -14, -10, 18, 50, 166, 295, 633, 4000];

/// The longest reach the tables are built for (lines of six): 3^10 codes.
const MOST_REACH: usize = 5;

/// The tables of one rulebook's board.
pub(in crate::search::rows) struct ShapeOrder {
    /// Per side, per code of a cell's neighbours along a line in that
    /// side's view: its worth where that side moves, and where it is the
    /// opponent.
    worth: [Vec<[i32; 2]>; 2],
    /// Per cell, its slots (a line through it): `slots_at[c]..slots_at[c + 1]`.
    slots_at: Vec<u32>,
    /// Per slot, its code before any mark: the line's ends as blocked.
    pub(super) start: Vec<u32>,
    /// Per cell, the slots that see it and where: `(slot, 3^place)`,
    /// `seen_at[c]..seen_at[c + 1]`.
    seen: Vec<(u32, u32)>,
    seen_at: Vec<u32>,
}

impl ShapeOrder {
    /// The tables for `mechanics`' lines and its rule for a line of `k`
    /// or more, where one fits (`k` from 4 to 6; for shorter lines the
    /// kinds say little, for longer the tables outgrow a cache).
    pub(super) fn new(mechanics: &Mechanics, k: usize, n: usize) -> Option<ShapeOrder> {
        if !(4..=MOST_REACH + 1).contains(&k) {
            return None;
        }
        let reach = k - 1;
        let worth = [Side::X, Side::O].map(|s| {
            kinds(reach, |run| mechanics.wins_run(s, run))
                .into_iter()
                .map(|kind| [MOVER[usize::from(kind)], OPPONENT[usize::from(kind)]])
                .collect()
        });
        let mut by_cell: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for (l, line) in mechanics.lines().iter().enumerate() {
            for (i, c) in line.iter().enumerate() {
                by_cell[c.index()].push((l, i));
            }
        }
        let mut slots_at = vec![0u32];
        let mut start = Vec::new();
        let mut seen_by: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for places in &by_cell {
            for &(l, i) in places {
                let slot = start.len() as u32;
                let line = &mechanics.lines()[l];
                let mut code = 0;
                for (place, offset) in offsets(reach).enumerate() {
                    let power = 3u32.pow(place as u32);
                    match i.checked_add_signed(offset).and_then(|j| line.get(j)) {
                        Some(m) => seen_by[m.index()].push((slot, power)),
                        None => code += 2 * power,
                    }
                }
                start.push(code);
            }
            slots_at.push(start.len() as u32);
        }
        let mut seen = Vec::new();
        let mut seen_at = vec![0u32];
        for list in seen_by {
            seen.extend(list);
            seen_at.push(seen.len() as u32);
        }
        Some(ShapeOrder {
            worth,
            slots_at,
            start,
            seen,
            seen_at,
        })
    }

    /// The slots that see cell `c`, and where.
    #[inline]
    pub(super) fn seen(&self, c: usize) -> &[(u32, u32)] {
        &self.seen[self.seen_at[c] as usize..self.seen_at[c + 1] as usize]
    }

    /// The worth of a mark of `me` on `c` by what it makes and blocks,
    /// from the codes the board keeps.
    #[inline]
    pub(super) fn order(&self, codes: &[[u32; 2]], c: usize, me: Side) -> i64 {
        let (i, o) = (me as usize, 1 - me as usize);
        let slots = &codes[self.slots_at[c] as usize..self.slots_at[c + 1] as usize];
        slots
            .iter()
            .map(|code| self.worth[i][code[i] as usize][0] + self.worth[o][code[o] as usize][1])
            .map(i64::from)
            .sum()
    }
}

/// The offsets of a cell's neighbours along a line, in place order: the
/// far end before it first.
fn offsets(reach: usize) -> impl Iterator<Item = isize> {
    let r = reach as isize;
    (-r..0).chain(1..=r)
}

/// The kind of each code of `2 * reach` neighbours (digits in base 3:
/// 0 empty, 1 own, 2 blocked), the cell between them holding an own mark
/// and `wins` saying which runs are a line.
fn kinds(reach: usize, wins: impl Fn(usize) -> bool) -> Vec<u8> {
    let places = 2 * reach;
    let codes = 3usize.pow(places as u32);
    let power: Vec<usize> = (0..places).map(|p| 3usize.pow(p as u32)).collect();
    // The table is built for every search (each move): each code is
    // decoded once, into an array, and its own marks counted from the
    // code a digit shorter.
    let digits = |code: usize| {
        let mut d = [0u8; 2 * MOST_REACH];
        for (p, x) in d.iter_mut().take(places).enumerate() {
            *x = (code / power[p] % 3) as u8;
        }
        d
    };
    // The run through the centre, `extra` (a place) counted as own too.
    let run = |d: &[u8], extra: Option<usize>| {
        let own = |p: usize| d[p] == 1 || Some(p) == extra;
        let before = (0..reach).rev().take_while(|&p| own(p)).count();
        let after = (reach..places).take_while(|&p| own(p)).count();
        before + 1 + after
    };
    let mut owns = vec![0u8; codes];
    for code in 1..codes {
        owns[code] = owns[code / 3] + u8::from(code % 3 == 1);
    }
    // Children (one own mark more) are judged before their parents.
    let mut order: Vec<usize> = (0..codes).collect();
    order.sort_by_key(|&code| std::cmp::Reverse(owns[code]));
    let mut kind = vec![0u8; codes];
    for code in order {
        let d = digits(code);
        if wins(run(&d, None)) {
            kind[code] = LINE;
            continue;
        }
        let empty = (0..places).filter(|&p| d[p] == 0);
        let lines = empty.clone().filter(|&p| wins(run(&d, Some(p)))).count();
        kind[code] = match lines {
            0 => empty
                .map(|p| kind[code + power[p]])
                .filter(|&k| k > STEP)
                .map(|k| k - STEP)
                .max()
                .unwrap_or(0),
            1 => LINE - 2,
            _ => LINE - 1,
        };
    }
    kind
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind of a line written left to right, `x` own, `o` blocked,
    /// `.` empty, `*` the cell itself.
    fn kind_of(table: &[u8], line: &str) -> u8 {
        let mut code = 0;
        let mut power = 1;
        for ch in line.chars().filter(|&ch| ch != '*') {
            code += power * ".xo".find(ch).unwrap();
            power *= 3;
        }
        table[code]
    }

    #[test]
    fn a_mark_makes_the_kind_its_line_allows() {
        let five = kinds(4, |run| run >= 5);
        for (line, kind) in [
            ("....*xxx.", LINE - 1),
            ("...o*xxx.", LINE - 2),
            ("..xx*xx..", LINE),
            ("....*xx..", LINE - 3),
            ("...x*x...", LINE - 3),
            ("...x*.x..", LINE - 3),
            ("o..x*....", LINE - 5),
            ("....*....", 2),
            ("oooo*oooo", 0),
            ("...o*....", 1),
            ("..o.*.o..", 0),
        ] {
            assert_eq!(kind_of(&five, line), kind, "{line}");
        }
        // Where a line of six does not win, four with a mark past its
        // end makes none.
        let exactly = kinds(4, |run| run == 5);
        assert_eq!(kind_of(&exactly, "..x.*xxx."), LINE - 2);
        assert_eq!(kind_of(&five, "..x.*xxx."), LINE - 1);
    }
}
