//! Why a move is not played: the kinds of refusal, the keys a rulebook's
//! `[refusals]` table words them by, and the error a move's play returns.
//! Below both the rulebook (which checks its `[refusals]` texts against
//! these keys) and the rules (which refuse moves).

use crate::error::ScriptError;
use crate::notation::ParseMoveError;
use crate::position::{Outcome, Side};
use std::fmt;

/// Why a move is refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The game is over (G3).
    GameOver(Outcome),
    /// The cell is taken. Holds the cell's name.
    Occupied(String),
    /// The cell is in a closed region. Holds the cell's name.
    ClosedRegion(String),
    /// The move must go to another region. Holds the cell and the region number.
    WrongRegion(String, usize),
    /// A movement while pieces are still to be placed.
    MustPlace,
    /// A placement when no pieces are left in hand.
    MustMove,
    /// The piece to move is not the mover's. Holds the cell's name.
    NotOwnPiece(String),
    /// The piece cannot reach that cell. Holds both names.
    Unreachable(String, String),
    /// A jump over a cell that is not empty. Holds both names.
    JumpBlocked(String, String),
    /// The cell does not rest on its support yet (gravity). Holds the cell
    /// and the cell of its column a mark would land on, if any.
    Unsupported(String, Option<String>),
    /// A column named for a drop has no room left. Holds the column's letter.
    ColumnFull(String),
    /// A column was named where marks do not drop. Holds the text.
    NoColumns(String),
    /// The move chose a mark it may not place. Holds the cell and the mark
    /// it must place.
    FixedMark(String, Side),
    /// `=` followed by something that is not a mark. Holds the cell and the text.
    UnknownMark(String, String),
    /// A cell or column off the board. Holds it as written.
    OffBoard(String),
    /// `swap` where the table has no pie rule (PI1).
    NoPieRule,
    /// `swap` other than in answer to the first move (PI1).
    SwapLate,
    /// The rulebook's `refuse` hook said no. Holds its reason.
    Script(String),
}

impl fmt::Display for Refusal {
    /// The reason, worded to follow the move: `e5: the cell is taken`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::GameOver(o) => write!(f, "the game is over ({o})"),
            Refusal::Occupied(_) => f.write_str("the cell is taken"),
            Refusal::ClosedRegion(_) => f.write_str("that board is closed (won or full)"),
            Refusal::WrongRegion(_, r) => write!(f, "the move must be played on board {}", r + 1),
            Refusal::MustPlace => {
                f.write_str("a move here places a mark: name an empty cell, like b2")
            }
            Refusal::MustMove => f.write_str("all pieces are placed: move one, like `b2-c2`"),
            Refusal::NotOwnPiece(c) => write!(f, "no piece of the side to move stands on {c}"),
            Refusal::Unreachable(a, b) => write!(f, "a piece on {a} cannot reach {b}"),
            Refusal::JumpBlocked(..) => f.write_str("the jump passes over an occupied cell"),
            Refusal::Unsupported(_, Some(landing)) => write!(
                f,
                "a mark cannot stand there yet: in that column it lands on {landing}"
            ),
            Refusal::Unsupported(..) => {
                f.write_str("a mark cannot stand there yet: the cells it rests on are empty")
            }
            Refusal::ColumnFull(col) => write!(f, "column {col} is full"),
            Refusal::NoColumns(_) => {
                f.write_str("marks do not drop into columns here: name a cell, like b2")
            }
            Refusal::FixedMark(cell, mark) => write!(
                f,
                "a move here places {mark}, not a mark of its choice: write {cell}"
            ),
            Refusal::UnknownMark(cell, text) => {
                write!(f, "`{text}` is not a mark: write {cell}=X or {cell}=O")
            }
            Refusal::OffBoard(_) => f.write_str("no such cell on this board"),
            Refusal::NoPieRule => {
                f.write_str("there is no pie rule at this table: `swap` is not a move here (PI1)")
            }
            Refusal::SwapLate => f.write_str(
                "the pie rule lets the second player swap only in answer to the first move, once (PI1)",
            ),
            Refusal::Script(reason) => f.write_str(reason),
        }
    }
}

/// The keys of a rulebook's `[refusals]` table, one per kind of refusal.
pub const REFUSAL_KEYS: &[&str] = &[
    "game_over",
    "occupied",
    "closed_board",
    "wrong_board",
    "must_place",
    "must_move",
    "not_own_piece",
    "unreachable",
    "jump_blocked",
    "unsupported",
    "column_full",
    "no_columns",
    "fixed_mark",
    "unknown_mark",
    "off_board",
    "no_pie_rule",
    "swap_late",
];

/// The placeholders a `[refusals]` text may use.
pub const REFUSAL_PLACEHOLDERS: &[&str] = &[
    "{cell}", "{from}", "{to}", "{board}", "{result}", "{mark}", "{text}",
];

/// The placeholders each refusal fills in (what [`Rulebook::explain`]
/// knows for that kind); any other would print empty.
pub fn refusal_placeholders(key: &str) -> &'static [&'static str] {
    match key {
        "occupied" | "unsupported" => &["{cell}", "{to}"],
        "closed_board" | "wrong_board" => &["{cell}", "{to}", "{board}"],
        "column_full" | "no_columns" | "off_board" => &["{text}"],
        "fixed_mark" => &["{cell}", "{to}", "{mark}"],
        "unknown_mark" => &["{cell}", "{to}", "{text}"],
        "not_own_piece" => &["{cell}", "{from}"],
        "unreachable" | "jump_blocked" => &["{cell}", "{from}", "{to}"],
        "game_over" => &["{result}"],
        _ => &[],
    }
}

impl Refusal {
    /// The key of this kind of refusal in a rulebook's `[refusals]` table.
    pub fn key(&self) -> &'static str {
        match self {
            Refusal::GameOver(_) => "game_over",
            Refusal::Occupied(_) => "occupied",
            Refusal::ClosedRegion(_) => "closed_board",
            Refusal::WrongRegion(..) => "wrong_board",
            Refusal::MustPlace => "must_place",
            Refusal::MustMove => "must_move",
            Refusal::NotOwnPiece(_) => "not_own_piece",
            Refusal::Unreachable(..) => "unreachable",
            Refusal::JumpBlocked(..) => "jump_blocked",
            Refusal::Unsupported(..) => "unsupported",
            Refusal::ColumnFull(_) => "column_full",
            Refusal::NoColumns(_) => "no_columns",
            Refusal::FixedMark(..) => "fixed_mark",
            Refusal::UnknownMark(..) => "unknown_mark",
            Refusal::OffBoard(_) => "off_board",
            Refusal::NoPieRule => "no_pie_rule",
            Refusal::SwapLate => "swap_late",
            Refusal::Script(_) => "script",
        }
    }
}

/// A move that was not played, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayError {
    /// The rules refuse it: the kind of refusal, and the reason in the
    /// rulebook's words (its `[refusals]` text, naming the rule).
    Refused {
        /// What kind of refusal.
        refusal: Refusal,
        /// The reason as the rulebook words it.
        reason: String,
    },
    /// A per-move hook failed while checking or playing it (boxed: it
    /// carries its source snippet, and moves are played in hot loops).
    Script(Box<ScriptError>),
    /// The text is not a move in the notation.
    Notation(ParseMoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Refused { reason, .. } => f.write_str(reason),
            PlayError::Script(e) => e.fmt(f),
            PlayError::Notation(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<ScriptError> for PlayError {
    fn from(e: ScriptError) -> PlayError {
        PlayError::Script(Box::new(e))
    }
}
