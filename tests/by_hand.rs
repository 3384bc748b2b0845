//! Random games written by hand for one game, on bit sets, with no rulebook
//! and no script: the yardstick for the playout kernel on games the shared
//! `bench-limit` loop does not play, and a second reading of their rules.
//!
//! Each loop draws exactly as the engine does (the same generator, the same
//! order of moves), so that one seed gives both the same games: the test
//! `invariants::the_kernel_plays_the_games_written_by_hand` holds them to
//! that, and `examples/limit.rs` times them side by side.

use gridrules_core::playout::Rng;
use gridrules_core::{Outcome, Side};

/// Nine men's morris as `RULES.md` states it (NM1–NM3), on the 24 points
/// numbered as the engine numbers their cells of the 7×7 grid.
#[derive(Debug, Clone)]
pub struct Morris {
    /// The points a piece on each point steps to.
    steps: [u32; 24],
    /// The 16 mills.
    mills: [u32; 16],
    /// Per point, a 1 in the two-bit lane of each mill through it: a side's
    /// mills are counted in one word, a move changing it by two adds.
    lanes: [u64; 24],
    /// Positions met since the last placement or removal, for NM3's
    /// repetition: a table of (generation, position, count), a slot of an
    /// older generation being empty.
    seen: Vec<(u32, u64, u32)>,
    generation: u32,
}

/// The 24 points as (column, row) of the 7×7 grid, row by row from a1.
const POINTS: [(u8, u8); 24] = [
    (0, 0),
    (3, 0),
    (6, 0),
    (1, 1),
    (3, 1),
    (5, 1),
    (2, 2),
    (3, 2),
    (4, 2),
    (0, 3),
    (1, 3),
    (2, 3),
    (4, 3),
    (5, 3),
    (6, 3),
    (2, 4),
    (3, 4),
    (4, 4),
    (1, 5),
    (3, 5),
    (5, 5),
    (0, 6),
    (3, 6),
    (6, 6),
];

/// Every point.
const ALL: u32 = (1 << 24) - 1;
/// The low bit of each mill's lane.
const LOW: u64 = 0x5555_5555;
/// Pieces each side places (NM1).
const PIECES: u32 = 9;
/// Moves after which the engine calls a game drawn (`playout::MAX_PLIES`).
const MAX_PLIES: u32 = 1000;

impl Default for Morris {
    fn default() -> Morris {
        Morris::new()
    }
}

impl Morris {
    /// The board: its mills are the points three by three along each row
    /// and column of the grid, its steps those between neighbours of a mill.
    pub fn new() -> Morris {
        let mut mills = Vec::new();
        for line in 0..7 {
            let row = (0..24).filter(|&p| POINTS[p].1 == line);
            let column = (0..24).filter(|&p| POINTS[p].0 == line);
            for points in [row.collect::<Vec<_>>(), column.collect()] {
                mills.extend(points.chunks(3).map(<[usize]>::to_vec));
            }
        }
        let mut board = Morris {
            steps: [0; 24],
            mills: [0; 16],
            lanes: [0; 24],
            seen: vec![(0, 0, 0); 4096],
            generation: 0,
        };
        assert_eq!(mills.len(), 16, "three rows and columns of three mills");
        for (i, mill) in mills.iter().enumerate() {
            for &p in mill {
                board.mills[i] |= 1 << p;
                board.lanes[p] |= 1 << (2 * i);
            }
            for pair in mill.windows(2) {
                board.steps[pair[0]] |= 1 << pair[1];
                board.steps[pair[1]] |= 1 << pair[0];
            }
        }
        board
    }

    /// The points of the mills whose lanes `lanes` holds (their low bits).
    fn points_of(&self, mut lanes: u64) -> u32 {
        let mut points = 0;
        while lanes != 0 {
            points |= self.mills[lanes.trailing_zeros() as usize / 2];
            lanes &= lanes - 1;
        }
        points
    }

    /// One random game from the start: its result and its length.
    pub fn play(&mut self, rng: &mut Rng) -> (Outcome, u32) {
        // The low bit of each lane that holds zero.
        let zero = |z: u64| !(z | z >> 1) & LOW;
        let mut on = [0u32; 2];
        let mut counts = [0u64; 2];
        let mut hand = [PIECES; 2];
        let mut s = 0;
        self.generation += 1;
        for ply in 0..MAX_PLIES {
            let (own, theirs) = (on[s], on[1 - s]);
            let free = ALL & !(own | theirs);
            // Mills the mover lacks one piece of, none of theirs in them;
            // with nothing to remove, a mill is no different a move.
            let short = if theirs == 0 {
                0
            } else {
                zero((counts[s] ^ (2 * LOW)) | counts[1 - s])
            };
            let near = self.points_of(short) & free;
            let completes =
                |from: usize, to: usize| self.lanes[to] & short & !self.lanes[from] != 0;
            let placing = hand[s] > 0;
            let flying = !placing && own.count_ones() <= 3;
            let reach = |from: usize| {
                if flying {
                    free
                } else {
                    self.steps[from] & free
                }
            };
            // Each move, and how many of them make a mill.
            let (n, mills) = if placing {
                (free.count_ones(), near.count_ones())
            } else {
                let n = if flying {
                    own.count_ones() * free.count_ones()
                } else {
                    ones(own).map(|from| reach(from).count_ones()).sum()
                };
                // The moves that make a mill end where one is in reach.
                let mut mills = 0;
                for to in ones(near) {
                    let from = if flying { own } else { self.steps[to] & own };
                    mills += ones(from).filter(|&from| completes(from, to)).count() as u32;
                }
                (n, mills)
            };
            // NM2: a piece outside their mills, or any where all are in one.
            let removable = if mills == 0 {
                0
            } else {
                match theirs & !self.points_of(zero(counts[1 - s] ^ (3 * LOW))) {
                    0 => theirs,
                    outside => outside,
                }
            };
            let r = removable.count_ones();
            let plain = n - mills;
            let total = plain + mills * r;
            if total == 0 {
                // NM3: no legal move loses.
                return (Outcome::Win(side(1 - s)), ply);
            }
            // The engine's order: the moves that make no mill, then each
            // that makes one once for each piece it may remove.
            let i = rng.below(total as usize) as u32;
            let milled = i >= plain;
            let k = if milled { (i - plain) / r } else { i };
            let (from, to) = if placing {
                let cells = if milled { near } else { free & !near };
                (None, nth(cells, k))
            } else {
                let (mut k, mut found) = (k, None);
                'pieces: for from in ones(own) {
                    let to = reach(from);
                    if !milled && to & near == 0 {
                        // None of this piece's moves makes a mill: skipped
                        // by their count.
                        if k < to.count_ones() {
                            found = Some((from, nth(to, k)));
                            break;
                        }
                        k -= to.count_ones();
                        continue;
                    }
                    for to in ones(to) {
                        if (near & 1 << to != 0 && completes(from, to)) == milled {
                            if k == 0 {
                                found = Some((from, to));
                                break 'pieces;
                            }
                            k -= 1;
                        }
                    }
                }
                let (from, to) = found.expect("k is below the count");
                (Some(from), to)
            };
            on[s] |= 1 << to;
            counts[s] += self.lanes[to];
            match from {
                None => hand[s] -= 1,
                Some(from) => {
                    on[s] &= !(1 << from);
                    counts[s] -= self.lanes[from];
                }
            }
            if milled {
                let take = nth(removable, (i - plain) % r);
                on[1 - s] &= !(1 << take);
                counts[1 - s] -= self.lanes[take];
                // NM3: two pieces left, on the board and in hand, lose.
                if on[1 - s].count_ones() + hand[1 - s] <= 2 {
                    return (Outcome::Win(side(s)), ply + 1);
                }
            }
            s = 1 - s;
            if placing || milled {
                // No position before a placement or a removal comes back.
                self.generation += 1;
            }
            let key = u64::from(on[0]) | u64::from(on[1]) << 24 | (s as u64) << 48;
            if self.count(key) >= 3 {
                return (Outcome::Draw, ply + 1);
            }
        }
        (Outcome::Draw, MAX_PLIES)
    }

    /// Counts one more occurrence of `key` and says how many there are.
    fn count(&mut self, key: u64) -> u32 {
        let mask = self.seen.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
        loop {
            let slot = &mut self.seen[i];
            if slot.0 != self.generation {
                *slot = (self.generation, key, 1);
                return 1;
            }
            if slot.1 == key {
                slot.2 += 1;
                return slot.2;
            }
            i = (i + 1) & mask;
        }
    }
}

/// The side of number `s` (X is 0).
fn side(s: usize) -> Side {
    if s == 0 { Side::X } else { Side::O }
}

/// The points of `set`, lowest first.
fn ones(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let p = set.trailing_zeros();
        set &= set.wrapping_sub(1);
        (p < 32).then_some(p as usize)
    })
}

/// The `k`-th point of `set`, lowest first.
fn nth(set: u32, k: u32) -> usize {
    ones(set).nth(k as usize).expect("k is below the count")
}
