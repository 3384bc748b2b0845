//! What a search is asked: the level, the budget, and when it must stop.

use super::{Memory, Report};
use crate::interrupt::Interrupt;
use crate::position::{Move, Position};
use crate::rulebook::Rulebook;
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
    pub(super) fn scaled_down(self, by: u32) -> Budget {
        match self {
            Budget::Time(d) => Budget::Time(d / by),
            Budget::Playouts(n) => Budget::Playouts((n / by).max(1)),
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
thread_local! {
    /// When the move being chosen on this thread must be ready.
    static DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `search` with this thread's deadline [`SEARCH_CAP`] from now (past
/// a time budget's own end), unless an outer search set one: the cap holds
/// for a whole choice, however many methods it asks.
pub(super) fn capped<T>(budget: Budget, search: impl FnOnce() -> T) -> T {
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
pub(super) fn deadline() -> Option<Instant> {
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
    pub(super) fn nodes(nodes: u64) -> Limit<'a> {
        Limit {
            nodes,
            deadline: deadline(),
            stop: None,
        }
    }

    /// What `budget` allows a proof search before the next method: nodes
    /// in proportion to playouts, or half of a time.
    pub(super) fn of_budget(budget: Budget) -> Limit<'a> {
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
    pub(super) fn unbounded() -> Limit<'a> {
        Limit {
            nodes: u64::MAX,
            deadline: None,
            stop: None,
        }
    }

    /// A time, cut short by `stop`.
    pub(super) fn time(within: Duration, stop: &'a Interrupt) -> Limit<'a> {
        Limit {
            nodes: u64::MAX,
            deadline: Some(Instant::now() + within),
            stop: Some(stop),
        }
    }

    /// Whether a method that has visited `nodes` should stop; the clock and
    /// the flag are read every 1024 nodes.
    pub(super) fn reached(&self, nodes: u64) -> bool {
        nodes > self.nodes
            || (nodes.is_multiple_of(1024)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.stop.is_some_and(Interrupt::is_raised)))
    }
}

/// A position and the moves that led to it (per-move hooks read them).
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    pub(super) rules: &'a Rulebook,
    pub(super) pos: &'a Position,
    pub(super) history: &'a [Move],
    /// The keys of the game's positions up to `pos`, for its repetition
    /// rule; empty when the position stands alone.
    pub(super) keys: &'a [u64],
    /// The game's last search trees, to grow on (MCTS only).
    pub(super) memory: Option<&'a RefCell<Memory>>,
    /// Where the method that chooses says what it found.
    pub(super) report: Option<&'a RefCell<Report>>,
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
    pub(super) fn note(&self, report: Report) {
        if let Some(cell) = self.report {
            *cell.borrow_mut() = report;
        }
    }

    /// Says that `method` chose, and nothing more.
    pub(super) fn noted(&self, method: &'static str) {
        self.note(Report {
            method,
            ..Report::default()
        });
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
