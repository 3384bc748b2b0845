//! What the manager says with `INFO`, and the time it leaves for a move.

use super::DEFAULT_TURN;
use std::time::Duration;

/// What the manager told the brain with `INFO`, times in milliseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Info {
    /// Time for one move; 0: as fast as possible.
    pub timeout_turn: Option<u64>,
    /// Time for the whole match; 0: no limit.
    pub timeout_match: Option<u64>,
    /// Time left of the match.
    pub time_left: Option<u64>,
    /// The rule bits (1 exactly five, 2 continuous game, 4 renju, 8 caro).
    pub rule: u32,
    /// The most nodes a move's search may visit (`INFO max_node`, as
    /// Rapfi reads it; 0: no limit): a match that repeats on any machine.
    pub max_node: Option<u64>,
}

impl Info {
    /// How long the brain may take for a move with `empty` cells left:
    /// the time per move, or the match time left shared among the moves
    /// still to come, whichever is less.
    pub fn allowance(&self, empty: usize) -> Duration {
        let turn = self
            .timeout_turn
            .map_or(DEFAULT_TURN, Duration::from_millis);
        let share = match (self.timeout_match, self.time_left) {
            (Some(0), _) | (_, None) => None,
            // About as many own moves to come as a fourth of the empty
            // cells, between 10 and 40: a five-in-a-row game rarely fills
            // the board.
            (_, Some(left)) => {
                let moves = (empty as u64 / 4).clamp(10, 40);
                Some(Duration::from_millis(left / moves))
            }
        };
        share.map_or(turn, |s| s.min(turn))
    }
}
