//! Moves found without search, for a caller with no time to search (a
//! Gomocup `timeout_turn` of 0) or whose search overran its time.

use super::{lines, tactics};
use crate::error::ScriptError;
use crate::game::Game;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Position};
use crate::rulebook::Rulebook;

/// A move for `game`'s side to move found with no search: a win in one;
/// else, on a wide board played by lines, a cell where the opponent would
/// complete a line, else the cell that builds and blocks the most — each
/// about as fast as listing the moves; else (elsewhere) a move that does
/// not hand the opponent a win in one, at random, which plays each move
/// and each reply. For "play as fast as possible" (a Gomocup
/// `timeout_turn` of 0) and for when a search overran its time. `None`
/// when the game is over.
///
/// # Errors
/// A failing per-move hook.
pub fn at_once(game: &Game, rng: &mut Rng) -> Result<Option<Move>, ScriptError> {
    let mut list = MoveList::new();
    game.rulebook()
        .legal_moves(game.position(), game.moves(), &mut list)?;
    at_once_among(game, list.to_vec(), rng)
}

/// [`at_once`] among `moves`, the legal moves of `game`'s position, listed
/// by a caller that keeps them (for [`by_tables`], should this run out of
/// time for its scripts).
///
/// # Errors
/// A failing per-move hook.
pub fn at_once_among(
    game: &Game,
    moves: Vec<Move>,
    rng: &mut Rng,
) -> Result<Option<Move>, ScriptError> {
    let (rules, pos, history) = (game.rulebook(), game.position(), game.moves());
    if moves.len() <= 1 {
        return Ok(moves.first().copied());
    }
    if let Some(mv) = tactics::winning_move(rules, pos, history, &moves)? {
        return Ok(Some(mv));
    }
    if lines::suits(rules, pos) {
        let them = pos.turn().other();
        let block = lines::winning_cells_of(rules, pos, them)
            .find_map(|c| moves.iter().copied().find(|m| m.to() == Some(c)));
        return Ok(Some(
            block.unwrap_or_else(|| lines::threat_move(rules, pos, &moves, rng)),
        ));
    }
    let safe = tactics::safe_moves(rules, pos, history, &moves)?;
    let candidates = if safe.is_empty() { moves } else { safe };
    Ok(Some(candidates[rng.below(candidates.len())]))
}

/// A move for `game`'s side to move found by the rulebook's tables alone,
/// running no script: a cell that completes a line, else one where the
/// opponent would, else the cell that builds and blocks the most (as
/// [`at_once`] weighs them on a wide board). For a caller whose time for
/// scripts is up, so it sees no per-move hook: among `among` when given
/// (moves the caller listed with [`Rulebook::legal_moves`], which asks
/// the `refuse` hook), else among the cells the board rules leave free,
/// which a `refuse` hook may yet refuse. `None` when the game is over,
/// nothing is left, or the rulebook is not one where each side places its
/// own marks, which stay, and a line wins for its owner.
///
/// [`Rulebook::legal_moves`]: crate::Rulebook::legal_moves
pub fn by_tables(game: &Game, among: Option<&[Move]>, rng: &mut Rng) -> Option<Move> {
    by_tables_at(game.rulebook(), game.position(), among, rng)
}

/// [`by_tables`] at a position of `rules`.
pub(super) fn by_tables_at(
    rules: &Rulebook,
    pos: &Position,
    among: Option<&[Move]>,
    rng: &mut Rng,
) -> Option<Move> {
    if pos.is_over() || !lines::read_by_own_lines(rules, pos) {
        return None;
    }
    let t = rules.mechanics();
    let me = pos.turn();
    let moves: Vec<Move> = match among {
        Some(moves) => moves.to_vec(),
        None => rules
            .free_cells(pos)
            .into_iter()
            .filter(|&to| t.forbidden_pattern(pos, to).is_none())
            .map(|to| Move::Place { to, mark: me })
            .collect(),
    };
    if moves.is_empty() {
        return None;
    }
    let on = |cell| moves.iter().copied().find(|m| m.to() == Some(cell));
    let win = lines::winning_cells_of(rules, pos, me).find_map(on);
    let block = || lines::winning_cells_of(rules, pos, me.other()).find_map(on);
    Some(
        win.or_else(block)
            .unwrap_or_else(|| lines::threat_move(rules, pos, &moves, rng)),
    )
}
