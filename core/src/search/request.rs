//! What a search is asked ([`Request`]) and from where ([`At`]), and what
//! bounds each method it asks: the request's deadline, its scripts' budget,
//! and for the exact methods a [`Limit`].

use super::{Memory, Report};
use crate::game::Game;
use crate::interrupt::Interrupt;
use crate::position::{Move, Position};
use crate::rulebook::Rulebook;
use crate::script::ScriptBudget;
use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// The budget in playouts that gives five-in-a-row's search (the row
    /// search) `nodes` alpha-beta nodes; other searches get a thirtieth
    /// of `nodes` in playouts.
    pub fn of_nodes(nodes: u64) -> Budget {
        let playouts = nodes.div_ceil(super::rows::NODES_PER_PLAYOUT).max(1);
        Budget::Playouts(u32::try_from(playouts).unwrap_or(u32::MAX))
    }

    pub(super) fn scaled_down(self, by: u32) -> Budget {
        match self {
            Budget::Time(d) => Budget::Time(d / by),
            Budget::Playouts(n) => Budget::Playouts((n / by).max(1)),
        }
    }

    /// How long a search on this budget may take at most: [`SEARCH_CAP`],
    /// past a time budget's own end.
    fn cap(self) -> Duration {
        match self {
            Budget::Time(d) => d + SEARCH_CAP,
            Budget::Playouts(_) => SEARCH_CAP,
        }
    }
}

/// Alpha-beta nodes a proof search may visit per playout of the budget
/// (20 000 playouts: 400 000 nodes).
pub(super) const NODES_PER_PLAYOUT: u64 = 20;
/// Wall-clock time any one search may take, whatever its budget in nodes or
/// playouts says: slow per-move hooks must not stall the table. Within it a
/// seed gives the same move on every machine; a search cut by it does not.
/// Six times the built-in rulebooks' second, so that a loaded machine
/// keeps their moves repeatable, and below the command's 10 s of script
/// time, so that a slow hook rulebook still gets its move.
pub const SEARCH_CAP: Duration = Duration::from_secs(6);

/// Why a script is stopped at a search's deadline (the search then
/// chooses with what it found before).
pub(crate) const SEARCH_STOPPED: &str = "the search stops at its deadline";

/// Where a search starts: a position, the moves that reached it (per-move
/// hooks read them), and the keys of the game's positions up to it (its
/// repetition rule counts them). A [`Game`] gives all three.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub(super) rules: &'a Rulebook,
    pub(super) pos: &'a Position,
    pub(super) history: &'a [Move],
    /// The keys of the game's positions up to `pos`, for its repetition
    /// rule; empty when the position stands alone.
    pub(super) keys: &'a [u64],
}

impl<'a> At<'a> {
    /// `pos` of `rules`, reached by `history` (see
    /// [`Rulebook::legal_moves`]), standing alone: no earlier position
    /// counts towards a repetition.
    pub fn new(rules: &'a Rulebook, pos: &'a Position, history: &'a [Move]) -> At<'a> {
        At {
            rules,
            pos,
            history,
            keys: &[],
        }
    }

    /// The same position after the game's positions with `keys` (their
    /// [`Position::key`]s, the current one last), which its repetition rule
    /// counts: a move that would repeat a position for the last time
    /// allowed is a draw, whatever the position is worth alone.
    #[must_use]
    pub fn after(self, keys: &'a [u64]) -> At<'a> {
        At { keys, ..self }
    }
}

impl<'a> From<&'a Game> for At<'a> {
    /// The game's position, after the game's positions.
    fn from(game: &'a Game) -> At<'a> {
        At::new(game.rulebook(), game.position(), game.moves()).after(game.keys())
    }
}

/// What a search is asked: a move at a level within a budget, stopped by a
/// deadline, optionally growing a game's kept trees and saying what it
/// found. One value, handed down to every method the search asks and to
/// every thread it starts.
#[derive(Debug)]
pub struct Request<'a> {
    level: Level,
    budget: Budget,
    deadline: Option<Instant>,
    stop: Option<&'a Interrupt>,
    memory: Option<&'a mut Memory>,
    report: Option<&'a mut Report>,
    scripts: ScriptBudget,
    threads: usize,
}

impl<'a> Request<'a> {
    /// A move at `level` within about `budget`, stopped at the latest
    /// [`SEARCH_CAP`] after the search starts (past a time budget's end).
    /// The scripts' budget of the work on this thread
    /// ([`ScriptBudget::current`]) goes with the request: it holds on every
    /// thread the search runs scripts on.
    pub fn new(level: Level, budget: Budget) -> Request<'a> {
        Request {
            level,
            budget,
            deadline: None,
            stop: None,
            memory: None,
            report: None,
            scripts: ScriptBudget::current(),
            threads: crate::cores(),
        }
    }

    /// Lets a search by the clock use `threads` threads (every core unless
    /// told): fewer where several searches run at once, as an arena's
    /// games do.
    #[must_use]
    pub fn threads(self, threads: usize) -> Request<'a> {
        Request {
            threads: threads.max(1),
            ..self
        }
    }

    /// Stops the search by `by` instead of [`SEARCH_CAP`] after its start:
    /// every method stops then (it reads the clock every thousand nodes or
    /// so) and answers with what it has, for a caller whose clock is not
    /// the table's — a program speaking a tournament protocol with a time
    /// per move. Of two deadlines the sooner holds.
    #[must_use]
    pub fn deadline(self, by: Instant) -> Request<'a> {
        Request {
            deadline: Some(self.deadline.map_or(by, |d| d.min(by))),
            ..self
        }
    }

    /// Stops the search when `stop` is raised (the REPL's Ctrl-C): every
    /// method stops as at a deadline, and the report says it was cut.
    #[must_use]
    pub fn stop(self, stop: &'a Interrupt) -> Request<'a> {
        Request {
            stop: Some(stop),
            ..self
        }
    }

    /// Grows MCTS on the trees of the game's last search kept in `memory`
    /// (tree reuse), and keeps this search's trees there for the next.
    #[must_use]
    pub fn memory(self, memory: &'a mut Memory) -> Request<'a> {
        Request {
            memory: Some(memory),
            ..self
        }
    }

    /// Writes what the search found on the way into `report` (for a status
    /// line such as the Gomocup brain's `MESSAGE`).
    #[must_use]
    pub fn report(self, report: &'a mut Report) -> Request<'a> {
        Request {
            report: Some(report),
            ..self
        }
    }

    /// Runs `work` as this request's search from `at`, given the level and
    /// the budget: the deadline is fixed now, for every method it asks;
    /// the trees and the report are lent to the methods through cells and
    /// put back after; the scripts' budget holds on this thread too.
    pub(super) fn run<T>(
        self,
        at: At<'_>,
        work: impl FnOnce(&Search<'_>, Level, Budget) -> T,
    ) -> T {
        let Request {
            level,
            budget,
            deadline,
            stop,
            memory,
            report,
            scripts,
            threads,
        } = self;
        let mut deadline = deadline.unwrap_or_else(|| Instant::now() + budget.cap());
        // A search that per-move hooks keep busy must end before the
        // scripts' own budget (a command's 10 s) does, with time left to
        // play its move: a search stopped by that budget fails, and plays
        // nothing. The time left is a hook call's, or a fifth of what the
        // budget has (a brain's turn is short, and keeps margins of its own).
        if at.rules.has_per_move_hooks()
            && let Some(end) = scripts.end()
        {
            let left = end.saturating_duration_since(Instant::now());
            let margin = Duration::from_secs(crate::script::HOOK_SECONDS).min(left / 5);
            deadline = deadline.min(end.checked_sub(margin).unwrap_or(end));
        }
        // Only a budget counted in playouts promises the same move for a
        // seed: a search on one that the deadline or a stop ends is cut.
        let cut = AtomicBool::new(false);
        let until = Until {
            deadline: Some(deadline),
            stop,
            cut: matches!(budget, Budget::Playouts(_)).then_some(&cut),
        };
        // A per-move hook slow enough that one playout outlasts the
        // deadline would hold the search past it: the scripts stop there
        // too, and the choice is made with what was found before.
        let scripts = scripts.min(ScriptBudget::until(deadline, SEARCH_STOPPED));
        let mut memory = memory;
        let trees = memory
            .as_deref_mut()
            .map(|m| RefCell::new(std::mem::take(m)));
        let found = report.as_ref().map(|_| RefCell::new(Report::default()));
        let search = Search {
            at,
            until,
            scripts: &scripts,
            memory: trees.as_ref(),
            report: found.as_ref(),
            threads,
        };
        let result = scripts.run(|| work(&search, level, budget));
        if let (Some(m), Some(trees)) = (memory, trees) {
            *m = trees.into_inner();
        }
        if let (Some(r), Some(found)) = (report, found) {
            *r = Report {
                cut: cut.load(Ordering::Relaxed),
                ..found.into_inner()
            };
        }
        result
    }
}

/// A request under way: where it searches from, what bounds every method
/// it asks, and where the methods keep what they found.
#[derive(Clone, Copy)]
pub(super) struct Search<'a> {
    pub(super) at: At<'a>,
    /// When every method must stop: the request's deadline, or its cap,
    /// or its stop.
    pub(super) until: Until<'a>,
    /// The scripts' budget, for the threads a method starts.
    pub(super) scripts: &'a ScriptBudget,
    /// The game's last search trees, to grow on (MCTS only).
    pub(super) memory: Option<&'a RefCell<Memory>>,
    /// Where the method that chooses says what it found.
    report: Option<&'a RefCell<Report>>,
    /// The threads a search by the clock may use.
    pub(super) threads: usize,
}

impl<'a> Search<'a> {
    /// The same search from `at`, with no trees and no report: for the
    /// value of a position that the choice only weighs.
    pub(super) fn weighing(self, at: At<'a>) -> Search<'a> {
        Search {
            at,
            memory: None,
            report: None,
            ..self
        }
    }

    /// Says how the move was chosen, when someone asked.
    pub(super) fn note(&self, report: Report) {
        if let Some(cell) = self.report {
            *cell.borrow_mut() = report;
        }
    }

    /// `result`, or `None` where a script failed because the search's
    /// deadline passed while it ran (a per-move hook slower than the
    /// time left): the caller then chooses with what it has.
    pub(super) fn unless_stopped<T>(
        &self,
        result: Result<T, crate::error::ScriptError>,
    ) -> Result<Option<T>, crate::error::ScriptError> {
        match result {
            Ok(found) => Ok(Some(found)),
            Err(_) if self.until.passed() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The move chosen among `moves` when the deadline stopped a script:
    /// by the rulebook's tables, which run none, where they judge the
    /// game (a line to make or to block, else the best-placed cell); else
    /// the first, the best known then (the search's order, or the legal
    /// order before any method ran).
    pub(super) fn stopped(&self, moves: &[Move], rng: &mut crate::playout::Rng) -> Move {
        self.noted("stopped at its deadline");
        super::fallback::by_tables_at(self.at.rules, self.at.pos, Some(moves), rng)
            .unwrap_or(moves[0])
    }

    /// Says that `method` chose, and nothing more.
    pub(super) fn noted(&self, method: &'static str) {
        self.note(Report {
            method,
            ..Report::default()
        });
    }
}

/// When every method of a search must stop, whatever its budget says: a
/// deadline, a raised [`Interrupt`], or neither; and where to say that one
/// of them ended a search whose budget is counted (its move may then not
/// repeat for its seed).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Until<'a> {
    deadline: Option<Instant>,
    stop: Option<&'a Interrupt>,
    cut: Option<&'a AtomicBool>,
}

impl<'a> Until<'a> {
    /// Never: the methods' own limits alone.
    pub(crate) fn never() -> Until<'a> {
        Until::default()
    }

    /// At `deadline`.
    pub(crate) fn at(deadline: Instant) -> Until<'a> {
        Until {
            deadline: Some(deadline),
            ..Until::default()
        }
    }

    /// At `deadline` or when `stop` is raised.
    pub(crate) fn at_or_stopped(deadline: Instant, stop: &'a Interrupt) -> Until<'a> {
        Until {
            stop: Some(stop),
            ..Until::at(deadline)
        }
    }

    /// This, or `at` if that is sooner.
    #[must_use]
    pub(crate) fn sooner(self, at: Instant) -> Until<'a> {
        Until {
            deadline: Some(self.deadline.map_or(at, |d| d.min(at))),
            ..self
        }
    }

    /// Whether the search must stop now; says so where it was asked to.
    pub(crate) fn passed(&self) -> bool {
        let passed = self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.stop.is_some_and(Interrupt::is_raised);
        if passed && let Some(cut) = self.cut {
            cut.store(true, Ordering::Relaxed);
        }
        passed
    }
}

/// When an exact method gives up: after so many nodes, or when its
/// [`Until`] has passed.
pub(crate) struct Limit<'a> {
    nodes: u64,
    until: Until<'a>,
}

impl<'a> Limit<'a> {
    /// A count of nodes: the same answer on every machine.
    pub(super) fn nodes(nodes: u64) -> Limit<'a> {
        Limit {
            nodes,
            until: Until::never(),
        }
    }

    /// This limit, and stop when `until` has passed (a search's deadline).
    #[must_use]
    pub(super) fn within(self, until: Until<'a>) -> Limit<'a> {
        Limit { until, ..self }
    }

    /// What `budget` allows a proof search before the next method, within
    /// `until`: nodes in proportion to playouts, or half of a time.
    pub(super) fn of_budget(budget: Budget, until: Until<'a>) -> Limit<'a> {
        match budget {
            Budget::Playouts(n) => Limit::nodes(u64::from(n) * NODES_PER_PLAYOUT).within(until),
            Budget::Time(d) => Limit::nodes(u64::MAX).within(until.sooner(Instant::now() + d / 2)),
        }
    }

    /// This limit with `spent` of its nodes used (by a method before).
    #[must_use]
    pub(super) fn less(self, spent: u64) -> Limit<'a> {
        Limit {
            nodes: self.nodes.saturating_sub(spent),
            ..self
        }
    }

    /// No limit but the methods' own.
    #[cfg(test)]
    pub(super) fn unbounded() -> Limit<'a> {
        Limit::nodes(u64::MAX)
    }

    /// A time, cut short by `stop`.
    pub(super) fn time(within: Duration, stop: &'a Interrupt) -> Limit<'a> {
        Limit::nodes(u64::MAX).within(Until::at_or_stopped(Instant::now() + within, stop))
    }

    /// Whether the time ran out or the stop was raised, whatever the nodes:
    /// for a method that counts no nodes, asked between chunks of work.
    pub(super) fn ran_out(&self) -> bool {
        self.until.passed()
    }

    /// Whether a method that has visited `nodes` should stop; the clock and
    /// the flag are read every 1024 nodes.
    pub(super) fn reached(&self, nodes: u64) -> bool {
        nodes > self.nodes || (nodes.is_multiple_of(1024) && self.until.passed())
    }
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
}
