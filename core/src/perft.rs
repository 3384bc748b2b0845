//! Move-path counting, the standard check that move generation is right.

use crate::error::ScriptError;
use crate::game::Game;
use crate::interrupt::Interrupt;
use crate::position::{Move, MoveList, Outcome, Position};
use crate::rulebook::Rulebook;

/// Counts the move sequences of length `depth` from the end of `game`; a
/// finished game is not expanded further. Repetition draws count as
/// finished, like any result, with the game's own positions counted in.
///
/// # Errors
/// A failing per-move hook.
pub fn perft(game: &Game, depth: u32) -> Result<u64, ScriptError> {
    let never = Interrupt::new();
    Ok(perft_until(game, depth, &never)?.unwrap_or_default())
}

/// [`perft`], stopping early when `stop` is raised: `None` then.
///
/// # Errors
/// A failing per-move hook.
pub fn perft_until(game: &Game, depth: u32, stop: &Interrupt) -> Result<Option<u64>, ScriptError> {
    perft_watched(game, depth, stop, &mut |_, _| {})
}

/// [`perft_until`], telling `progress` after each first move how many of
/// them are counted, of how many (for a progress bar).
///
/// # Errors
/// A failing per-move hook.
pub fn perft_watched(
    game: &Game,
    depth: u32,
    stop: &Interrupt,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<u64>, ScriptError> {
    // A game decided off the board (a resignation, an agreed draw) has no
    // moves, though its position would.
    if game.is_over() && depth > 0 {
        return Ok(Some(0));
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    let mut line = Line {
        keys: game.keys().to_vec(),
        moves: game.moves().to_vec(),
        stop,
        depth: lists.len(),
        progress,
    };
    match walk(game.rulebook(), game.position(), &mut lists, &mut line) {
        Ok(n) => Ok(Some(n)),
        Err(Halt::Script(e)) => Err(e),
        Err(Halt::Stopped) => Ok(None),
    }
}

/// Why a walk ended early.
enum Halt {
    Script(ScriptError),
    Stopped,
}

impl From<ScriptError> for Halt {
    fn from(e: ScriptError) -> Halt {
        Halt::Script(e)
    }
}

/// The way from the game's start to the position being expanded.
struct Line<'s> {
    keys: Vec<u64>,
    moves: Vec<Move>,
    stop: &'s Interrupt,
    /// The depth asked for: a walk this deep is at the first moves.
    depth: usize,
    progress: &'s mut dyn FnMut(usize, usize),
}

fn walk(
    rules: &Rulebook,
    pos: &Position,
    lists: &mut [MoveList],
    line: &mut Line,
) -> Result<u64, Halt> {
    let lists_len = lists.len();
    let Some((list, rest)) = lists.split_first_mut() else {
        return Ok(1);
    };
    rules.legal_moves(pos, &line.moves, list)?;
    if rest.is_empty() {
        return Ok(list.len() as u64);
    }
    // Read at each inner node only: the leaves' parents do most of the work.
    if line.stop.is_raised() {
        return Err(Halt::Stopped);
    }
    let mut total = 0;
    let root = lists_len == line.depth;
    for (i, &mv) in list.iter().enumerate() {
        let mut next = rules.play_unchecked(pos, &line.moves, mv)?;
        rules.settle_repetition(&mut next, &line.keys);
        if next.is_over() {
            continue;
        }
        line.keys.push(next.key());
        line.moves.push(mv);
        total += walk(rules, &next, rest, line)?;
        line.keys.pop();
        line.moves.pop();
        if root {
            (line.progress)(i + 1, list.len());
        }
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

/// Counts every complete game from the end of `game` (every path to a
/// result), by result. Only finite for rulebooks whose games always end.
///
/// # Errors
/// A failing per-move hook.
pub fn count_games(game: &Game) -> Result<GameCount, ScriptError> {
    let mut moves = game.moves().to_vec();
    count_from(game.rulebook(), game.position(), &mut moves)
}

fn count_from(
    rules: &Rulebook,
    pos: &Position,
    history: &mut Vec<Move>,
) -> Result<GameCount, ScriptError> {
    let mut count = GameCount::default();
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    for &mv in list.iter() {
        let next = rules.play_unchecked(pos, history, mv)?;
        match next.outcome() {
            Some(Outcome::Win(crate::Side::X)) => count.x_wins += 1,
            Some(Outcome::Win(crate::Side::O)) => count.o_wins += 1,
            Some(Outcome::Draw) => count.draws += 1,
            None => {
                history.push(mv);
                let sub = count_from(rules, &next, history)?;
                history.pop();
                count.x_wins += sub.x_wins;
                count.o_wins += sub.o_wins;
                count.draws += sub.draws;
            }
        }
    }
    Ok(count)
}
