//! Conformance suite; the tests live in the test targets. This library holds
//! the helpers more than one of them uses.

pub mod by_hand;

use gridrules_core::{Move, MoveList, Position, Rulebook};
use std::collections::HashSet;

/// The eight lines of a 3×3 board, its cells numbered 0 to 8 row by row:
/// three rows, three columns, two diagonals.
pub const LINES_3X3: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The moves `rules` lists in `pos`.
pub fn legal(rules: &Rulebook, pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    rules.legal_moves(pos, &[], &mut list).expect("legal_moves");
    list.to_vec()
}

/// Every position reachable from the initial one.
pub fn reachable(rules: &Rulebook) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut all = vec![rules.initial()];
    seen.insert(all[0].key());
    let mut i = 0;
    while i < all.len() {
        let pos = all[i];
        i += 1;
        if pos.is_over() {
            continue;
        }
        for mv in legal(rules, &pos) {
            let next = rules.play_unchecked(&pos, &[], mv).unwrap();
            if seen.insert(next.key()) {
                all.push(next);
            }
        }
    }
    all
}
