//! Why a command was refused, as data: `render` draws it for people.

use crate::command::ParseError;
use gridrules_core::record::RecordError;
use gridrules_core::setup::SetupError;
use gridrules_core::{ParseMoveError, PlayError, RulebookError, ScriptError};
use std::fmt;

/// A command that was refused. The session is unchanged.
#[derive(Debug)]
pub enum CommandError {
    /// The line is not a command.
    Parse(ParseError),
    /// The move text is not a move.
    Move(ParseMoveError),
    /// The move is not allowed (the text is the move as typed).
    Play(String, PlayError),
    /// A rulebook did not load.
    Rulebook(RulebookError),
    /// A position text was refused.
    Setup(SetupError),
    /// A script failed while answering the command.
    Script(ScriptError),
    /// A game record could not be saved or opened.
    Record(RecordError),
    /// Documented examples failed: the report's lines, and how many failed.
    Check(Vec<String>, usize),
    /// Anything else, in words.
    Other(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Parse(e) => e.fmt(f),
            CommandError::Move(e) => e.fmt(f),
            CommandError::Play(mv, e) => write!(f, "{mv}: {e}"),
            CommandError::Rulebook(e) => e.fmt(f),
            CommandError::Setup(e) => write!(f, "setup: {e}"),
            CommandError::Script(e) => e.fmt(f),
            CommandError::Record(e) => e.fmt(f),
            CommandError::Check(_, failed) => {
                write!(
                    f,
                    "check: {failed} example{} failed",
                    if *failed == 1 { "" } else { "s" }
                )
            }
            CommandError::Other(e) => f.write_str(e),
        }
    }
}

impl From<ParseError> for CommandError {
    fn from(e: ParseError) -> CommandError {
        CommandError::Parse(e)
    }
}

impl From<ScriptError> for CommandError {
    fn from(e: ScriptError) -> CommandError {
        CommandError::Script(e)
    }
}

impl From<RulebookError> for CommandError {
    fn from(e: RulebookError) -> CommandError {
        CommandError::Rulebook(e)
    }
}

impl From<RecordError> for CommandError {
    fn from(e: RecordError) -> CommandError {
        CommandError::Record(e)
    }
}
