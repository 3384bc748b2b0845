//! Choosing a move: the levels' common tactics, then the methods that suit
//! the rulebook, within the request's budget.

use super::methods::{Answer, methods};
use super::request::capped;
use super::{At, Budget, Level, Memory, Report, Worth, lines, mcts, tactics, threats};
use crate::error::ScriptError;
use crate::game::Game;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use std::cell::RefCell;
use std::time::Instant;

/// How often `medium` ignores its search and plays any safe move.
const MEDIUM_SLIP: usize = 4;

/// Per-move hooks run in every node and playout: their searches get this
/// fraction of the budget.
const HOOK_SHARE: u32 = 10;

/// A first move of a win by continuous fours for the side to move of `pos`
/// on a board played by line threats: each move makes a four, the only
/// answer blocks it, until two fours at once or a line. `None` when there
/// is none, or the search ran out of its nodes before it knew.
///
/// # Errors
/// A failing per-move hook.
pub fn continuous_fours(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
) -> Result<Option<Move>, ScriptError> {
    if !lines::suits(rules, pos) || !threats::Threats::reads_fours(rules) {
        return Ok(None);
    }
    Ok(threats::Threats::new(rules)
        .vcf(pos, history, threats::VCF_DEPTH)?
        .unwrap_or(None))
}

/// Plain UCT over every legal move, with uniform random playouts: no
/// tactics, no proofs, one tree. The yardstick for hard's search (`arena`
/// plays it as `uct`).
///
/// # Errors
/// A failing per-move hook.
pub fn plain_uct(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    let config = mcts::Config::PLAIN;
    Ok(mcts::mcts(rules, pos, history, &list, rng, budget, config, None)?.map(|(mv, _)| mv))
}

/// Chooses a move for the side to move of `pos`, reached by `history` (see
/// [`Rulebook::legal_moves`]), within about `budget`. `None` when the game
/// is over. The position stands alone: a game's earlier positions, which
/// its repetition rule counts, are [`choose_in`]'s to weigh.
///
/// # Errors
/// A failing per-move hook.
pub fn choose(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    choose_after(rules, pos, history, &[], level, rng, budget)
}

/// [`choose`] in a game: a move that would repeat a position for the last
/// time allowed is a draw, whatever the position is worth alone. With a
/// `memory`, MCTS grows the trees of the game's last search (tree reuse)
/// and keeps its own there for the next move.
///
/// # Errors
/// A failing per-move hook.
pub fn choose_in(
    game: &Game,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
    memory: Option<&mut Memory>,
) -> Result<Option<Move>, ScriptError> {
    let at = At::new(game.rulebook(), game.position(), game.moves(), game.keys());
    choose_at(&at, memory, level, rng, budget)
}

/// [`choose`] after the game's positions with `keys` (their
/// [`Position::key`]s, the current one last), which its repetition rule
/// counts.
///
/// # Errors
/// A failing per-move hook.
pub fn choose_after(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    keys: &[u64],
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    choose_at(
        &At::new(rules, pos, history, keys),
        None,
        level,
        rng,
        budget,
    )
}

/// [`choose_in`], with what the search found on the way (for a status
/// line such as the Gomocup brain's `MESSAGE`).
///
/// # Errors
/// A failing per-move hook.
pub fn choose_reported(
    game: &Game,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<(Option<Move>, Report), ScriptError> {
    let report = RefCell::new(Report::default());
    let at = At {
        report: Some(&report),
        ..At::new(game.rulebook(), game.position(), game.moves(), game.keys())
    };
    let chosen = choose_at(&at, None, level, rng, budget)?;
    Ok((chosen, report.into_inner()))
}

/// [`choose`] at `at`, growing the trees in `memory` if there is one.
pub(crate) fn choose_at(
    at: &At<'_>,
    memory: Option<&mut Memory>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    // The methods share `at`; the trees go in and out through a cell.
    let mut memory = memory;
    let cell = memory
        .as_deref_mut()
        .map(|m| RefCell::new(std::mem::take(m)));
    let chosen = capped(budget, || {
        let mut list = MoveList::new();
        at.rules.legal_moves(at.pos, at.history, &mut list)?;
        let at = At {
            memory: cell.as_ref(),
            ..*at
        };
        choose_among(&at, list.to_vec(), level, rng, budget)
    });
    if let (Some(m), Some(cell)) = (memory, cell) {
        *m = cell.into_inner();
    }
    chosen
}

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
/// own marks and a line wins for its owner.
pub fn by_tables(game: &Game, among: Option<&[Move]>, rng: &mut Rng) -> Option<Move> {
    let (rules, pos) = (game.rulebook(), game.position());
    let t = rules.tables();
    let by_lines = t.marks() == crate::rulebook::Marks::Own
        && t.line_result() == crate::rulebook::LineResult::OwnerWins
        && t.regions().is_empty()
        && !t.has_gravity()
        && pos.in_hand(pos.turn()).is_none();
    if pos.is_over() || !by_lines {
        return None;
    }
    let me = pos.turn();
    let moves: Vec<Move> = match among {
        Some(moves) => moves.to_vec(),
        None => rules
            .free_cells(pos)
            .into_iter()
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

/// [`choose`] among `moves`, the legal moves of `pos` or some of them.
fn choose_among(
    at: &At<'_>,
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    if moves.len() <= 1 {
        at.noted("only move");
        return Ok(moves.first().copied());
    }
    if let Some(mv) = tactics::winning_move(at.rules, at.pos, at.history, &moves)? {
        at.note(Report {
            method: "win in one",
            value: Some(Worth::Wins(1)),
            ..Report::default()
        });
        return Ok(Some(mv));
    }
    if level == Level::Easy {
        at.noted("random");
        return Ok(Some(moves[rng.below(moves.len())]));
    }
    if moves.contains(&Move::Swap) {
        return choose_swap(at, moves, level, rng, budget);
    }
    let safe = tactics::safe_moves(at.rules, at.pos, at.history, &moves)?;
    let candidates = if safe.is_empty() { moves } else { safe };
    if level == Level::Medium && rng.below(MEDIUM_SLIP) == 0 {
        at.noted("random");
        return Ok(Some(candidates[rng.below(candidates.len())]));
    }
    let budget = if level == Level::Hard {
        budget
    } else {
        budget.scaled_down(5)
    };
    let budget = if at.rules.has_per_move_hooks() {
        budget.scaled_down(HOOK_SHARE)
    } else {
        budget
    };
    let mut candidates = candidates;
    let started = Instant::now();
    for method in methods(at.rules, at.pos, level) {
        // A time is for the whole move: each method gets what is left.
        let budget = match budget {
            Budget::Time(d) => Budget::Time(d.saturating_sub(started.elapsed())),
            playouts => playouts,
        };
        match method.best(at, &candidates, rng, budget)? {
            Answer::Play(mv) => return Ok(Some(mv)),
            Answer::Among(fewer) if !fewer.is_empty() => candidates = fewer,
            Answer::Among(_) | Answer::Pass => {}
        }
    }
    at.noted("first candidate");
    Ok(candidates.first().copied())
}

/// The answer to the first move under the pie rule: `swap` when the side to
/// move expects less than half from the position as it is (then the other
/// side, which it takes, expects more), else the best move without it.
fn choose_swap(
    at: &At<'_>,
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let swapped = at.rules.play_unchecked(at.pos, at.history, Move::Swap)?;
    let mut line = at.history.to_vec();
    line.push(Move::Swap);
    // The same board with the same side to move, and no swap left: what
    // playing on is worth to the side to move.
    let half = budget.scaled_down(2);
    let stay = if lines::suits(at.rules, at.pos) {
        // No search to ask on a wide board: the first mark's pull, by its
        // distance from the centre (a central first mark favours X).
        lines::first_mark_value(at.rules, at.pos)
    } else {
        expected_score(at.rules, &swapped, &line, rng, half)?
    };
    if stay < 0.5 {
        return Ok(Some(Move::Swap));
    }
    let others = moves.into_iter().filter(|&m| m != Move::Swap).collect();
    choose_among(at, others, level, rng, half)
}

/// What the side to move of `pos` (reached by `history`) can expect from it:
/// 1 for a win, ½ for a draw, 0 for a loss. Exact when the game can be
/// solved, else the search's estimate for its best move.
///
/// # Errors
/// A failing per-move hook.
pub fn expected_score(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    rng: &mut Rng,
    budget: Budget,
) -> Result<f64, ScriptError> {
    if let Some(o) = pos.outcome() {
        return Ok(match o {
            Outcome::Draw => 0.5,
            Outcome::Win(s) if s == pos.turn() => 1.0,
            Outcome::Win(_) => 0.0,
        });
    }
    let at = At::new(rules, pos, history, &[]);
    capped(budget, || {
        for method in methods(rules, pos, Level::Hard) {
            if let Some(v) = method.expected(&at, rng, budget)? {
                return Ok(v);
            }
        }
        Ok(0.5)
    })
}

/// Whether `side` does as well taking a draw as playing on from `pos`
/// (reached by `history`), judged as the computer judges its moves: exactly
/// where the game can be solved; on wide placement boards by the lines (it
/// declines while it can still make one and is not about to lose, and takes
/// the draw when it is); elsewhere by the search's estimate.
///
/// # Errors
/// A failing per-move hook.
pub fn accepts_draw(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    side: Side,
    rng: &mut Rng,
    budget: Budget,
) -> Result<bool, ScriptError> {
    if !pos.is_over() && lines::suits(rules, pos) {
        return Ok(lines::accepts_draw(rules, pos, side));
    }
    let expected = expected_score(rules, pos, history, rng, budget)?;
    // `expected` is for the side to move; `side` may be the other one.
    let mine = if pos.turn() == side {
        expected
    } else {
        1.0 - expected
    };
    Ok(mine <= 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limit;
    use crate::search::exact::{Proof, Solver};
    use crate::search::request::NODES_PER_PLAYOUT;

    /// Random connect-four positions where the side to move has a forced
    /// win of at least `min_plies` that the proof search finds within
    /// `nodes`: each with its history and the win's length.
    fn provable_wins(min_plies: u32, nodes: u64, count: usize) -> Vec<(Position, Vec<Move>, u32)> {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let mut rng = Rng::new(11);
        let mut list = MoveList::new();
        let mut found = Vec::new();
        while found.len() < count {
            let mut pos = rules.initial();
            let mut line = Vec::new();
            for _ in 0..8 + rng.below(16) {
                if pos.is_over() {
                    break;
                }
                let mv = rules
                    .random_move(&pos, &line, &mut rng, &mut list)
                    .unwrap()
                    .unwrap();
                pos = rules.play_unchecked(&pos, &line, mv).unwrap();
                line.push(mv);
            }
            if pos.is_over() {
                continue;
            }
            rules.legal_moves(&pos, &line, &mut list).unwrap();
            let moves = list.to_vec();
            let proof = Solver::new(&rules, &line, Limit::nodes(nodes))
                .deepen(&pos, &moves)
                .unwrap();
            if let Proof::Win(_, plies) = proof
                && plies >= min_plies
            {
                found.push((pos, line, plies));
            }
        }
        found
    }

    /// Whether `mv` wins from `pos` (reached by `line`), as a proof search
    /// within `nodes` shows: the game ends in a win, or every answer is
    /// lost, or all but one are and that one leaves a win.
    fn wins_by(rules: &Rulebook, pos: &Position, line: &[Move], mv: Move, nodes: u64) -> bool {
        let me = pos.turn();
        let next = rules.play_unchecked(pos, line, mv).unwrap();
        if next.outcome() == Some(Outcome::Win(me)) {
            return true;
        }
        let mut after = line.to_vec();
        after.push(mv);
        let mut list = MoveList::new();
        rules.legal_moves(&next, &after, &mut list).unwrap();
        match Solver::new(rules, &after, Limit::nodes(nodes))
            .deepen(&next, &list)
            .unwrap()
        {
            Proof::Lost(_) => true,
            Proof::Open(only) if only.len() == 1 => {
                let reply = rules.play_unchecked(&next, &after, only[0]).unwrap();
                after.push(only[0]);
                rules.legal_moves(&reply, &after, &mut list).unwrap();
                reply.outcome() == Some(Outcome::Win(me))
                    || matches!(
                        Solver::new(rules, &after, Limit::nodes(nodes))
                            .deepen(&reply, &list)
                            .unwrap(),
                        Proof::Win(..)
                    )
            }
            _ => false,
        }
    }

    /// Hard's proof search runs before its sampling: a forced win that
    /// its nodes can prove is played, however deep (MCTS alone, with the
    /// same playouts, misses one of these ten).
    #[test]
    fn hard_plays_every_forced_win_its_budget_can_prove_at_connect_four() {
        let rules = Rulebook::builtin("connect-four").unwrap();
        let budget = Budget::Playouts(20_000);
        let nodes = 20_000 * NODES_PER_PLAYOUT;
        let mut missed = Vec::new();
        let wins = provable_wins(7, nodes, 10);
        for (pos, line, plies) in &wins {
            let mut rng = Rng::new(1);
            let mv = choose(&rules, pos, line, Level::Hard, &mut rng, budget)
                .unwrap()
                .unwrap();
            if !wins_by(&rules, pos, line, mv, nodes * 4) {
                missed.push(format!("a win in {plies}: {}", rules.position_text(pos)));
            }
        }
        assert!(missed.is_empty(), "of {}: {missed:#?}", wins.len());
    }
}
