//! Computer players, for every rulebook, driven only by the engine API.
//!
//! A search is asked through [`choose()`] with one [`Request`]: the level,
//! the budget, a deadline, and, if the caller keeps them, a game's search
//! trees ([`Memory`]) and a [`Report`] of what it found. It starts from a
//! game or a position ([`At`]). The request's deadline and its scripts'
//! budget go with it to every method it asks and every thread it starts.
//!
//! Every level takes a win it sees. `easy` otherwise plays at random;
//! `medium` avoids moves that let the opponent win at once and now and then
//! plays a random move; `hard` asks the methods that suit the rulebook's
//! shape, in order, until one answers:
//!
//! | shape | methods | module |
//! |---|---|---|
//! | wide board, own marks placed one a turn, k or more in a row wins, nothing else | threat sequences and alpha-beta on a board kept move by move (hard), line threats | `rows`, `lines` |
//! | other wide boards, own marks placed, a line wins | threat-space search (hard), line threats | `threats`, `lines` |
//! | a repetition rule (games with cycles) | retrograde analysis, then MCTS | `retrograde`, `mcts` |
//! | anything else | alpha-beta, then MCTS | `exact`, `mcts` |
//!
//! The exact methods give up beyond their limits and the next method
//! answers. [`solve()`] reports an exact value, or that the game is too large.
//! Around the methods: `request` (what a search is asked and the limits it
//! sets), `choose` (the levels), `methods` (which methods suit a rulebook
//! and how their answers rank the moves), `solve`, and `fallback` (moves
//! found without search).
//!
//! ```
//! use gridrules_core::Rulebook;
//! use gridrules_core::interrupt::Interrupt;
//! use gridrules_core::search::{At, Solved, Value, solve};
//! use std::time::Duration;
//!
//! let rules = Rulebook::builtin("classic").unwrap();
//! let start = rules.initial();
//! let solved = solve(At::new(&rules, &start, &[]), Duration::from_secs(5), &Interrupt::new()).unwrap();
//! let Solved::Exact(solution) = solved else { panic!("classic is small") };
//! assert_eq!(solution.value, Value::Draw);
//! assert_eq!(solution.moves.len(), 9); // every first move keeps the draw
//! ```

mod choose;
mod exact;
mod fallback;
mod kept;
mod lines;
mod mcts;
mod methods;
mod report;
mod request;
mod retrograde;
mod rows;
mod solve;
mod table;
mod tactics;
mod threats;

pub use choose::{accepts_draw, choose, continuous_fours, plain_uct};
pub use exact::MAX_DEPTH;
pub use fallback::{at_once, at_once_among, by_tables};
pub use mcts::Memory;
pub use report::{Report, Worth};
pub use request::{At, Budget, Level, Request, SEARCH_CAP};
pub use retrograde::{MAX_POSITIONS, Value};
pub use solve::{Shown, Solution, Solved, Won, solve, solve_watched};
pub use table::{MAX_TABLE_POSITIONS, Stage};

use request::{Limit, Until};
