//! Commands, below the session that runs them and knowing nothing of it:
//!
//! - `registry.rs`: [`COMMANDS`], every command once: its name, aliases,
//!   usage, help text, what completes its argument, whether the transcript
//!   keeps it, and how its arguments are read;
//! - `entry.rs`: the shape of an entry ([`CommandSpec`]) and the reader of
//!   its arguments ([`Args`], refusing with a [`ParseError`]);
//! - `words.rs`: the longer argument readers;
//! - `parsed.rs`: [`Command`], a line read into data;
//! - `line.rs`: [`parse`], from a line to an [`Invocation`];
//! - `help.rs`, `complete.rs`: `help` and completion, read from the registry.
//!
//! A new command is an entry in [`COMMANDS`] whose reader returns a new
//! [`Command`] variant, and the arm in the session's dispatch that runs
//! it: that match is exhaustive, so the compiler asks for the arm.

mod complete;
mod entry;
pub mod help;
mod line;
mod parsed;
mod registry;
mod words;

pub use complete::{Candidates, Known, complete};
pub use entry::{Arg, Args, Ask, CommandSpec, Log, Parse, ParseError, Place, Want, split_words};
pub use help::help;
pub use line::{Invocation, NO_REPLY, parse, parse_on};
pub use parsed::{ArenaMatch, Command, DrawAction};
pub use registry::{COMMANDS, spec};
