//! What a command line asks for, read into data.

use gridrules_core::Side;
use gridrules_core::arena::Player;
use gridrules_core::search::{Budget, Level};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// What `draw` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the pending offer.
    Accept,
    /// Decline the pending offer.
    Decline,
}

/// The word that asks for it: `offer`, `accept`, `decline`.
impl fmt::Display for DrawAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawAction::Offer => "offer",
            DrawAction::Accept => "accept",
            DrawAction::Decline => "decline",
        })
    }
}

/// A command line read into data: which command, its arguments typed.
/// The session runs it (`Session::execute`). Each variant belongs to an
/// entry of [`COMMANDS`](crate::command::COMMANDS), whose summary says what
/// it does.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `help`: every command, or the one named.
    Help(Option<String>),
    /// `variants`.
    Variants,
    /// `new`: a built-in rulebook or a file, or (`None`) the same one.
    New(Option<String>),
    /// `load`: the rulebook file.
    Load(PathBuf),
    /// `reload`.
    Reload,
    /// `rules`.
    Rules,
    /// `show`.
    Show,
    /// `play`, a bare move, or `swap`: the move as notation writes it.
    Play(String),
    /// `legal`.
    Legal,
    /// `undo`.
    Undo,
    /// `redo`.
    Redo,
    /// `status`.
    Status,
    /// `history`.
    History,
    /// `ai`: one computer move at this level.
    Ai(Level),
    /// `ai time`: seconds a move by the clock, or (`None`) the rulebook's
    /// budget in playouts.
    Think(Option<Duration>),
    /// `hint`: the move the computer would make at this level.
    Hint(Level),
    /// `vs`: the computer's level (`None`: `vs off`), and the mark the
    /// person keeps, if said.
    Vs(Option<Level>, Option<Side>),
    /// `first`: the seat (`1`, `2`) or a seat's name, as typed.
    First(String),
    /// `resign`: the side that resigns, if said.
    Resign(Option<Side>),
    /// `draw`.
    Draw(DrawAction),
    /// `again`.
    Again,
    /// `score`.
    Score,
    /// `name`: the seat (0 for seat 1) and its new name.
    Name(usize, String),
    /// `clock`: seconds per move, or (`None`) no clock.
    Clock(Option<u32>),
    /// `clock` alone: what the clock is now.
    ClockShown,
    /// `ready`.
    Ready,
    /// `pause`.
    Pause,
    /// `resume`.
    Resume,
    /// `alternate`: on or off.
    Alternate(bool),
    /// `pie`: on or off.
    Pie(bool),
    /// `wait`: whole seconds.
    Wait(u32),
    /// `seed`.
    Seed(u64),
    /// `save`: the record's path, and whether to replace a file gridrules
    /// did not write.
    Save {
        /// The record's path.
        path: PathBuf,
        /// `--force`.
        force: bool,
    },
    /// `open`: the record's path.
    Open(PathBuf),
    /// `record`: the transcript's path, and whether to replace a file
    /// gridrules did not write.
    Record {
        /// The transcript's path.
        path: PathBuf,
        /// `--force`.
        force: bool,
    },
    /// `record off`.
    RecordOff,
    /// `position`.
    Position,
    /// `setup`: the position text.
    Setup(String),
    /// `perft`: the depth.
    Perft(u32),
    /// `solve`: the time it may take.
    Solve(Duration),
    /// `arena`.
    Arena(ArenaMatch),
    /// `bench`: the rulebook (`None`: the one loaded) and seconds to run.
    Bench {
        /// A built-in rulebook or a file.
        rulebook: Option<String>,
        /// Seconds to run, if said.
        seconds: Option<f64>,
    },
    /// `check`: a rulebook, a file or `all` (`None`: the one loaded).
    Check(Option<String>),
    /// `new-variant`.
    NewVariant {
        /// The new rulebook's name.
        name: String,
        /// The rulebook it starts from (`--from`), if any.
        from: Option<String>,
        /// The folder to write into (`--dir`), if not the current one.
        dir: Option<String>,
    },
    /// `quit`.
    Quit,
}

/// An `arena` match as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct ArenaMatch {
    /// The rulebook: a built-in name or a file.
    pub rulebook: String,
    /// The two players, each with its own budget if it has one (`hard@2s`).
    pub players: [(Player, Option<Budget>); 2],
    /// Games to play.
    pub games: u32,
    /// The seed of the first game.
    pub seed: u64,
    /// The budget of players without their own; `None`: the rulebook's
    /// playouts.
    pub budget: Option<Budget>,
    /// A file of openings the games start with (`--openings`).
    pub openings: Option<String>,
    /// Games played at once (`--threads`); `None`: one a core.
    pub threads: Option<usize>,
    /// A folder each finished game's record is saved in (`--save`).
    pub save: Option<String>,
}
