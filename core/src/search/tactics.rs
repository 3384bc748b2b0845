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
    wins_at_once(rules, pos, history, moves).next().transpose()
}

/// Every one of `moves` that wins at once for the side to move.
pub(super) fn winning_moves(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    moves: &[Move],
) -> Result<Vec<Move>, ScriptError> {
    wins_at_once(rules, pos, history, moves).collect()
}

/// The moves of `moves` that win at once for the side to move, in order,
/// each tried only when asked for; a script's failure ends them.
fn wins_at_once<'a>(
    rules: &'a Rulebook,
    pos: &'a Position,
    history: &'a [Move],
    moves: &'a [Move],
) -> impl Iterator<Item = Result<Move, ScriptError>> + 'a {
    let me = pos.turn();
    moves
        .iter()
        .filter_map(move |&mv| match rules.play_unchecked(pos, history, mv) {
            Ok(next) => (next.outcome() == Some(Outcome::Win(me))).then_some(Ok(mv)),
            Err(e) => Some(Err(e)),
        })
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

/// A move after which every reply leaves the side to move a win in one: a
/// forced win in three plies, where `nodes` moves played are enough to
/// show it (else `None`, as when there is none). A position that would
/// occur for the last time the repetition rule allows is a draw, not a
/// step of the win: `keys` are the game's positions up to `pos`.
pub(super) fn win_in_two(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    keys: &[u64],
    moves: &[Move],
    nodes: u64,
) -> Result<Option<Move>, ScriptError> {
    let me = pos.turn();
    let limit = rules.mechanics().repetition();
    // Whether `p` ends the game in a draw by repetition, after `line`'s
    // positions.
    let repeats = |p: &Position, line: &[u64]| {
        limit.is_some_and(|l| {
            let k = p.key();
            let seen = keys.iter().chain(line).filter(|&&e| e == k).count();
            seen as u32 + 1 >= l
        })
    };
    let (mut replies, mut answers) = (MoveList::new(), MoveList::new());
    let mut line = history.to_vec();
    let mut played = 0u64;
    'moves: for &mv in moves {
        let next = rules.play_unchecked(pos, history, mv)?;
        played += 1;
        if next.is_over() || repeats(&next, &[]) {
            continue;
        }
        line.truncate(history.len());
        line.push(mv);
        rules.legal_moves(&next, &line, &mut replies)?;
        for &reply in replies.iter() {
            let after = rules.play_unchecked(&next, &line, reply)?;
            played += 1;
            if after.is_over() || repeats(&after, &[next.key()]) {
                continue 'moves;
            }
            line.truncate(history.len() + 1);
            line.push(reply);
            rules.legal_moves(&after, &line, &mut answers)?;
            let mut wins = false;
            for &answer in answers.iter() {
                played += 1;
                if rules.play_unchecked(&after, &line, answer)?.outcome() == Some(Outcome::Win(me))
                {
                    wins = true;
                    break;
                }
            }
            if played > nodes {
                return Ok(None);
            }
            if !wins {
                continue 'moves;
            }
        }
        return Ok(Some(mv));
    }
    Ok(None)
}
