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

mod choose;
mod exact;
mod lines;
mod mcts;
mod methods;
mod report;
mod request;
mod retrograde;
mod solve;
mod tactics;
mod threats;

pub(crate) use choose::choose_at;
pub use choose::{
    accepts_draw, at_once, at_once_among, by_tables, choose, choose_after, choose_in,
    choose_reported, continuous_fours, expected_score, plain_uct,
};
pub use mcts::Memory;
pub use report::{Report, Worth};
pub(crate) use request::At;
pub use request::{Budget, Level, SEARCH_CAP, within};
pub use retrograde::Value;
pub use solve::{Solution, Solved, solve, solve_in};

use request::{Limit, deadline};
