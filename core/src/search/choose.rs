//! Choosing a move: what every level sees (a win in one, the moves that
//! do not hand one over), then the methods that suit the rulebook, within
//! the request's budget.

use super::methods::{Answer, methods};
use super::request::Search;
use super::{At, Budget, Level, Report, Request, Until, Worth, lines, mcts, tactics, threats};
use crate::error::ScriptError;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use crate::script::ScriptBudget;
use std::time::Instant;

/// How often `medium` ignores its search and plays any safe move.
const MEDIUM_SLIP: usize = 4;

/// Per-move hooks run in every node and playout: their searches get this
/// fraction of a budget in playouts.
const HOOK_SHARE: u32 = 10;

/// Chooses a move for the side to move `from` a game or a position ([`At`])
/// as `request` asks. `None` when the game is over. Where `from` holds the
/// game's earlier positions, a move that would repeat a position for the
/// last time allowed is a draw, whatever the position is worth alone.
///
/// ```
/// use gridrules_core::Rulebook;
/// use gridrules_core::playout::Rng;
/// use gridrules_core::search::{At, Budget, Level, Request, choose};
///
/// let rules = Rulebook::builtin("classic").unwrap();
/// let pos = rules.parse_position("3/1X1/XOO X").unwrap();
/// let request = Request::new(Level::Easy, Budget::Playouts(100));
/// let mv = choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
/// let won = rules.play(&pos, &[], mv.unwrap()).unwrap();
/// assert!(won.is_over()); // every level takes a win it sees
/// ```
///
/// # Errors
/// A failing per-move hook.
pub fn choose<'a>(
    from: impl Into<At<'a>>,
    request: Request<'_>,
    rng: &mut Rng,
) -> Result<Option<Move>, ScriptError> {
    let at = from.into();
    // The moves to choose from are listed within the caller's scripts'
    // budget: the search's, which ends at its deadline, is for choosing.
    let mut list = MoveList::new();
    at.rules.legal_moves(at.pos, at.history, &mut list)?;
    request.run(at, |s, level, budget| {
        choose_among(s, list.to_vec(), level, rng, budget)
    })
}

/// Whether `side` does as well taking a draw as playing on `from` a game
/// or a position, judged as hard judges its moves, whatever the request's
/// level: exactly where the game can be solved; on wide placement boards
/// by the lines (it declines while it can still make one and is not about
/// to lose, and takes the draw when it is); elsewhere by the search's
/// estimate within the request's budget.
///
/// # Errors
/// A failing per-move hook.
pub fn accepts_draw<'a>(
    from: impl Into<At<'a>>,
    side: Side,
    request: Request<'_>,
    rng: &mut Rng,
) -> Result<bool, ScriptError> {
    let at = from.into();
    if !at.pos.is_over() && lines::suits(at.rules, at.pos) {
        return Ok(lines::accepts_draw(at.rules, at.pos, side));
    }
    // Stopped at the deadline before it knew, the game counts as even.
    let expected = request.run(at, |s, _, budget| {
        s.unless_stopped(expected(s, rng, budget))
            .map(|v| v.unwrap_or(0.5))
    })?;
    // `expected` is for the side to move; `side` may be the other one.
    let mine = if at.pos.turn() == side {
        expected
    } else {
        1.0 - expected
    };
    Ok(mine <= 0.5)
}

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

/// Plain UCT over every legal move `from` a game or a position, with
/// uniform random playouts: no tactics, no proofs, one tree, and no cap
/// but `budget`. The yardstick for hard's search (`arena` plays it as
/// `uct`).
///
/// # Errors
/// A failing per-move hook.
pub fn plain_uct<'a>(
    from: impl Into<At<'a>>,
    budget: Budget,
    rng: &mut Rng,
) -> Result<Option<Move>, ScriptError> {
    let at = from.into();
    let mut list = MoveList::new();
    at.rules.legal_moves(at.pos, at.history, &mut list)?;
    // One tree, grown on this thread: the budget set here.
    let scripts = ScriptBudget::current();
    let bounds = mcts::Bounds {
        budget,
        until: Until::never(),
        scripts: &scripts,
    };
    let found = mcts::mcts(&at, &list, rng, bounds, mcts::Config::PLAIN, None)?;
    Ok(found.map(|(mv, _)| mv))
}

/// [`choose`] among `moves`, the legal moves of the search's position or
/// some of them.
fn choose_among(
    s: &Search<'_>,
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let at = &s.at;
    if moves.len() <= 1 {
        s.noted("only move");
        return Ok(moves.first().copied());
    }
    let Some(found) =
        s.unless_stopped(tactics::winning_move(at.rules, at.pos, at.history, &moves))?
    else {
        return Ok(Some(s.stopped(&moves, rng)));
    };
    if let Some(mv) = found {
        s.note(Report {
            method: "win in one",
            value: Some(Worth::Wins(1)),
            ..Report::default()
        });
        return Ok(Some(mv));
    }
    if level == Level::Easy {
        s.noted("random");
        return Ok(Some(moves[rng.below(moves.len())]));
    }
    if moves.contains(&Move::Swap) {
        return choose_swap(s, moves, level, rng, budget);
    }
    let Some(safe) = s.unless_stopped(tactics::safe_moves(at.rules, at.pos, at.history, &moves))?
    else {
        return Ok(Some(s.stopped(&moves, rng)));
    };
    let candidates = if safe.is_empty() { moves } else { safe };
    if level == Level::Medium && rng.below(MEDIUM_SLIP) == 0 {
        s.noted("random");
        return Ok(Some(candidates[rng.below(candidates.len())]));
    }
    let budget = if level == Level::Hard {
        budget
    } else {
        budget.scaled_down(5)
    };
    // Playouts through per-move hooks cost far more; a time is the
    // player's whatever they cost.
    let budget = match budget {
        Budget::Playouts(_) if at.rules.has_per_move_hooks() => budget.scaled_down(HOOK_SHARE),
        other => other,
    };
    let mut candidates = candidates;
    let started = Instant::now();
    for method in methods(at.rules, at.pos, level) {
        // A time is for the whole move: each method gets what is left.
        let budget = match budget {
            Budget::Time(d) => Budget::Time(d.saturating_sub(started.elapsed())),
            playouts => playouts,
        };
        match s.unless_stopped(method.best(s, &candidates, rng, budget))? {
            Some(Answer::Play(mv)) => return Ok(Some(mv)),
            Some(Answer::Among(fewer)) if !fewer.is_empty() => candidates = fewer,
            Some(Answer::Among(_) | Answer::Pass) => {}
            None => return Ok(Some(s.stopped(&candidates, rng))),
        }
    }
    s.noted("first candidate");
    Ok(candidates.first().copied())
}

/// The answer to the first move under the pie rule: `swap` when the side to
/// move expects less than half from the position as it is (then the other
/// side, which it takes, expects more), else the best move without it.
fn choose_swap(
    s: &Search<'_>,
    moves: Vec<Move>,
    level: Level,
    rng: &mut Rng,
    budget: Budget,
) -> Result<Option<Move>, ScriptError> {
    let at = &s.at;
    let others: Vec<Move> = moves.iter().copied().filter(|&m| m != Move::Swap).collect();
    let Some(swapped) =
        s.unless_stopped(at.rules.play_unchecked(at.pos, at.history, Move::Swap))?
    else {
        return Ok(Some(s.stopped(&others, rng)));
    };
    let mut line = at.history.to_vec();
    line.push(Move::Swap);
    // The same board with the same side to move, and no swap left: what
    // playing on is worth to the side to move.
    let half = budget.scaled_down(2);
    let stay = if lines::suits(at.rules, at.pos) {
        // No search to ask on a wide board: the first turn's marks' pull,
        // by their distance from the centre (a central X favours X).
        lines::first_mark_value(at.rules, at.pos)
    } else {
        let after = s.weighing(At::new(at.rules, &swapped, &line));
        match s.unless_stopped(expected(&after, rng, half))? {
            Some(stay) => stay,
            // Stopped before it knew: play on, as when the first move is even.
            None => return Ok(Some(s.stopped(&others, rng))),
        }
    };
    if stay < 0.5 {
        return Ok(Some(Move::Swap));
    }
    choose_among(s, others, level, rng, half)
}

/// What the side to move of the search's position can expect from it: 1
/// for a win, ½ for a draw, 0 for a loss. Exact when the game can be
/// solved, else the search's estimate for its best move.
fn expected(s: &Search<'_>, rng: &mut Rng, budget: Budget) -> Result<f64, ScriptError> {
    let pos = s.at.pos;
    if let Some(o) = pos.outcome() {
        return Ok(match o {
            Outcome::Draw => 0.5,
            Outcome::Win(side) if side == pos.turn() => 1.0,
            Outcome::Win(_) => 0.0,
        });
    }
    for method in methods(s.at.rules, pos, Level::Hard) {
        if let Some(v) = method.expected(s, rng, budget)? {
            return Ok(v);
        }
    }
    Ok(0.5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limit;
    use crate::search::exact::random_position;
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
            let plies = 8 + rng.below(16);
            let Some((pos, line)) = random_position(&rules, &mut rng, plies) else {
                continue;
            };
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
            let request = Request::new(Level::Hard, budget);
            let mv = choose(At::new(&rules, pos, line), request, &mut rng)
                .unwrap()
                .unwrap();
            if !wins_by(&rules, pos, line, mv, nodes * 4) {
                missed.push(format!("a win in {plies}: {}", rules.position_text(pos)));
            }
        }
        assert!(missed.is_empty(), "of {}: {missed:#?}", wins.len());
    }

    /// Where `name`'s search starts: the start, or on the wide boards a
    /// mark on the centre, since the row search plays an empty board's
    /// centre without searching.
    fn searched_from(rules: &Rulebook) -> Position {
        let start = rules.initial();
        if rules.grid().len() < 100 {
            return start;
        }
        let centre = rules.grid().parse_cell("j10").unwrap();
        let mv = Move::Place {
            to: centre,
            mark: Side::X,
        };
        rules.play_unchecked(&start, &[], mv).unwrap()
    }

    /// A request's deadline reaches every method and every thread it
    /// starts: with playouts enough for hours, each kind of search answers
    /// soon after the deadline, long before the cap.
    #[test]
    fn a_requests_deadline_stops_every_method() {
        // Alpha-beta, then MCTS on two threads; retrograde analysis (a
        // graph too large to finish in time), then MCTS; the row search.
        for name in ["connect-four", "teeko", "pente"] {
            let rules = Rulebook::builtin(name).unwrap();
            let pos = searched_from(&rules);
            let started = Instant::now();
            let mut report = Report::default();
            let request = Request::new(Level::Hard, Budget::Playouts(u32::MAX))
                .deadline(started + std::time::Duration::from_millis(200))
                .report(&mut report);
            let mv = choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
            let took = started.elapsed();
            assert!(mv.is_some(), "{name}: no move");
            assert!(
                took < crate::search::SEARCH_CAP / 3,
                "{name}: {took:?} ({report})"
            );
            // Its playouts unspent, the move may differ on another run.
            assert!(report.cut, "{name}: the cut is not reported");
        }
        // By the clock, the row search deepens on every core: each of its
        // threads stops at the deadline too.
        let rules = Rulebook::builtin("pente").unwrap();
        let pos = searched_from(&rules);
        let started = Instant::now();
        let request = Request::new(Level::Hard, Budget::Time(crate::search::SEARCH_CAP))
            .deadline(started + std::time::Duration::from_millis(200));
        let mv = choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
        let took = started.elapsed();
        assert!(mv.is_some(), "pente by the clock: no move");
        assert!(
            took < crate::search::SEARCH_CAP / 3,
            "by the clock: {took:?}"
        );
    }

    /// A per-move hook slower than the search's time left stops at the
    /// search's deadline, and the search still answers a move (a
    /// walkthrough: hard ran past its 6 s cap into the command's 10 s for
    /// scripts, and failed with no move).
    #[test]
    fn a_hook_slower_than_the_time_left_stops_at_the_deadline_with_a_move() {
        let text = "name = \"slow\"\ntitle = \"slow\"\nscript = \"k_in_a_row.rhai\"\n\
                    [board]\nwidth = 4\nheight = 4\n[params]\nk = 3\noverline = true\n";
        let slow = "fn lines() { lines::straight(K) }\n\
                    fn wins(run) { run >= K }\n\
                    fn refuse(state, mv) { let s = 0; for i in 0..5000 { s += i; } }\n";
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("slow.rhai"), slow).unwrap();
        let text = text
            .replace("k_in_a_row.rhai", "slow.rhai")
            .replace("overline = true\n", "");
        std::fs::write(dir.path().join("slow.toml"), &text).unwrap();
        let rules = Rulebook::from_file(&dir.path().join("slow.toml")).unwrap();
        let pos = rules.initial();
        let started = Instant::now();
        // The command's scripts may run longer than the search, not forever.
        let command = ScriptBudget::until(started + std::time::Duration::from_secs(2), "command");
        let mut report = Report::default();
        let request = Request::new(Level::Hard, Budget::Playouts(1000))
            .deadline(started + std::time::Duration::from_millis(100))
            .report(&mut report);
        let mv =
            command.replacing(|| choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)));
        let mv = mv.unwrap_or_else(|e| panic!("{e}"));
        assert!(mv.is_some(), "no move ({report})");
    }

    /// A raised stop ends every method as a deadline does (issue 26, item
    /// 1: Ctrl-C while the computer thinks); a search that spends its
    /// playouts is not cut.
    #[test]
    fn a_stop_ends_every_method_and_only_a_cut_search_says_it_was_cut() {
        for name in ["connect-four", "teeko", "pente", "gobblet-gobblers"] {
            let rules = Rulebook::builtin(name).unwrap();
            let pos = searched_from(&rules);
            let stop = crate::interrupt::Interrupt::new();
            let raiser = stop.clone();
            let started = Instant::now();
            let mut report = Report::default();
            let mv = std::thread::scope(|scope| {
                scope.spawn(move || {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                    raiser.raise();
                });
                let request = Request::new(Level::Hard, Budget::Playouts(u32::MAX))
                    .stop(&stop)
                    .report(&mut report);
                choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap()
            });
            let took = started.elapsed();
            assert!(mv.is_some(), "{name}: no move");
            assert!(took < crate::search::SEARCH_CAP / 3, "{name}: {took:?}");
            assert!(report.cut, "{name}: the stop is not reported");
        }
        let rules = Rulebook::builtin("connect-four").unwrap();
        let pos = rules.initial();
        let mut report = Report::default();
        let request = Request::new(Level::Hard, Budget::Playouts(200)).report(&mut report);
        choose(At::new(&rules, &pos, &[]), request, &mut Rng::new(1)).unwrap();
        assert!(!report.cut, "a search that spent its playouts was cut");
    }
}
