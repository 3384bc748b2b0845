//! Move-path counting, the standard check that move generation is right.

use crate::error::ScriptError;
use crate::position::{MoveList, Outcome, Position};
use crate::rulebook::Rulebook;

/// Counts the move sequences of length `depth` from `pos`; a finished game is
/// not expanded further. Repetition draws count as finished, like any result.
///
/// # Errors
/// A failing per-move hook.
pub fn perft(rules: &Rulebook, pos: &Position, depth: u32) -> Result<u64, ScriptError> {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    let mut keys = vec![pos.key()];
    walk(rules, pos, &mut lists, &mut keys)
}

fn walk(
    rules: &Rulebook,
    pos: &Position,
    lists: &mut [MoveList],
    keys: &mut Vec<u64>,
) -> Result<u64, ScriptError> {
    let Some((list, rest)) = lists.split_first_mut() else {
        return Ok(1);
    };
    rules.legal_moves(pos, list)?;
    if rest.is_empty() {
        return Ok(list.len() as u64);
    }
    let mut total = 0;
    for &mv in list.iter() {
        let mut next = rules.play_unchecked(pos, mv)?;
        rules.settle_repetition(&mut next, keys);
        if next.is_over() {
            continue;
        }
        keys.push(next.key());
        total += walk(rules, &next, rest, keys)?;
        keys.pop();
    }
    Ok(total)
}

/// Counts of finished games by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameCount {
    /// Games X won.
    pub x_wins: u64,
    /// Games O won.
    pub o_wins: u64,
    /// Drawn games.
    pub draws: u64,
}

impl GameCount {
    /// All finished games.
    pub fn total(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }
}

/// Counts every complete game from `pos` (every path to a result), by result.
/// Only finite for rulebooks whose games always end.
///
/// # Errors
/// A failing per-move hook.
pub fn count_games(rules: &Rulebook, pos: &Position) -> Result<GameCount, ScriptError> {
    let mut count = GameCount::default();
    let mut list = MoveList::new();
    rules.legal_moves(pos, &mut list)?;
    for &mv in list.iter() {
        let next = rules.play_unchecked(pos, mv)?;
        match next.outcome() {
            Some(Outcome::Win(crate::Side::X)) => count.x_wins += 1,
            Some(Outcome::Win(crate::Side::O)) => count.o_wins += 1,
            Some(Outcome::Draw) => count.draws += 1,
            None => {
                let sub = count_games(rules, &next)?;
                count.x_wins += sub.x_wins;
                count.o_wins += sub.o_wins;
                count.draws += sub.draws;
            }
        }
    }
    Ok(count)
}
