//! Move-path counting, the standard check that move generation is right.

use crate::error::ScriptError;
use crate::game::Game;
use crate::interrupt::Interrupt;
use crate::position::{Move, MoveList, Outcome, Position};
use crate::rulebook::Rulebook;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Counts the move sequences of length `depth` from the end of `game`; a
/// finished game is not expanded further. Repetition draws count as
/// finished, like any result, with the game's own positions counted in.
/// On this thread: callers that run many counts at once (the test suite)
/// keep their own threads; [`perft_watched`] uses every core.
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
    perft_on(game, depth, 1, stop, &mut |_, _| {})
}

/// [`perft_until`], telling `progress` after each branch (a first move,
/// or a first move and an answer) how many are counted, of how many (for
/// a progress bar). Runs on every core.
///
/// # Errors
/// A failing per-move hook.
pub fn perft_watched(
    game: &Game,
    depth: u32,
    stop: &Interrupt,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<u64>, ScriptError> {
    let threads = crate::cores();
    perft_on(game, depth, threads, stop, progress)
}

/// [`perft_watched`] on `threads` threads: the branches are handed out
/// one at a time to whichever thread is free, each counting its subtree
/// alone (the counts are the same on any number of threads).
///
/// # Errors
/// A failing per-move hook (the first one met).
pub fn perft_on(
    game: &Game,
    depth: u32,
    threads: usize,
    stop: &Interrupt,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<u64>, ScriptError> {
    stop.settle(perft_threads(game, depth, threads, stop, progress))
}

/// [`perft_on`], a script's failure under way when `stop` was raised
/// still an error.
fn perft_threads(
    game: &Game,
    depth: u32,
    threads: usize,
    stop: &Interrupt,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<u64>, ScriptError> {
    // A game decided off the board (a resignation, an agreed draw) has no
    // moves, though its position would.
    if game.is_over() && depth > 0 {
        return Ok(Some(0));
    }
    // Shallow counts take microseconds: threads would cost more.
    if threads <= 1 || depth < 3 {
        return perft_alone(game, depth, stop, progress);
    }
    let first = branches(game, threads, stop)?;
    progress(0, first.len());
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let failure: Mutex<Option<ScriptError>> = Mutex::new(None);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    // The scripts' budget holds on every thread that runs them.
    let budget = &crate::script::ScriptBudget::current();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(first.len()) {
            let done_tx = done_tx.clone();
            let (next, total, halt, failure, first) = (&next, &total, &halt, &failure, &first);
            scope.spawn(move || {
                budget.run(|| {
                    let mut lists: Vec<MoveList> = (1..depth).map(|_| MoveList::new()).collect();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(branch) = first.get(i) else { break };
                        if stop.is_raised() || halt.load(Ordering::Relaxed) {
                            break;
                        }
                        let below = &mut lists[branch.len() - 1..];
                        let counted = subtree(game, branch, below, stop, halt);
                        match counted {
                            Ok(n) => {
                                total.fetch_add(n, Ordering::Relaxed);
                            }
                            Err(Halt::Stopped) => break,
                            Err(Halt::Script(e)) => {
                                halt.store(true, Ordering::Relaxed);
                                failure
                                    .lock()
                                    .unwrap_or_else(|e| e.into_inner())
                                    .get_or_insert(e);
                                break;
                            }
                        }
                        let _ = done_tx.send(());
                    }
                });
            });
        }
        drop(done_tx);
        // This thread tells the progress as the branches are counted.
        for (done, ()) in done_rx.iter().enumerate() {
            progress(done + 1, first.len());
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    if stop.is_raised() {
        return Ok(None);
    }
    Ok(Some(total.into_inner()))
}

/// The ways a count is shared out: each first move, or each pair of a
/// first move and an answer where the first moves are too few to keep
/// every thread busy (connect-four's seven on two threads: one would count
/// four subtrees, the other three).
///
/// Stopped while it lists them, it lists none.
fn branches(game: &Game, threads: usize, stop: &Interrupt) -> Result<Vec<Vec<Move>>, ScriptError> {
    let rules = game.rulebook();
    let mut first = MoveList::new();
    rules.legal_moves(game.position(), game.moves(), &mut first)?;
    if first.len() >= 8 * threads {
        return Ok(first.iter().map(|&mv| vec![mv]).collect());
    }
    let mut out = Vec::new();
    let mut second = MoveList::new();
    for &mv in first.iter() {
        // Listing the answers runs the per-move hooks: it can take a while.
        if stop.is_raised() {
            return Ok(Vec::new());
        }
        let mut next = rules.play_unchecked(game.position(), game.moves(), mv)?;
        rules.settle_repetition(&mut next, game.keys());
        if next.is_over() {
            continue;
        }
        let mut moves = game.moves().to_vec();
        moves.push(mv);
        rules.legal_moves(&next, &moves, &mut second)?;
        out.extend(second.iter().map(|&answer| vec![mv, answer]));
    }
    Ok(out)
}

/// The count below `branch` (its moves from the end of `game`), to the
/// depth `lists` gives (one list a ply below it).
fn subtree(
    game: &Game,
    branch: &[Move],
    lists: &mut [MoveList],
    stop: &Interrupt,
    halt: &AtomicBool,
) -> Result<u64, Halt> {
    let rules = game.rulebook();
    let mut keys = game.keys().to_vec();
    let mut moves = game.moves().to_vec();
    let mut pos = *game.position();
    for &mv in branch {
        let mut next = rules.play_unchecked(&pos, &moves, mv)?;
        rules.settle_repetition(&mut next, &keys);
        if next.is_over() {
            return Ok(0);
        }
        keys.push(next.key());
        moves.push(mv);
        pos = next;
    }
    let mut ignore = |_, _| {};
    let mut line = Line {
        keys,
        moves,
        stop,
        halt: Some(halt),
        root: None,
        progress: &mut ignore,
    };
    walk(rules, &pos, lists, &mut line)
}

/// [`perft_watched`] on this thread alone.
fn perft_alone(
    game: &Game,
    depth: u32,
    stop: &Interrupt,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Option<u64>, ScriptError> {
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    let mut line = Line {
        keys: game.keys().to_vec(),
        moves: game.moves().to_vec(),
        stop,
        halt: None,
        root: Some(lists.len()),
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
    /// Raised when another thread's count failed: this one stops too.
    halt: Option<&'s AtomicBool>,
    /// How many plies are left to count at the first moves, where progress
    /// is told; `None` for a branch counted on one of several threads,
    /// which tells none (its thread tells the progress of whole branches).
    root: Option<usize>,
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
    if line.stop.is_raised() || line.halt.is_some_and(|h| h.load(Ordering::Relaxed)) {
        return Err(Halt::Stopped);
    }
    let mut total = 0;
    let root = line.root == Some(lists_len);
    if root {
        (line.progress)(0, list.len());
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads share out the first moves and count the same as one thread
    /// alone, with positions that repeat (moving), that end early
    /// (classic), and where the first moves are few enough to be shared out
    /// with their answers (connect-four's seven).
    #[test]
    fn threads_count_what_one_thread_counts() {
        for (name, depth) in [
            ("classic", 5),
            ("moving", 6),
            ("connect-four", 5),
            ("connect6", 3),
        ] {
            let game = Game::new(std::sync::Arc::new(Rulebook::builtin(name).unwrap()));
            let never = Interrupt::new();
            let alone = perft_on(&game, depth, 1, &never, &mut |_, _| {}).unwrap();
            let mut told = Vec::new();
            let shared = perft_on(&game, depth, 3, &never, &mut |done, of| {
                told.push((done, of))
            })
            .unwrap();
            assert_eq!(alone, shared, "{name} {depth}");
            // How many branches, then every branch once, in order.
            let first = told.len() - 1;
            assert!(first > 0, "{name}");
            assert!(
                told.iter()
                    .enumerate()
                    .all(|(i, &(done, of))| done == i && of == first),
                "{name}: {told:?}"
            );
        }
    }

    /// A stop raised before the count ends it with no count, on threads too.
    #[test]
    fn a_stop_ends_the_threads_count() {
        let game = Game::new(std::sync::Arc::new(Rulebook::builtin("classic").unwrap()));
        let stop = Interrupt::new();
        stop.raise();
        assert_eq!(perft_on(&game, 9, 2, &stop, &mut |_, _| {}).unwrap(), None);
    }
}
