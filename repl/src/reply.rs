//! What a command produced, as data: `render` turns it into text.

use crate::command::CommandSpec;
use gridrules_core::playout::BenchResult;
use gridrules_core::{Ending, Outcome, Side};

/// Who made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// A person typed it.
    Person,
    /// The computer chose it (`ai`, or its seat's reply).
    Computer,
    /// The clock made it: the player's time ran out (T2).
    Clock,
}

/// A move made by a command, with the result if it ended the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// The mover.
    pub side: Side,
    /// The move, as text.
    pub mv: String,
    /// Who chose it.
    pub by: By,
    /// The result, if this move ended the game.
    pub ending: Option<(Outcome, Ending)>,
    /// Its result line, naming the deciding line's cells.
    pub result: Option<String>,
    /// What else the move changed at the table (a swap: who plays which mark).
    pub note: Option<String>,
}

/// What a command produced, as data; `render` turns it into text.
#[derive(Debug)]
pub enum Reply {
    /// Nothing to say.
    Nothing,
    /// Lines of plain text.
    Lines(Vec<String>),
    /// `help`: the list, or one command's page, laid out at the edge for
    /// the terminal's width.
    Help(Option<&'static CommandSpec>),
    /// Draw the current board.
    Board,
    /// Lines, then moves that followed (a person's, and any computer replies).
    Played(Vec<String>, Vec<Played>),
    /// A new game started (by `new`, `load`, `setup`, `open` or `again`),
    /// and the computer's first moves if it plays X.
    NewGame {
        /// The record it was opened from, and how many moves it holds.
        opened: Option<(String, usize)>,
        /// The computer's first moves.
        played: Vec<Played>,
    },
    /// Moves were taken back.
    Undone(Vec<String>),
    /// Benchmark figures.
    Bench {
        /// The rulebook measured.
        rulebook: String,
        /// Whether the rulebook runs per-move hooks (the slow path).
        per_move_hooks: bool,
        /// Each round's figures, sorted by speed.
        rounds: Vec<BenchResult>,
        /// Ctrl-C stopped it before every round ran.
        stopped: bool,
        /// Its time ran out before every round ran: a game took longer
        /// than a round.
        over_time: bool,
        /// The round on every core at once: how many, and what they played.
        all_cores: Option<(usize, BenchResult)>,
    },
    /// Leave the REPL.
    Quit,
}

impl Reply {
    /// Whether its text ends with the board, where the style draws boards:
    /// a move the clock made before it then needs no board of its own.
    pub fn draws_board(&self) -> bool {
        matches!(
            self,
            Reply::Board | Reply::Played(..) | Reply::NewGame { .. } | Reply::Undone(_)
        )
    }
}
