//! Why a command was refused, as data: each variant holds what a caller
//! may match on, and `Display` (with `render` for the diagnostics) is the
//! only place it becomes words.

use crate::command::{DrawAction, ParseError};
use crate::scaffold::ScaffoldError;
use gridrules_core::arena::MatchError;
use gridrules_core::record::RecordError;
use gridrules_core::search::Level;
use gridrules_core::setup::SetupError;
use gridrules_core::{
    Ending, ParseMoveError, PlayError, Refusal, RulebookError, ScriptError, Side,
};
use std::fmt;
use std::path::PathBuf;

/// A command that was refused. The session is unchanged (but for a move
/// the clock made first: see `Session::take_pending`).
#[derive(Debug)]
#[non_exhaustive]
pub enum CommandError {
    /// The line is not a command, or its arguments do not fit.
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
    /// A player program or a rulebook's script failed in an `arena`
    /// match, and where the games finished before it were saved, if they
    /// were (`--save`).
    Arena(Box<MatchError>, Option<String>),
    /// `arena --openings`: the file could not be read (`line` 0) or holds
    /// a move refused where it stands.
    Openings {
        /// The file as given.
        path: PathBuf,
        /// Where, from 1; 0 for the file as a whole.
        line: usize,
        /// The column, from 1.
        col: usize,
        /// Why.
        message: String,
    },
    /// `new-variant` wrote nothing (a `--from` rulebook that does not load
    /// is [`CommandError::Rulebook`]).
    Scaffold(ScaffoldError),
    /// The rules refuse the command (the game is over, say): the command,
    /// the refusal, and the rulebook's words for it (its `[refusals]` may
    /// reword the engine's).
    Refused {
        /// The command's name.
        command: &'static str,
        /// What the rules refuse.
        refusal: Refusal,
        /// The rulebook's words for it.
        reason: String,
    },
    /// A command that plays, typed after the time for the move ran out
    /// (the clock has made the move). Holds the line.
    TimeRanOut(String),
    /// `ai` or `hint` with no legal move. Holds the command's name.
    NoLegalMove(&'static str),
    /// A move typed for a side the computer plays.
    ComputersTurn {
        /// The move as typed.
        mv: String,
        /// The side to move.
        side: Side,
        /// The computer's level there.
        level: Level,
    },
    /// `undo` refused.
    Undo(UndoError),
    /// `redo` with nothing taken back on the game's line.
    NothingToRedo,
    /// A move written in words apart (`c3 1+`), with the move they make
    /// written together, where that is a legal one (`c3/1+`).
    SpacedMove {
        /// The words as typed.
        text: String,
        /// The legal move they make joined, if one does.
        joined: Option<String>,
        /// Whether a turn may be several marks (joined by commas).
        turns_of_marks: bool,
    },
    /// Marks joined by commas with nothing between two of them, or at an
    /// end (`a1,`). Holds the text as typed.
    EmptyMark(String),
    /// Marks joined by commas that run past the mover's turn.
    TurnOver {
        /// The marks as typed.
        text: String,
        /// The marks the turn had.
        marks: usize,
    },
    /// `draw` refused (with the game still on).
    Draw(DrawError),
    /// `clock`, `ready`, `pause`, `resume` or `wait` refused.
    Clock(ClockError),
    /// `vs`, `first` or `name` refused.
    Seat(SeatError),
    /// A choice for the game made after its first move.
    TooLateToChoose(Choice),
    /// `again` while the game is still on.
    GameOn,
    /// Ctrl-C stopped `perft`. Holds the depth.
    PerftStopped(u32),
    /// Ctrl-C stopped `solve`.
    SolveStopped,
    /// Ctrl-C stopped `check`: the examples under way were cut short.
    CheckStopped,
    /// Ctrl-C stopped `bench` before a game ended.
    BenchStopped,
    /// A command that needs a game on, after the result: what it would
    /// have done, and the result.
    Over(Unfinished, gridrules_core::Outcome),
    /// `resign X` where X is the computer's side against a person.
    ComputersSide {
        /// The side named.
        side: Side,
        /// The computer's level on it.
        level: Level,
        /// The person's side.
        human: Side,
    },
    /// Ctrl-C stopped the computer's search (`ai`, `hint`): nothing was
    /// played. Holds the command's name.
    ThinkStopped(&'static str),
    /// `save` to a path that is not a `.toml` file. Holds the path.
    NotARecordFile(PathBuf),
    /// `save` without `--force` over a record of another game: one this
    /// game was neither opened from nor saved to. Holds the path.
    OtherGame(PathBuf),
    /// `record off` with nothing being recorded.
    NotRecording,
    /// `reload` of a built-in rulebook, which has no file. Holds its name.
    BuiltinReload(String),
    /// `load` of a built-in rulebook's name where no such file is. Holds
    /// the name.
    BuiltinLoad(String),
}

/// Why `undo` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoError {
    /// The game ended off the board, which is final: how it ended (a
    /// resignation or an agreed draw).
    Final(Ending),
    /// No move has been played.
    NothingPlayed,
    /// Only the computer's opening move is left, and it would make it again.
    ComputerOpening,
}

/// Why `draw` was refused, with the game still on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawError {
    /// `draw accept` or `draw decline` with no offer to answer. Holds the
    /// answer.
    NoOffer(DrawAction),
    /// `draw offer` while an offer waits for an answer.
    Waiting,
    /// A second offer in the same move (T3). Holds the side offering.
    OfferedThisMove(Side),
}

/// Why a clock command was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockError {
    /// More seconds than any clock allows.
    TooLong {
        /// The seconds asked.
        seconds: u32,
        /// The most there are.
        max: u32,
    },
    /// Seconds the rulebook does not offer.
    NotOffered {
        /// The seconds asked.
        seconds: u32,
        /// The seconds per move it offers.
        offered: Vec<u32>,
    },
    /// `ready`, `pause` or `resume` with the clock off. Holds the command.
    Off(&'static str),
    /// `ready`, `pause` or `resume` after the result. Holds the command.
    GameOver(&'static str),
    /// `ready` with the clock running.
    Running,
    /// `pause` with the clock paused.
    Paused,
    /// `pause` before the clock has started.
    NotStarted,
    /// `resume` with the clock not paused.
    NotPaused,
    /// `wait` at the REPL, where time is real.
    RealTime,
}

/// Why `vs`, `first` or `name` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatError {
    /// `vs` in mid-game between two people, without the mark the person
    /// keeps. Holds the level asked.
    WhichMark(Level),
    /// `name`: the other seat has that name. Holds it.
    NameTaken(String),
    /// `first`: no seat has that name.
    NoSuchSeat {
        /// The name asked.
        name: String,
        /// The seats' names, seat 1 first.
        seats: [String; 2],
    },
}

/// What a command would have done with a game still on; said when it is
/// asked for after the result (not as a move refused: nothing was moved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfinished {
    /// `hint`: suggest a move.
    Suggest,
    /// `solve`: value the position.
    Solve,
    /// `resign`.
    Resign,
    /// `draw` and its answers.
    Draw,
}

impl Unfinished {
    /// The command's name, as the error line starts.
    pub fn command(self) -> &'static str {
        match self {
            Unfinished::Suggest => "hint",
            Unfinished::Solve => "solve",
            Unfinished::Resign => "resign",
            Unfinished::Draw => "draw",
        }
    }

    /// What is not left to do.
    fn nothing(self) -> &'static str {
        match self {
            Unfinished::Suggest => "there is no move left to suggest",
            Unfinished::Solve => "there is nothing left to solve",
            Unfinished::Resign => "there is nothing to resign",
            Unfinished::Draw => "there is no game left to draw",
        }
    }
}

/// A choice for the game that is made before its first move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// The clock (also after the result, for the next game).
    Clock,
    /// The pie rule.
    Pie,
    /// Who plays X.
    First,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Parse(e) => e.fmt(f),
            CommandError::Move(e) => e.fmt(f),
            CommandError::Play(mv, e) => {
                let said = e.to_string();
                // A refusal that opens with the move as typed (`a3-c1 is
                // …`, `a3-c1: …`, as a rulebook's text may) says it once.
                if said
                    .strip_prefix(mv.as_str())
                    .is_some_and(|rest| rest.starts_with([' ', ':']))
                {
                    f.write_str(&said)
                } else {
                    write!(f, "{mv}: {said}")
                }
            }
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
            CommandError::Arena(e, None) => write!(f, "arena: {e}"),
            CommandError::Arena(e, Some(saved)) => write!(f, "arena: {e}; {saved}"),
            CommandError::Openings {
                path,
                line: 0,
                message,
                ..
            } => write!(f, "arena: {}: {message}", path.display()),
            CommandError::Openings {
                path,
                line,
                col,
                message,
            } => write!(f, "arena: {}:{line}:{col}: {message}", path.display()),
            CommandError::Scaffold(e) => e.fmt(f),
            CommandError::Refused {
                command, reason, ..
            } => write!(f, "{command}: {reason}"),
            CommandError::TimeRanOut(line) => {
                write!(f, "{line}: too late: the time for the move ran out")
            }
            CommandError::NoLegalMove(command) => write!(f, "{command}: there is no legal move"),
            CommandError::ComputersTurn { mv, side, level } => {
                write!(f, "{mv}: {side} is the computer's ({level}) to play; `ai {level}` plays its move")
            }
            CommandError::Undo(e) => e.fmt(f),
            CommandError::EmptyMark(text) => write!(
                f,
                "`{text}`: a comma joins the marks of one turn, and a mark stands on each side of it"
            ),
            CommandError::SpacedMove {
                text,
                joined,
                turns_of_marks,
            } => match joined {
                Some(joined) => write!(
                    f,
                    "`{text}`: a move is written without spaces: did you mean `{joined}`?"
                ),
                None if *turns_of_marks => write!(
                    f,
                    "`{text}`: one move at a time, written without spaces; the marks of one turn are joined by commas: `{}`",
                    text.split_whitespace().collect::<Vec<_>>().join(",")
                ),
                None => write!(f, "`{text}`: one move at a time, written without spaces"),
            },
            CommandError::TurnOver { text, marks } => write!(
                f,
                "`{text}`: the turn ends after {marks} mark{}; the marks joined by commas are one turn's",
                if *marks == 1 { "" } else { "s" }
            ),
            CommandError::NothingToRedo => f.write_str(
                "redo: nothing to redo: `redo` plays again what `undo` took back, until another move is played or another game starts",
            ),
            CommandError::Draw(e) => e.fmt(f),
            CommandError::Clock(e) => e.fmt(f),
            CommandError::Seat(e) => e.fmt(f),
            CommandError::TooLateToChoose(choice) => f.write_str(match choice {
                Choice::Clock => {
                    "clock: the clock is set before a person's first move (or after the result, for the next game)"
                }
                Choice::Pie => "pie: the pie rule is chosen before a person's first move",
                Choice::First => {
                    "first: who plays X is chosen before a person's first move (`again` alternates it)"
                }
            }),
            CommandError::GameOn => f.write_str(
                "again: the game is still on: finish it, resign or agree a draw first (`new` abandons it)",
            ),
            CommandError::PerftStopped(depth) => write!(f, "perft {depth}: stopped (Ctrl-C)"),
            CommandError::SolveStopped => f.write_str("solve: stopped (Ctrl-C)"),
            CommandError::CheckStopped => f.write_str("check: stopped (Ctrl-C)"),
            CommandError::BenchStopped => {
                f.write_str("bench: stopped (Ctrl-C) before its first game ended: nothing measured")
            }
            CommandError::Over(what, outcome) => write!(
                f,
                "{}: the game is over ({outcome}): {}; `again` starts the next game",
                what.command(),
                what.nothing()
            ),
            CommandError::ComputersSide { side, level, human } => write!(
                f,
                "resign: {side} is the computer's side ({level}): you resign for your own, `resign {human}`"
            ),
            // A hint plays nothing whether stopped or not: it was not given.
            CommandError::ThinkStopped("hint") => {
                write!(f, "hint: stopped (Ctrl-C): no hint was given")
            }
            CommandError::ThinkStopped(command) => {
                write!(f, "{command}: stopped (Ctrl-C): nothing was played")
            }
            CommandError::NotARecordFile(path) if path.file_name().is_some_and(|n| n == ".toml") => {
                write!(f, "save: {}: name the record, like game.toml", path.display())
            }
            CommandError::NotARecordFile(path) => {
                write!(f, "save: {}: a record is a .toml file", path.display())
            }
            CommandError::OtherGame(path) => write!(
                f,
                "save: {} holds the record of another game: choose another name, or add `--force` to replace it",
                path.display()
            ),
            CommandError::NotRecording => f.write_str("record off: nothing is being recorded"),
            CommandError::BuiltinReload(name) => write!(
                f,
                "reload: `{name}` is built in, with no file to read again: `new-variant my-{name} --from {name}` writes a copy to edit"
            ),
            CommandError::BuiltinLoad(name) => write!(
                f,
                "load: `{name}` is a built-in rulebook, not a file: `new {name}` starts a game on it (`load` reads a .toml file)"
            ),
        }
    }
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UndoError::Final(ending) => {
                let what = match ending {
                    Ending::Agreed => "an agreed draw",
                    Ending::MoveLimit(_) => "a draw at a match's move limit",
                    _ => "a resignation",
                };
                write!(f, "undo: {what} is final; `again` starts the next game")
            }
            UndoError::NothingPlayed => f.write_str("undo: no move has been played"),
            UndoError::ComputerOpening => f.write_str(
                "undo: only the computer's opening move is left, and it would make it again; `new` starts over",
            ),
        }
    }
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::NoOffer(answer) => {
                write!(f, "draw {answer}: there is no draw offer to answer")
            }
            DrawError::Waiting => {
                f.write_str("draw offer: an offer is already waiting for an answer")
            }
            DrawError::OfferedThisMove(by) => write!(
                f,
                "draw offer: {by} has offered a draw this move already (one offer per move)"
            ),
        }
    }
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockError::TooLong { seconds, max } => write!(
                f,
                "clock {seconds}: at most {max} seconds per move (a day), or off"
            ),
            ClockError::NotOffered { seconds, offered } => {
                let offered: Vec<String> = offered.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "clock {seconds}: this rulebook offers {} seconds per move, or off",
                    offered.join(" or ")
                )
            }
            ClockError::Off(command) => {
                write!(f, "{command}: the clock is off (`clock <seconds>` sets it)")
            }
            ClockError::GameOver(command) => write!(f, "{command}: the game is over"),
            ClockError::Running => f.write_str("ready: the clock is already running"),
            ClockError::Paused => f.write_str("pause: the clock is paused already"),
            ClockError::NotStarted => f.write_str(
                "pause: the clock has not started: it starts at the first move, or at `ready`",
            ),
            ClockError::NotPaused => f.write_str("resume: the clock is not paused"),
            ClockError::RealTime => {
                f.write_str("wait: only batch mode's clock can be moved; at the REPL time is real")
            }
        }
    }
}

impl fmt::Display for SeatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatError::WhichMark(level) => write!(
                f,
                "vs {level}: in mid-game, say which mark you keep: `vs {level} X` or `vs {level} O`"
            ),
            SeatError::NameTaken(name) => {
                write!(f, "name: the other seat is called `{name}` already")
            }
            SeatError::NoSuchSeat {
                name,
                seats: [one, two],
            } => write!(
                f,
                "first: no seat is called `{name}`: 1, 2, `{one}` or `{two}`"
            ),
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

impl From<UndoError> for CommandError {
    fn from(e: UndoError) -> CommandError {
        CommandError::Undo(e)
    }
}

impl From<DrawError> for CommandError {
    fn from(e: DrawError) -> CommandError {
        CommandError::Draw(e)
    }
}

impl From<ClockError> for CommandError {
    fn from(e: ClockError) -> CommandError {
        CommandError::Clock(e)
    }
}

impl From<SeatError> for CommandError {
    fn from(e: SeatError) -> CommandError {
        CommandError::Seat(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal that opens with the move as typed is not prefixed with it
    /// again, whether a space or a colon follows; one that opens with
    /// another move, or a longer one, is.
    #[test]
    fn a_refusal_that_names_the_move_first_says_it_once() {
        let play = |mv: &str, reason: &str| {
            CommandError::Play(
                mv.to_string(),
                PlayError::Refused {
                    refusal: Refusal::SwapLate,
                    reason: reason.to_string(),
                },
            )
            .to_string()
        };
        assert_eq!(play("a3-c1", "a3-c1: too far (M1)"), "a3-c1: too far (M1)");
        assert_eq!(play("a3-c1", "a3-c1 is too far"), "a3-c1 is too far");
        assert_eq!(play("a3", "a3-c1: too far"), "a3: a3-c1: too far");
        assert_eq!(play("b2", "taken"), "b2: taken");
    }
}
