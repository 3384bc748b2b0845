//! Computer players, for every rulebook, driven only by the engine API.
//!
//! Every level takes a win it sees. `easy` otherwise plays at random;
//! `medium` avoids moves that let the opponent win at once and now and then
//! plays a random move; `hard` asks the methods that suit the rulebook's
//! shape, in order, until one answers:
//!
//! | shape | methods | module |
//! |---|---|---|
//! | wide board, own marks placed, a line wins | threat-space search (hard), line threats | `threats`, `lines` |
//! | a repetition rule (games with cycles) | retrograde analysis, then MCTS | `retrograde`, `mcts` |
//! | anything else | alpha-beta, then MCTS | `exact`, `mcts` |
//!
//! The exact methods give up beyond their limits and the next method
//! answers. [`solve`] reports an exact value, or that the game is too large.
//!
//! ```
//! use gridrules_core::Rulebook;
//! use gridrules_core::interrupt::Interrupt;
//! use gridrules_core::search::{Solved, Value, solve};
//! use std::time::Duration;
//!
//! let rules = Rulebook::builtin("classic").unwrap();
//! let solved = solve(&rules, &rules.initial(), &[], Duration::from_secs(5), &Interrupt::new()).unwrap();
//! let Solved::Exact(solution) = solved else { panic!("classic is small") };
//! assert_eq!(solution.value, Value::Draw);
//! assert_eq!(solution.moves.len(), 9); // every first move keeps the draw
//! ```

mod exact;
mod lines;
mod mcts;
mod report;
mod retrograde;
mod tactics;
mod threats;

pub use mcts::Memory;
pub use report::{Report, Worth};
pub use retrograde::Value;

use crate::error::ScriptError;
use crate::game::Game;
use crate::interrupt::Interrupt;
use crate::playout::Rng;
use crate::position::{Move, MoveList, Outcome, Position, Side};
use crate::rulebook::Rulebook;
use exact::{Proof, Solver, WIN};
use retrograde::{Graph, Unbuilt};
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How well the computer plays (T4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// Wins when it sees a win; otherwise careless.
    Easy,
    /// Wins, blocks, but now and then plays a weaker move.
    Medium,
    /// Full strength within its time.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Medium, Level::Hard];
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        })
    }
}

impl FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Level, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.to_string() == s)
            .ok_or_else(|| format!("level `{s}`: expected easy, medium or hard"))
    }
}

/// How long the computer may think.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Wall-clock time, for people waiting at the REPL.
    Time(Duration),
    /// A fixed number of search playouts: the same seed gives the same move,
    /// for batch mode and tests.
    Playouts(u32),
}

impl Budget {
    fn scaled_down(self, by: u32) -> Budget {
        match self {
            Budget::Time(d) => Budget::Time(d / by),
            Budget::Playouts(n) => Budget::Playouts((n / by).max(1)),
        }
    }
}

/// How often `medium` ignores its search and plays any safe move.
const MEDIUM_SLIP: usize = 4;
/// Nodes the alpha-beta solver may visit to value a position before it
/// gives up.
const SOLVE_NODES: u64 = 400_000;
/// Alpha-beta nodes a proof search may visit per playout of the budget
/// (20 000 playouts: 400 000 nodes).
const NODES_PER_PLAYOUT: u64 = 20;
/// Wall-clock time any one search may take, whatever its budget in nodes or
/// playouts says: slow per-move hooks must not stall the table. Within it a
/// seed gives the same move on every machine; a search cut by it does not.
/// Six times the built-in rulebooks' second, so that a loaded machine
/// keeps their moves repeatable, and below the command's 10 s of script
/// time, so that a slow hook rulebook still gets its move.
pub const SEARCH_CAP: Duration = Duration::from_secs(6);
thread_local! {
    /// When the move being chosen on this thread must be ready.
    static DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `search` with this thread's deadline [`SEARCH_CAP`] from now (past
/// a time budget's own end), unless an outer search set one: the cap holds
/// for a whole choice, however many methods it asks.
fn capped<T>(budget: Budget, search: impl FnOnce() -> T) -> T {
    if DEADLINE.with(std::cell::Cell::get).is_some() {
        return search();
    }
    let cap = match budget {
        Budget::Time(d) => d + SEARCH_CAP,
        Budget::Playouts(_) => SEARCH_CAP,
    };
    DEADLINE.with(|d| d.set(Some(Instant::now() + cap)));
    let result = search();
    DEADLINE.with(|d| d.set(None));
    result
}

/// When the search under way must stop, if it is capped.
fn deadline() -> Option<Instant> {
    DEADLINE.with(std::cell::Cell::get)
}

/// Runs `search` (any choice of this module: [`choose_in`], [`choose`], …)
/// with `by` as its cap instead of [`SEARCH_CAP`]: every method stops by
/// then (it reads the clock every thousand nodes or so) and answers with
/// what it has, for a caller whose clock is not the table's — a program
/// speaking a tournament protocol with a time per move. An earlier cap
/// already set on this thread stays.
pub fn within<T>(by: Instant, search: impl FnOnce() -> T) -> T {
    /// Puts back the cap that was set before, even if `search` panics.
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let before = deadline();
    let _restore = Restore(before);
    DEADLINE.with(|d| d.set(Some(before.map_or(by, |b| b.min(by)))));
    search()
}

/// Threat-search nodes this two-core machine visits in a second, to turn
/// a time budget into nodes.
const THREAT_NODES_PER_SECOND: f64 = 200_000.0;

/// Per-move hooks run in every node and playout: their searches get this
/// fraction of the budget.
const HOOK_SHARE: u32 = 10;

/// When an exact method gives up: after so many nodes, at a deadline, or
/// when interrupted.
pub(crate) struct Limit<'a> {
    nodes: u64,
    deadline: Option<Instant>,
    stop: Option<&'a Interrupt>,
}

impl<'a> Limit<'a> {
    /// A count of nodes, within [`SEARCH_CAP`]: the same answer on every
    /// machine unless the cap cuts it.
    fn nodes(nodes: u64) -> Limit<'a> {
        Limit {
            nodes,
            deadline: deadline(),
            stop: None,
        }
    }

    /// What `budget` allows a proof search before the next method: nodes
    /// in proportion to playouts, or half of a time.
    fn of_budget(budget: Budget) -> Limit<'a> {
        match budget {
            Budget::Playouts(n) => Limit::nodes(u64::from(n) * NODES_PER_PLAYOUT),
            Budget::Time(d) => {
                let half = Instant::now() + d / 2;
                Limit {
                    nodes: u64::MAX,
                    deadline: Some(deadline().map_or(half, |cap| cap.min(half))),
                    stop: None,
                }
            }
        }
    }

    /// No limit but the methods' own.
    #[cfg(test)]
    fn unbounded() -> Limit<'a> {
        Limit {
            nodes: u64::MAX,
            deadline: None,
            stop: None,
        }
    }

    /// A time, cut short by `stop`.
    fn time(within: Duration, stop: &'a Interrupt) -> Limit<'a> {
        Limit {
            nodes: u64::MAX,
            deadline: Some(Instant::now() + within),
            stop: Some(stop),
        }
    }

    /// Whether a method that has visited `nodes` should stop; the clock and
    /// the flag are read every 1024 nodes.
    fn reached(&self, nodes: u64) -> bool {
        nodes > self.nodes
            || (nodes.is_multiple_of(1024)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.stop.is_some_and(Interrupt::is_raised)))
    }
}

/// A position and the moves that led to it (per-move hooks read them).
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    rules: &'a Rulebook,
    pos: &'a Position,
    history: &'a [Move],
    /// The keys of the game's positions up to `pos`, for its repetition
    /// rule; empty when the position stands alone.
    keys: &'a [u64],
    /// The game's last search trees, to grow on (MCTS only).
    memory: Option<&'a RefCell<Memory>>,
    /// Where the method that chooses says what it found.
    report: Option<&'a RefCell<Report>>,
}

/// What a method says of the candidate moves.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    /// Play this one.
    Play(Move),
    /// The next method should choose among these: the others are proven
    /// worse.
    Among(Vec<Move>),
    /// The method cannot tell within its limits.
    Pass,
}

impl From<Option<Move>> for Answer {
    fn from(mv: Option<Move>) -> Answer {
        mv.map_or(Answer::Pass, Answer::Play)
    }
}

impl<'a> At<'a> {
    /// `pos`, reached by `history`, after the positions with `keys`.
    pub(crate) fn new(
        rules: &'a Rulebook,
        pos: &'a Position,
        history: &'a [Move],
        keys: &'a [u64],
    ) -> At<'a> {
        At {
            rules,
            pos,
            history,
            keys,
            memory: None,
            report: None,
        }
    }

    /// Says how the move was chosen, when someone asked.
    fn note(&self, report: Report) {
        if let Some(cell) = self.report {
            *cell.borrow_mut() = report;
        }
    }

    /// Says that `method` chose, and nothing more.
    fn noted(&self, method: &'static str) {
        self.note(Report {
            method,
            ..Report::default()
        });
    }
}

/// A way of choosing moves and valuing positions. Each lives in its own
/// module; [`methods`] picks them by the rulebook's shape.
trait Method {
    /// What the method makes of `candidates` (legal moves of `at`) for the
    /// side to move.
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError>;

    /// What the side to move can expect (1 a win, ½ a draw, 0 a loss), or
    /// `None` when the method cannot tell (a method that only picks moves).
    fn expected(
        &self,
        _at: &At<'_>,
        _rng: &mut Rng,
        _budget: Budget,
    ) -> Result<Option<f64>, ScriptError> {
        Ok(None)
    }
}

/// Line threats, one move deep (module `lines`).
struct Lines;
/// Threat-space search: continuous fours, then alpha-beta over the cells
/// that build and block the most (module `threats`).
struct ThreatSpace;
/// Retrograde analysis over every reachable position (module `retrograde`).
struct Retrograde;
/// Alpha-beta to the end of the game (module `exact`).
struct Exact;
/// Monte Carlo tree search (module `mcts`): hard's, with proven values and
/// a tree per thread, or plain UCT for medium.
struct Mcts {
    plain: bool,
}
/// Hard's MCTS.
const STRONG_MCTS: Mcts = Mcts { plain: false };
/// Medium's MCTS.
const PLAIN_MCTS: Mcts = Mcts { plain: true };

impl Method for Lines {
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        _: Budget,
    ) -> Result<Answer, ScriptError> {
        at.noted("lines");
        Ok(Answer::Play(lines::threat_move(
            at.rules, at.pos, candidates, rng,
        )))
    }
}

impl Method for ThreatSpace {
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        _: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let nodes = match budget {
            Budget::Playouts(n) => u64::from(n) * threats::NODES_PER_PLAYOUT,
            // About what this machine visits in the time.
            Budget::Time(d) => (d.as_secs_f64() * THREAT_NODES_PER_SECOND) as u64,
        };
        let mut search = threats::Threats::new(at.rules).with_nodes(nodes);
        let chosen = search.best(at.pos, at.history, candidates)?;
        let found = search.found;
        at.note(match found.fours_plies {
            Some(plies) => Report {
                method: "continuous fours",
                value: Some(Worth::Wins(plies)),
                ..Report::default()
            },
            None => Report {
                method: "alpha-beta",
                depth: found.depth,
                nodes: Some(search.nodes()),
                value: found.value.map(worth_of_alpha_beta),
            },
        });
        Ok(chosen.into())
    }
}

impl Method for Retrograde {
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        _: Budget,
    ) -> Result<Answer, ScriptError> {
        let Some(graph) = Graph::of_rulebook(at.rules, &Limit::nodes(u64::MAX))? else {
            return Ok(Answer::Pass);
        };
        let Some(ranked) = rank(&graph, at, candidates)? else {
            return Ok(Answer::Pass);
        };
        let best = ranked.iter().map(|&(_, r, _)| r).max();
        if let Some(&(_, _, v)) = ranked.iter().find(|&&(_, r, _)| Some(r) == best) {
            let me = at.pos.turn();
            at.note(Report {
                method: "retrograde",
                value: Some(match v {
                    Value::Win { side, plies } if side == me => Worth::Wins(plies + 1),
                    Value::Win { plies, .. } => Worth::Loses(plies + 1),
                    Value::Draw => Worth::Expected(0.5),
                }),
                ..Report::default()
            });
        }
        let top: Vec<Move> = ranked
            .iter()
            .filter(|&&(_, r, _)| Some(r) == best)
            .map(|&(m, _, _)| m)
            .collect();
        Ok(top.get(rng.below(top.len().max(1))).copied().into())
    }

    fn expected(&self, at: &At<'_>, _: &mut Rng, _: Budget) -> Result<Option<f64>, ScriptError> {
        let Some(graph) = Graph::of_rulebook(at.rules, &Limit::nodes(u64::MAX))? else {
            return Ok(None);
        };
        Ok(graph.value(at.pos).map(|v| score_of(v, at.pos.turn())))
    }
}

impl Method for Exact {
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        _: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let limit = Limit::of_budget(budget);
        Ok(
            match Solver::new(at.rules, at.history, limit).deepen(at.pos, candidates)? {
                Proof::Win(mv, plies) => {
                    at.note(Report {
                        method: "exact",
                        value: Some(Worth::Wins(plies)),
                        ..Report::default()
                    });
                    Answer::Play(mv)
                }
                Proof::Lost(mv) => {
                    at.noted("exact");
                    Answer::Play(mv)
                }
                Proof::Draws(draws) => {
                    at.note(Report {
                        method: "exact",
                        value: Some(Worth::Expected(0.5)),
                        ..Report::default()
                    });
                    draws.first().copied().into()
                }
                Proof::Open(open) if open.len() == 1 => {
                    at.noted("exact");
                    Answer::Play(open[0])
                }
                Proof::Open(open) if open.len() == candidates.len() => Answer::Pass,
                Proof::Open(open) => Answer::Among(open),
            },
        )
    }

    fn expected(&self, at: &At<'_>, _: &mut Rng, _: Budget) -> Result<Option<f64>, ScriptError> {
        let value =
            Solver::new(at.rules, at.history, Limit::nodes(SOLVE_NODES)).value_of(at.pos)?;
        Ok(value.map(|v| match v.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        }))
    }
}

impl Mcts {
    fn config(&self, rules: &Rulebook) -> mcts::Config {
        if self.plain {
            mcts::Config::PLAIN
        } else {
            mcts::Config::strong(rules)
        }
    }
}

impl Method for Mcts {
    fn best(
        &self,
        at: &At<'_>,
        candidates: &[Move],
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Answer, ScriptError> {
        let config = self.config(at.rules);
        let mut memory = at.memory.map(RefCell::borrow_mut);
        let found = mcts::mcts(
            at.rules,
            at.pos,
            at.history,
            candidates,
            rng,
            budget,
            config,
            memory.as_deref_mut(),
        )?;
        if let Some((_, value)) = found {
            at.note(Report {
                method: "mcts",
                value: Some(Worth::Expected(value)),
                ..Report::default()
            });
        }
        Ok(found.map(|(mv, _)| mv).into())
    }

    fn expected(
        &self,
        at: &At<'_>,
        rng: &mut Rng,
        budget: Budget,
    ) -> Result<Option<f64>, ScriptError> {
        let mut list = MoveList::new();
        at.rules.legal_moves(at.pos, at.history, &mut list)?;
        let config = self.config(at.rules);
        let found = mcts::mcts(
            at.rules, at.pos, at.history, &list, rng, budget, config, None,
        )?;
        Ok(found.map(|(_, value)| value))
    }
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

/// The methods for `level` on `pos`, by the rulebook's shape (never its
/// name), most exact first.
fn methods(rules: &Rulebook, pos: &Position, level: Level) -> &'static [&'static dyn Method] {
    if lines::suits(rules, pos) {
        return if level == Level::Hard && threats::Threats::applies(rules) {
            &[&ThreatSpace, &Lines]
        } else {
            &[&Lines]
        };
    }
    if level != Level::Hard {
        return &[&PLAIN_MCTS];
    }
    if rules.tables().repetition().is_some() {
        if Graph::applies(rules) {
            &[&Retrograde, &STRONG_MCTS]
        } else {
            &[&STRONG_MCTS]
        }
    } else if Solver::applies(rules) {
        &[&Exact, &STRONG_MCTS]
    } else {
        &[&STRONG_MCTS]
    }
}

/// The value of each of `candidates` from the mover's side, from `graph`
/// (a win sooner is better, a loss later is less bad), or `None` if the
/// graph lacks one of the positions they lead to.
fn rank(
    graph: &Graph,
    at: &At<'_>,
    candidates: &[Move],
) -> Result<Option<Vec<Ranked>>, ScriptError> {
    let me = at.pos.turn();
    let mut ranked = Vec::with_capacity(candidates.len());
    for &mv in candidates {
        let mut next = at.rules.play_unchecked(at.pos, at.history, mv)?;
        // The graph values positions alone; the game's repetition rule may
        // already make this one a draw.
        at.rules.settle_repetition(&mut next, at.keys);
        let v = if next.is_over() {
            match next.outcome() {
                Some(Outcome::Win(side)) => Value::Win { side, plies: 0 },
                _ => Value::Draw,
            }
        } else {
            match graph.value(&next) {
                Some(v) => v,
                None => return Ok(None),
            }
        };
        ranked.push((mv, rank_of(v, me), v));
    }
    Ok(Some(ranked))
}

/// A move, its value as a number for its mover (higher is better), and the
/// value of the position it leads to.
type Ranked = (Move, i64, Value);

/// A value as a number for `side`: higher is better.
fn rank_of(v: Value, side: Side) -> i64 {
    match v {
        Value::Draw => 0,
        Value::Win { side: s, plies } if s == side => i64::from(u32::MAX - plies),
        Value::Win { plies, .. } => -i64::from(u32::MAX - plies),
    }
}

/// A value as an expected score for `side`.
fn score_of(v: Value, side: Side) -> f64 {
    match v {
        Value::Draw => 0.5,
        Value::Win { side: s, .. } if s == side => 1.0,
        Value::Win { .. } => 0.0,
    }
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

/// A threat search's alpha-beta value as a worth: beyond half of
/// [`threats::WIN`] it counts the plies to the end (a win at ply `p`
/// scores `WIN - p`).
fn worth_of_alpha_beta(v: i32) -> Worth {
    use threats::WIN;
    if v >= WIN / 2 {
        Worth::Wins((WIN - v).unsigned_abs())
    } else if v <= -WIN / 2 {
        Worth::Loses((WIN + v).unsigned_abs())
    } else {
        Worth::Eval(v)
    }
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

/// A position's value under perfect play and the moves that keep it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The value, with the plies to the end when a side wins.
    pub value: Value,
    /// The legal moves that keep the value (a win still a win, a draw still
    /// at least a draw), best first; a lost position's moves all lose, and
    /// those that hold out longest are listed.
    pub moves: Vec<Move>,
}

/// What [`solve`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solved {
    /// The exact value.
    Exact(Solution),
    /// More positions than the exact methods hold, whatever the time.
    TooLarge,
    /// The time ran out (or the solve was interrupted) first.
    OutOfTime,
    /// No exact method applies: a repetition rule with per-move hooks (which
    /// may read the path) or with the pie rule (which exchanges players).
    Unsupported,
}

/// The exact value of `pos` (reached by `history`) within `within` of
/// computing, or why there is none. Games with a repetition rule are
/// solved over their graph of positions, others by alpha-beta. The
/// position stands alone; [`solve_in`] counts a game's repetitions.
///
/// # Errors
/// A failing per-move hook.
pub fn solve(
    rules: &Rulebook,
    pos: &Position,
    history: &[Move],
    within: Duration,
    stop: &Interrupt,
) -> Result<Solved, ScriptError> {
    let at = At::new(rules, pos, history, &[]);
    solve_at(&at, within, stop)
}

/// [`solve`] for a game's position: a move that would repeat a position
/// for the last time allowed is a draw.
///
/// # Errors
/// A failing per-move hook.
pub fn solve_in(game: &Game, within: Duration, stop: &Interrupt) -> Result<Solved, ScriptError> {
    let at = At::new(game.rulebook(), game.position(), game.moves(), game.keys());
    solve_at(&at, within, stop)
}

fn solve_at(at: &At<'_>, within: Duration, stop: &Interrupt) -> Result<Solved, ScriptError> {
    let (rules, pos, history) = (at.rules, at.pos, at.history);
    if let Some(o) = pos.outcome() {
        let value = match o {
            Outcome::Draw => Value::Draw,
            Outcome::Win(side) => Value::Win { side, plies: 0 },
        };
        return Ok(Solved::Exact(Solution {
            value,
            moves: Vec::new(),
        }));
    }
    let mut list = MoveList::new();
    rules.legal_moves(pos, history, &mut list)?;
    let moves = list.to_vec();
    let started = Instant::now();
    let limit = Limit::time(within, stop);
    let expired = || stop.is_raised() || started.elapsed() >= within;
    let me = pos.turn();
    let ranked = if rules.tables().repetition().is_some() || !Solver::applies(rules) {
        if !Graph::applies(rules) {
            return Ok(Solved::Unsupported);
        }
        let graph = match Graph::of_rulebook(rules, &limit)? {
            Some(g) if g.value(pos).is_some() => g,
            _ if expired() => return Ok(Solved::OutOfTime),
            _ => match Graph::build(rules, pos, &limit)? {
                Ok(g) => std::sync::Arc::new(g),
                Err(Unbuilt::TooLarge) => return Ok(Solved::TooLarge),
                Err(Unbuilt::OutOfTime) => return Ok(Solved::OutOfTime),
            },
        };
        match rank(&graph, at, &moves)? {
            Some(r) => r,
            None => return Ok(Solved::TooLarge),
        }
    } else {
        let Some(values) = Solver::new(rules, history, limit).values(pos, &moves)? else {
            return Ok(if expired() {
                Solved::OutOfTime
            } else {
                Solved::TooLarge
            });
        };
        moves
            .iter()
            .zip(values)
            .map(|(&m, v)| {
                // Values are the mover's, who after a swap plays the other side.
                let mover = if m == Move::Swap { me.other() } else { me };
                let value = match v.signum() {
                    0 => Value::Draw,
                    // Plies from the position the move leads to, as the graph counts.
                    1 => Value::Win {
                        side: mover,
                        plies: (WIN - v) as u32 - 1,
                    },
                    _ => Value::Win {
                        side: mover.other(),
                        plies: (WIN + v) as u32 - 1,
                    },
                };
                (m, rank_of(value, mover), value)
            })
            .collect()
    };
    Ok(solution(ranked).map_or(Solved::TooLarge, Solved::Exact))
}

/// The solution from each move's rank for its mover: the best move's
/// value one ply earlier, and the moves that keep it. `None` without moves.
fn solution(mut ranked: Vec<Ranked>) -> Option<Solution> {
    ranked.sort_by_key(|&(_, r, _)| std::cmp::Reverse(r));
    let &(_, best, best_value) = ranked.first()?;
    let value = match best_value {
        Value::Draw => Value::Draw,
        Value::Win { side, plies } => Value::Win {
            side,
            plies: plies + 1,
        },
    };
    let moves = ranked
        .into_iter()
        .filter(|&(_, r, _)| r.signum() == best.signum() && (best >= 0 || r == best))
        .map(|(m, _, _)| m)
        .collect();
    Some(Solution { value, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print() {
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>(), Ok(l));
        }
        assert!("expert".parse::<Level>().is_err());
    }

    /// Every position reachable from the initial one, found by the engine.
    fn reachable(rules: &Rulebook) -> Vec<Position> {
        let mut seen = std::collections::HashSet::new();
        let mut all = vec![rules.initial()];
        seen.insert(all[0].key());
        let mut list = MoveList::new();
        let mut i = 0;
        while i < all.len() {
            let pos = all[i];
            i += 1;
            if pos.is_over() {
                continue;
            }
            rules.legal_moves(&pos, &[], &mut list).unwrap();
            for &mv in list.iter() {
                let next = rules.play_unchecked(&pos, &[], mv).unwrap();
                if seen.insert(next.key()) {
                    all.push(next);
                }
            }
        }
        all
    }

    #[test]
    fn retrograde_agrees_with_alpha_beta_where_there_are_no_cycles() {
        for name in ["classic", "misere", "notakto", "wild"] {
            let rules = Rulebook::builtin(name).unwrap();
            let graph = Graph::of_rulebook(&rules, &Limit::unbounded())
                .unwrap()
                .expect("small");
            for pos in reachable(&rules) {
                let exact = Solver::new(&rules, &[], Limit::unbounded())
                    .value_of(&pos)
                    .unwrap()
                    .unwrap();
                let me = pos.turn();
                let expected = match exact.signum() {
                    0 => Value::Draw,
                    1 => Value::Win {
                        side: me,
                        plies: (WIN - exact) as u32,
                    },
                    _ => Value::Win {
                        side: me.other(),
                        plies: (WIN + exact) as u32,
                    },
                };
                let text = rules.position_text(&pos);
                assert_eq!(graph.value(&pos), Some(expected), "{name}: {text}");
            }
        }
    }

    /// The retrograde values of games with cycles, checked move by move: a
    /// win in `d` has a move to a win in `d - 1` (and none quicker); a loss
    /// in `d` has only moves to wins for the other side, the longest in
    /// `d - 1`; a draw has no winning move and some move that does not lose.
    /// Together with finite distances this proves every value.
    #[test]
    fn retrograde_values_hold_move_by_move_in_games_with_cycles() {
        for name in ["moving", "moving-jumps", "three-mens-morris"] {
            let rules = Rulebook::builtin(name).unwrap();
            let graph = Graph::of_rulebook(&rules, &Limit::unbounded())
                .unwrap()
                .expect("small");
            let mut list = MoveList::new();
            let mut drawn = 0;
            for pos in reachable(&rules) {
                let text = rules.position_text(&pos);
                let value = graph.value(&pos).unwrap();
                if let Some(o) = pos.outcome() {
                    let expected = match o {
                        Outcome::Draw => Value::Draw,
                        Outcome::Win(side) => Value::Win { side, plies: 0 },
                    };
                    assert_eq!(value, expected, "{name}: {text}");
                    continue;
                }
                let me = pos.turn();
                rules.legal_moves(&pos, &[], &mut list).unwrap();
                let children: Vec<Value> = list
                    .iter()
                    .map(|&m| {
                        graph
                            .value(&rules.play_unchecked(&pos, &[], m).unwrap())
                            .unwrap()
                    })
                    .collect();
                let wins = |side: Side| {
                    children.iter().filter_map(move |&v| match v {
                        Value::Win { side: s, plies } if s == side => Some(plies),
                        _ => None,
                    })
                };
                match value {
                    Value::Win { side, plies } if side == me => {
                        assert_eq!(wins(me).min(), Some(plies - 1), "{name}: {text}");
                    }
                    Value::Win { side, plies } => {
                        assert_eq!(wins(side).count(), children.len(), "{name}: {text}");
                        assert_eq!(wins(side).max(), Some(plies - 1), "{name}: {text}");
                    }
                    Value::Draw => {
                        drawn += 1;
                        assert_eq!(wins(me).count(), 0, "{name}: {text}");
                        assert!(children.contains(&Value::Draw), "{name}: {text}");
                    }
                }
            }
            assert!(
                drawn > 0,
                "{name}: no drawn position: the cycles go untested"
            );
        }
    }

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
