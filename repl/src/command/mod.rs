//! Commands, below the session that runs them: the registry ([`COMMANDS`],
//! one entry per command: name, usage, help, completion, transcript), the
//! reading of a line into a [`Command`], and nothing of the session.
//!
//! A new command is an entry in [`COMMANDS`] whose reader returns a new
//! [`Command`] variant, and the arm in the session's dispatch that runs
//! it; the dispatch's match is exhaustive, so the compiler asks for the arm.

mod complete;
mod help;
mod line;
mod parsed;
mod registry;
mod spec;
mod words;

pub use complete::{Candidates, complete};
pub use help::help;
pub use line::{Invocation, parse};
pub use parsed::{ArenaMatch, Command, DrawAction};
pub use registry::{COMMANDS, spec};
pub use spec::{Arg, Args, CommandSpec, Log, Parse, ParseError};
