//! What every level sees: a win in one, and the moves that do not hand the
//! opponent a win in one.

use crate::error::ScriptError;
use crate::position::{Move, MoveList, Outcome, Position};
use crate::rulebook::Rulebook;

/// The first of `moves` that wins at once for the side to move.
pub(super) fn winning_move(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: &[Move],
) -> Result<Option<Move>, ScriptError> {
    let me = pos.turn();
    for &mv in moves {
        if rules.play_unchecked(pos, history, mv)?.outcome() == Some(Outcome::Win(me)) {
            return Ok(Some(mv));
        }
    }
    Ok(None)
}

/// The moves that do not lose at once and after which the opponent cannot
/// win at once (a line that loses for its maker, as in misère, is a move
/// that loses at once).
pub(super) fn safe_moves(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: &[Move],
) -> Result<Vec<Move>, ScriptError> {
    let them = pos.turn().other();
    let mut list = MoveList::new();
    let mut safe = Vec::new();
    let mut line = history.to_vec();
    'moves: for &mv in moves {
        let next = rules.play_unchecked(pos, history, mv)?;
        if next.is_over() {
            if next.outcome() != Some(Outcome::Win(them)) {
                safe.push(mv);
            }
            continue;
        }
        line.truncate(history.len());
        line.push(mv);
        rules.legal_moves(&next, &line, &mut list)?;
        for &reply in list.iter() {
            if rules.play_unchecked(&next, &line, reply)?.outcome() == Some(Outcome::Win(them)) {
                continue 'moves;
            }
        }
        safe.push(mv);
    }
    Ok(safe)
}
