//! A generic grid engine for the tic-tac-toe family.
//!
//! A variant is a rulebook: a TOML file plus the Rhai script it names. The
//! script's load-time hooks (lines, winning runs, steps, jumps, regions,
//! redirect, …) are evaluated once and compiled into tables; play then runs on
//! compact `Copy` positions without entering the interpreter, unless the
//! script defines a per-move hook (`refuse`, `outcome`), which each move
//! then calls.
//!
//! ```
//! use std::sync::Arc;
//! use gridrules_core::{Game, Outcome, Rulebook, Side};
//!
//! let classic = Arc::new(Rulebook::builtin("classic")?);
//! let mut game = Game::new(classic);
//! for text in ["a1", "b1", "a2", "b2", "a3"] {
//!     let mv = game.parse_move(text)?;
//!     game.play(mv)?;
//! }
//! assert_eq!(game.outcome(), Some(Outcome::Win(Side::X)));
//! assert_eq!(game.outcome().unwrap().to_string(), "X wins");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod arena;
pub mod bits;
pub mod builtin;
pub mod check;
pub mod error;
pub mod files;
pub mod game;
pub mod geometry;
pub mod gomocup;
pub mod interrupt;
mod kernel;
pub mod mechanics;
pub mod notation;
pub mod openings;
pub mod ordinal;
pub mod perft;
pub mod playout;
pub mod position;
pub mod program;
pub mod record;
pub mod refusal;
pub mod rng;
pub mod rulebook;
pub mod rules;
pub mod script;
pub mod search;
pub mod setup;
pub mod setup_error;
pub mod suggest;
pub mod table;
pub mod turns;

pub use error::{
    Location, Problem, ProblemKind, RulebookError, ScriptError, ScriptErrorKind, Snippet, Source,
};
pub use game::Game;
pub use geometry::{Cell, CellSet, Grid};
pub use notation::ParseMoveError;
pub use position::{Ages, BySide, Ending, Move, MoveList, Outcome, Position, Removal, Side};
pub use refusal::{PlayError, Refusal};
pub use rng::Rng;
pub use rulebook::Rulebook;
pub use setup_error::{SetupError, SetupErrorKind};

/// The cores the program may use at once: how many threads `perft`, the
/// all-cores `bench` round and `arena` start (1 where the machine cannot
/// tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}
