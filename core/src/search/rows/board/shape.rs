//! What a rulebook's board is to the row search, built once for a
//! search: its windows of `k` cells and the cells past their ends, the
//! windows through each cell and the cells near it, the captures a mark
//! may make, the keys of the transposition table, the order by shapes.

use super::order::ShapeOrder;
use crate::mechanics::{LineEnds, Mechanics};
use crate::position::Side;
use crate::rulebook::Rulebook;
use crate::turns::Turns;

/// No cell: past the end of a line.
pub(super) const NONE: u16 = u16::MAX;
/// Captures counted apart in the table's key: more share one key.
pub(super) const CAUGHT_KEYS: usize = 64;

/// A capture a mark may make: the opponent's marks on `take` leave the
/// board when `by` holds the mover's own.
pub(super) struct Pattern {
    pub(super) take: Vec<u16>,
    pub(super) by: u16,
    /// What it adds to the mover's count (1, or the stones it takes).
    pub(super) worth: u16,
}

/// The tables a rulebook's board gives, built once for a search.
pub(in crate::search::rows) struct Shape<'r> {
    pub(in crate::search::rows) k: usize,
    pub(super) n: usize,
    /// The rulebook's mechanics: what judges a forbidden pattern.
    pub(super) mechanics: &'r Mechanics,
    /// Per side, whether it wins only with exactly `k` in a row (renju's
    /// X): a window of its marks then wins only where no mark of its own
    /// lies just past either end.
    pub(super) exact: [bool; 2],
    /// Per side, whether some of its moves may be forbidden by what they
    /// make (renju's X): each of its moves is then judged.
    pub(super) forbids: [bool; 2],
    /// Per cell, the captures a mark placed there may make (pente's
    /// pairs); empty where the rulebook has none.
    pub(super) captures: Vec<Vec<Pattern>>,
    /// Per cell, the captures whose first taken cell it is, as (the cell
    /// a mark captures from, the pattern's index there): where to look
    /// for captures from the marks that could be taken.
    pub(super) taken_first: Vec<Vec<(u16, u16)>>,
    /// The captures that win, if any.
    pub(super) capture_wins: Option<u16>,
    /// The fewest and the most one capture adds to a side's count.
    pub(super) per_capture: u16,
    pub(super) most_worth: u16,
    /// Marks per turn (connect6: one, then two).
    pub(super) turns: &'r Turns,
    /// One mark a turn, the sides alternating.
    pub(super) alternating: bool,
    /// The windows' cells, `k` a window.
    pub(super) windows: Vec<u16>,
    /// Each window's cells just past its two ends along its line, or
    /// [`NONE`].
    pub(super) beyond: Vec<[u16; 2]>,
    /// What lies beyond a run's ends decides whether it wins
    /// (`line_ends()`, Caro's "not both blocked").
    pub(super) ends: LineEnds,
    /// Where `ends` counts, each window's line (its number in the
    /// rulebook's lines) and the window's first place in it: the run a
    /// filled window is part of is read along it. Empty otherwise.
    pub(super) placed: Vec<(u32, u32)>,
    /// Per side, whether a filled window's win is judged beyond it at all
    /// (`exact`, or `ends` not "any").
    pub(super) judged: [bool; 2],
    /// The windows through each cell: `through[through_at[c]..through_at[c + 1]]`.
    pub(super) through: Vec<u32>,
    pub(super) through_at: Vec<u32>,
    /// The cells two or fewer steps from each cell along a line.
    pub(super) near: Vec<u16>,
    pub(super) near_at: Vec<u32>,
    /// A random key per cell and side, for the transposition table, and
    /// per count of captures and side.
    pub(super) keys: [Vec<u64>; 2],
    pub(super) caught_keys: [Vec<u64>; 2],
    /// The move order by shapes, where the rulebook has one (one mark a
    /// turn, no captures, lines of four to six).
    pub(super) order: Option<ShapeOrder>,
    /// How near the centre a cell is: what breaks a tie of weights.
    pub(in crate::search::rows) centre: Vec<i64>,
    /// One more than any `centre`: a unit of weight counts this much.
    pub(in crate::search::rows) centre_scale: i64,
}

impl<'r> Shape<'r> {
    /// The tables of `rules`' lines for lines of `k`, from the game's start.
    #[cfg(test)]
    pub(in crate::search::rows) fn new(rules: &'r Rulebook) -> Shape<'r> {
        Shape::from_move(rules, 0)
    }

    /// The shape for a search from the game's move `played` (from 0):
    /// where every turn from there on is one own mark (past the swap
    /// opening of five in a row), the search reads the turns as alternating.
    pub(in crate::search::rows) fn from_move(rules: &'r Rulebook, played: u32) -> Shape<'r> {
        static ALTERNATING: std::sync::LazyLock<Turns> = std::sync::LazyLock::new(Turns::default);
        let mechanics = rules.mechanics();
        let k = mechanics.min_run();
        let n = rules.grid().len();
        let lines = mechanics.lines();
        let mut windows: Vec<u16> = Vec::new();
        let mut beyond: Vec<[u16; 2]> = Vec::new();
        let ends = mechanics.line_ends();
        let mut placed = Vec::new();
        for (l, line) in lines.iter().enumerate() {
            let at = |i: Option<usize>| i.and_then(|i| line.get(i)).map_or(NONE, |c| c.0);
            for (i, w) in line.windows(k).enumerate() {
                windows.extend(w.iter().map(|c| c.0));
                beyond.push([at(i.checked_sub(1)), at(Some(i + k))]);
                if ends != LineEnds::Any {
                    placed.push((l as u32, i as u32));
                }
            }
        }
        let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
        let sides = [Side::X, Side::O];
        let exact = sides.map(|s| (k + 1..=longest).all(|n| !mechanics.wins_run(s, n)));
        let forbids = sides.map(|s| mechanics.has_patterns(s));
        let mut by_cell: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (w, cells) in windows.chunks(k).enumerate() {
            for &c in cells {
                by_cell[c as usize].push(w as u32);
            }
        }
        let mut near_by: Vec<Vec<u16>> = vec![Vec::new(); n];
        for line in lines {
            for (i, c) in line.iter().enumerate() {
                let reach = &line[i.saturating_sub(2)..(i + 3).min(line.len())];
                for d in reach {
                    if d != c && !near_by[c.index()].contains(&d.0) {
                        near_by[c.index()].push(d.0);
                    }
                }
            }
        }
        let (through, through_at) = flatten(by_cell);
        let (near, near_at) = flatten(near_by);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut key = || {
            // splitmix64: fixed keys, so a search repeats on every machine.
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let keys = [
            (0..n).map(|_| key()).collect(),
            (0..n).map(|_| key()).collect(),
        ];
        let caught_keys = [
            (0..CAUGHT_KEYS).map(|_| key()).collect(),
            (0..CAUGHT_KEYS).map(|_| key()).collect(),
        ];
        let captures = (mechanics.captures.per_cell.iter())
            .map(|list| {
                list.iter()
                    .map(|p| Pattern {
                        take: p.take.into_iter().map(|c| c.0).collect(),
                        by: p.by.0,
                        worth: p.worth,
                    })
                    .collect()
            })
            .collect::<Vec<Vec<Pattern>>>();
        let most_worth = (captures.iter().flatten().map(|p| p.worth).max()).unwrap_or(1);
        let mut taken_first = vec![Vec::new(); if captures.is_empty() { 0 } else { n }];
        for (c, patterns) in captures.iter().enumerate() {
            for (i, p) in patterns.iter().enumerate() {
                taken_first[p.take[0] as usize].push((c as u16, i as u16));
            }
        }
        let (centre, centre_scale) = crate::search::threats::centre_nearness(rules);
        let turns = if mechanics.turns().alternates_from(played) {
            &*ALTERNATING
        } else {
            mechanics.turns()
        };
        let alternating = turns.is_alternating();
        // Two marks a turn and captures change what a shape is worth; the
        // fit knew neither.
        let by_shapes = alternating && captures.is_empty();
        let order = by_shapes
            .then(|| ShapeOrder::new(mechanics, k, n))
            .flatten();
        Shape {
            k,
            n,
            mechanics,
            exact,
            forbids,
            captures,
            taken_first,
            capture_wins: mechanics.capture_wins(),
            per_capture: mechanics.captures().per_capture(),
            most_worth,
            turns,
            alternating,
            windows,
            beyond,
            ends,
            placed,
            judged: exact.map(|e| e || ends != LineEnds::Any),
            through,
            through_at,
            near,
            near_at,
            keys,
            caught_keys,
            order,
            centre,
            centre_scale,
        }
    }

    pub(super) fn window(&self, w: usize) -> &[u16] {
        &self.windows[w * self.k..(w + 1) * self.k]
    }

    pub(super) fn through(&self, c: usize) -> &[u32] {
        &self.through[self.through_at[c] as usize..self.through_at[c + 1] as usize]
    }

    pub(super) fn near(&self, c: usize) -> &[u16] {
        &self.near[self.near_at[c] as usize..self.near_at[c + 1] as usize]
    }

    pub(super) fn window_count(&self) -> usize {
        self.windows.len() / self.k
    }

    /// Whether each turn is one mark, the sides alternating.
    pub(in crate::search::rows) fn alternating(&self) -> bool {
        self.alternating
    }

    /// Whether some of `side`'s moves may be forbidden by what they make.
    pub(in crate::search::rows) fn forbids(&self, side: Side) -> bool {
        self.forbids[side as usize]
    }

    /// Whether a mark may take the opponent's off the board.
    pub(in crate::search::rows) fn captures(&self) -> bool {
        !self.captures.is_empty()
    }
}

fn flatten<T: Copy>(lists: Vec<Vec<T>>) -> (Vec<T>, Vec<u32>) {
    let mut flat = Vec::new();
    let mut at = vec![0u32];
    for list in lists {
        flat.extend(list);
        at.push(flat.len() as u32);
    }
    (flat, at)
}
