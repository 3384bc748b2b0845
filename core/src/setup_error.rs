//! What is wrong with a position text, as data: the kind of fault with the
//! values its message names, and the bytes of the text it concerns
//! (shakmaty's `PositionError`, with a span).
//!
//! Below the rulebook, beside the position: a mechanic that owns a field of
//! the text (captures' fifth field) says what is wrong with it in these
//! terms without reaching up to `setup.rs`. The messages are the contract
//! (transcripts quote them); the kinds are what code and tests match.

use crate::error::ScriptError;
use crate::geometry::CellName;
use crate::position::{BySide, CaptureUnit as Unit, Side};
use std::fmt;
use std::ops::Range;

/// A position text that was refused: what is wrong, and where in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// What is wrong, with the values the message names.
    pub kind: SetupErrorKind,
    /// The bytes of the text it concerns: a field, a row or one character;
    /// an empty range where a field is missing.
    pub span: Range<usize>,
}

impl SetupError {
    /// `kind`, concerning bytes `span` of the text.
    pub fn new(kind: SetupErrorKind, span: Range<usize>) -> SetupError {
        SetupError { kind, span }
    }
}

/// The fifth field of a position text, which only some rulebooks have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FifthField {
    /// The regions each side holds, where who moved decides it (`1,3/2`).
    Held,
    /// The captures each side has made (`2/1`).
    Captures,
    /// Each side's marks oldest first, where marks vanish (`a1,b2/c3`).
    Ages,
}

/// What is wrong with a position text. Regions are numbered from 0 here,
/// as in [`crate::Refusal::WrongRegion`]; the messages count from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupErrorKind {
    /// Too few or too many fields: `found` were given; 4 are allowed, or 5
    /// where the rulebook has a `fifth` field.
    FieldCount {
        /// The number of fields in the text (without `swapped`).
        found: usize,
        /// The rulebook's fifth field, if it has one.
        fifth: Option<FifthField>,
    },
    /// The board field has `found` rows where the board has `rows`.
    Rows {
        /// The board's height.
        rows: u32,
        /// The rows written.
        found: usize,
    },
    /// A character in row `row` (from 1, top first) that is not `X`, `O`,
    /// `.` or a digit.
    RowChar {
        /// The row, from 1 at the top.
        row: usize,
        /// The character.
        found: char,
    },
    /// Row `row` (from 1, top first) holds `found` cells, not `width`.
    RowLength {
        /// The row, from 1 at the top.
        row: usize,
        /// The cells it holds; `None` for more than any board has.
        found: Option<usize>,
        /// The board's width.
        width: u32,
    },
    /// The side to move is not `X` or `O`. Holds the field.
    SideToMove(String),
    /// Pieces in hand written where marks are unlimited. Holds the field.
    HandUnlimited(String),
    /// Pieces in hand given where no mark is ever placed (`pieces()` is 0).
    HandNone(String),
    /// `side` has more marks on the board than its pieces in all.
    HandTooMany {
        /// The side.
        side: Side,
        /// Its marks on the board.
        on_board: u32,
        /// The pieces each side has in all.
        pieces: u16,
    },
    /// The pieces in hand are not two numbers, `X,O`. Holds the field.
    HandSyntax(String),
    /// `side`'s marks on the board and pieces in hand do not add up to its
    /// pieces in all.
    HandMismatch {
        /// The side.
        side: Side,
        /// Its marks on the board.
        on_board: u32,
        /// Its pieces in hand, as written.
        in_hand: i64,
        /// The pieces each side has in all.
        pieces: u16,
    },
    /// `side` holds more pieces in hand than the start gave it (`[board]
    /// start`): hands only shrink.
    HandAboveStart {
        /// The side.
        side: Side,
        /// Its pieces in hand, as written or worked out.
        in_hand: u16,
        /// Its pieces in hand at the start.
        start: u16,
    },
    /// Both sides place X, yet the board holds `o` marks of O.
    SharedO {
        /// The O marks on the board.
        o: u32,
    },
    /// Turns of several marks: after `ply` marks each side should have
    /// placed `want`, and the board holds `found`.
    TurnCounts {
        /// The marks placed in all.
        ply: u32,
        /// The marks of each kind the turns place (each side's own, but
        /// where a turn names them).
        want: BySide<u32>,
        /// What each side has on the board.
        found: BySide<u32>,
    },
    /// Turns of several marks: after `ply` marks it is `side`'s turn, mark
    /// `mark` (from 1) of `of`, not the side the text names.
    TurnSide {
        /// The marks placed in all.
        ply: u32,
        /// The side whose turn it is.
        side: Side,
        /// Which mark of its turn, from 1.
        mark: u32,
        /// The marks its turn has.
        of: u32,
    },
    /// Shared or chosen marks: with `turn` to move the number of marks on
    /// the board, `marks`, has the wrong parity.
    Parity {
        /// The side to move.
        turn: Side,
        /// The marks on the board.
        marks: u32,
    },
    /// Own marks placed in turn: with `turn` to move, X's `x` and O's `o`
    /// marks do not fit.
    Counts {
        /// The side to move.
        turn: Side,
        /// How many more marks X must have than O (fewer when negative):
        /// 0 or 1 from the empty board, else as the rulebook's start.
        more: i64,
        /// X's marks on the board.
        x: u32,
        /// O's marks on the board.
        o: u32,
    },
    /// Pieces placed one a move, some perhaps removed since: with `turn` to
    /// move, X's `x` and O's `o` placements (pieces less those in hand) do
    /// not fit.
    Placed {
        /// The side to move.
        turn: Side,
        /// The pieces X has placed.
        x: u32,
        /// The pieces O has placed.
        o: u32,
    },
    /// Where lines remove pieces: `side` has lost `removed` pieces, more
    /// lines than `by`, still placing, can have completed with `placed`.
    Unremoved {
        /// The side that lost pieces.
        side: Side,
        /// The pieces it lost (placed, less those on the board).
        removed: u32,
        /// The opponent.
        by: Side,
        /// The opponent's placements.
        placed: u32,
    },
    /// Pieces of `side` are gone while `by` still has pieces to place,
    /// where a line a placement completes removes nothing
    /// (`placing_lines()`).
    RemovedWhilePlacing {
        /// The side that lost pieces.
        side: Side,
        /// The pieces it lost.
        removed: u32,
        /// The opponent, still placing.
        by: Side,
    },
    /// A line of `side` stands while it still has pieces to place, where
    /// no placement may complete one (`placing_lines()` "refused").
    LineWhilePlacing {
        /// The side.
        side: Side,
        /// The cells of its lines.
        cells: Vec<CellName>,
    },
    /// `side`'s marks cannot have been placed in any order that keeps to
    /// the cells its moves may not take (`forbidden()`): `rule` is the
    /// refusal of the move that breaks it.
    NeverPlaced {
        /// The side.
        side: Side,
        /// The refusal's text, as the rulebook words it.
        rule: String,
    },
    /// Both sides are down to `lose_at()` pieces or fewer: the game ended
    /// when the first was.
    BothReduced {
        /// `lose_at()`.
        at: u16,
        /// X's pieces, on the board and in hand.
        x: u32,
        /// O's pieces, on the board and in hand.
        o: u32,
    },
    /// With captures: the marks on the board, `found`, with `turn` to move,
    /// are not explained by the captures `made`.
    CaptureCounts {
        /// The side to move.
        turn: Side,
        /// The marks of each side on the board.
        found: BySide<u32>,
        /// The captures each side has made.
        made: BySide<u16>,
        /// What the counts count.
        unit: Unit,
    },
    /// The captures field is not two counts up to 1000, `X/O`. Holds the field.
    CapturesSyntax(String),
    /// `side` has made the captures that win, yet is to move.
    CapturesButToMove {
        /// The side to move.
        side: Side,
        /// The captures it has made.
        made: u16,
        /// The captures that win.
        wins: u16,
        /// What the counts count.
        unit: Unit,
    },
    /// The field of marks that age is not two lists of cells, `X/O`
    /// (`a1,b2/c3`, `-` for none), each cell once. Holds the field.
    AgesSyntax(String),
    /// The field of marks that age does not list exactly `side`'s marks
    /// on the board, or lists more than it keeps.
    AgesMismatch {
        /// The side whose list is wrong.
        side: Side,
        /// The marks a side keeps.
        keep: u8,
    },
    /// Marks age, and `side` has `found` on the board, more than it keeps.
    AgesTooMany {
        /// The side with too many marks.
        side: Side,
        /// The marks a side keeps.
        keep: u8,
        /// Its marks on the board.
        found: u32,
    },
    /// Marks age, `side` has several on the board, and the text does not
    /// say which is oldest.
    AgesUnstated(Side),
    /// `swapped` where the table has no pie rule (PI1).
    SwappedWithoutPie,
    /// `swapped` on an empty board: there is no first move to answer (PI1).
    SwappedEmpty,
    /// `swapped` before the first turn's `of` marks are all on the board
    /// (`turn_marks()`): the swap answers the whole turn (PI1).
    SwappedEarly {
        /// The marks on the board.
        marks: u32,
        /// The marks of the first turn.
        of: u32,
    },
    /// Gravity: the mark on `cell` does not rest on anything; `under` must
    /// be filled first.
    Unsupported {
        /// The cell of the mark.
        cell: CellName,
        /// The empty cells it rests on.
        under: Vec<CellName>,
    },
    /// The boards-held field is not two lists, `X's/O's`. Holds the field.
    HeldSyntax(String),
    /// `side` has a line, yet is to move: the game ended on its last move.
    LineButToMove(Side),
    /// Both sides have a line: the game would have ended when the first was made.
    BothLines,
    /// Region `.0` holds a line of X and a line of O.
    RegionLines(usize),
    /// Region `region` has a line or is full, and who holds it depends on
    /// who moved: the fifth field must name the one side.
    HolderUnnamed {
        /// The region.
        region: usize,
        /// Whether it is full (else it has a line).
        full: bool,
    },
    /// Region `.0`: the fifth field disagrees with the marks on it.
    HeldMismatch(usize),
    /// A target board where the rulebook has no sub-boards. Holds the field.
    TargetNoRegions(String),
    /// The target board is not a board number from 1 to `count`.
    TargetRange {
        /// The field.
        field: String,
        /// The number of boards.
        count: usize,
    },
    /// The target region `.0` is closed (won or full).
    TargetClosed(usize),
    /// The target region `.0` has no cell that may be filled now.
    TargetFull(usize),
    /// A target region `.0` on an empty board: no move has sent the game there (U2).
    TargetEmpty(usize),
    /// A target region `.0` that no mark on the board sends the game to:
    /// no last move explains it (U3).
    TargetUnexplained(usize),
    /// Sized pieces: a piece in row `row` (from 1, top first) without its
    /// size after its mark. Holds the row and the sizes' letters.
    PieceSize {
        /// The row, from 1 at the top.
        row: usize,
        /// The sizes' letters, smallest first.
        sizes: String,
    },
    /// Sized pieces: a `(` in row `row` (from 1, top first) that the row
    /// does not close.
    StackUnclosed {
        /// The row, from 1 at the top.
        row: usize,
    },
    /// Sized pieces: the stack on `cell` is not largest on top. Holds the
    /// stack as written.
    StackOrder {
        /// The cell.
        cell: CellName,
        /// Its pieces as written, top first.
        text: String,
    },
    /// Sized pieces: `side` has `on` pieces of size `letter` on the board,
    /// more than the `pieces` it holds in all.
    TooManyOfSize {
        /// The side.
        side: Side,
        /// The size's letter.
        letter: char,
        /// Its pieces of that size on the board.
        on: u32,
        /// The pieces of that size each side has in all.
        pieces: u8,
    },
    /// Sized pieces: the hands written, `found`, are not what the board
    /// leaves, `want`.
    Hands {
        /// The field.
        found: String,
        /// The hands the board leaves.
        want: String,
    },
    /// A per-move hook failed while the position was checked for a legal
    /// move (boxed: it carries its source snippet).
    Script(Box<ScriptError>),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for SetupError {}

impl fmt::Display for SetupErrorKind {
    /// The message as `setup` prints it after `setup: ` (the contract text).
    // Over a hundred lines on purpose: one short arm per kind, the whole
    // table of messages in one place, read and compared top to bottom.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SetupErrorKind as K;
        match self {
            K::FieldCount { found, fifth } => {
                let (most, named) = match fifth {
                    None => (4, ""),
                    Some(FifthField::Held) => (5, ", boards held"),
                    Some(FifthField::Captures) => (5, ", captures"),
                    Some(FifthField::Ages) => (5, ", marks oldest first"),
                };
                write!(
                    f,
                    "expected 2 to {most} fields (board, side to move, pieces in hand, target board{named}), found {found}"
                )
            }
            K::Rows { rows, found } => write!(
                f,
                "the board has {rows} rows, the text {found}: write rows top first, separated by `/`"
            ),
            K::RowChar { row, found } => write!(
                f,
                "row {row} from the top: `{found}` is not X, O, `.` or a number of empty cells"
            ),
            K::RowLength { row, found, width } => {
                // A count past any board is said as such, not as its number.
                let found = found.map_or("far too many".to_string(), |n| n.to_string());
                write!(
                    f,
                    "row {row} from the top has {found} cells, expected {width}"
                )
            }
            K::SideToMove(text) => write!(f, "side to move `{text}`: expected X or O"),
            K::HandUnlimited(text) => write!(
                f,
                "pieces in hand `{text}`: this rulebook has unlimited marks, write `-`"
            ),
            K::HandNone(text) => write!(
                f,
                "pieces in hand `{text}`: in this rulebook no mark is placed, every move is a slide; write `-`"
            ),
            K::HandTooMany {
                side,
                on_board,
                pieces,
            } => write!(
                f,
                "wrong counts: {side} has {on_board} pieces on the board, only {pieces} are allowed"
            ),
            K::HandSyntax(text) => write!(
                f,
                "pieces in hand `{text}`: expected two numbers, X's then O's, like `3,2`"
            ),
            K::HandMismatch {
                side,
                on_board,
                in_hand,
                pieces,
            } => write!(
                f,
                "wrong counts: {side} has {on_board} on the board and {in_hand} in hand, but {pieces} pieces in all"
            ),
            K::HandAboveStart {
                side,
                in_hand,
                start,
            } => write!(
                f,
                "wrong counts: {side} holds {in_hand} piece{} in hand, but the game starts with {start} (the rulebook's start), and a hand only shrinks",
                if *in_hand == 1 { "" } else { "s" }
            ),
            K::SharedO { o } => write!(
                f,
                "both sides place X here: the board cannot hold O ({o} found)"
            ),
            K::TurnCounts { ply, want, found } => write!(
                f,
                "wrong counts: after {ply} mark{} the board holds {} X and {} O, by the turns (it has {} X and {} O)",
                if *ply == 1 { "" } else { "s" },
                want.x, want.o, found.x, found.o
            ),
            K::TurnSide {
                ply,
                side,
                mark,
                of,
            } => write!(
                f,
                "wrong side to move: after {ply} mark{} it is {side}'s turn, mark {mark} of {of}",
                if *ply == 1 { "" } else { "s" }
            ),
            K::Parity { turn, marks } => {
                let want = match turn {
                    Side::X => "an even",
                    Side::O => "an odd",
                };
                write!(
                    f,
                    "wrong counts: with {turn} to move the board must hold {want} number of marks (it holds {marks}): turns alternate (G1)"
                )
            }
            K::Placed { turn, x, o } => {
                let want = match turn {
                    Side::X => "as many pieces as O",
                    Side::O => "one piece more than O",
                };
                write!(
                    f,
                    "wrong pieces in hand: with {turn} to move, X must have placed {want} (X has placed {x}, O {o}): turns alternate (G1)"
                )
            }
            K::Counts { turn, more, x, o } => {
                let want = match *more {
                    0 => "as many marks as O".to_string(),
                    1 => "one mark more than O".to_string(),
                    -1 => "one mark fewer than O".to_string(),
                    n if n > 0 => format!("{n} marks more than O"),
                    n => format!("{} marks fewer than O", -n),
                };
                write!(
                    f,
                    "wrong counts: with {turn} to move, X must have {want} (X has {x}, O has {o}): turns alternate (G1)"
                )
            }
            K::Unremoved {
                side,
                removed,
                by,
                placed,
            } => write!(
                f,
                "wrong counts: {side} has lost {removed} piece{} (placed, less those on the board), more than {by}'s {placed} placement{} can have removed: a piece goes only to a line completed",
                if *removed == 1 { "" } else { "s" },
                if *placed == 1 { "" } else { "s" }
            ),
            K::RemovedWhilePlacing { side, removed, by } => write!(
                f,
                "wrong counts: {side} has lost {removed} piece{} while {by} still has pieces to place, and a line made while placing removes nothing here",
                if *removed == 1 { "" } else { "s" }
            ),
            K::LineWhilePlacing { side, cells } => write!(
                f,
                "{side} has a line standing ({}) while it still has pieces to place, and no placement may make one here",
                cells.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
            ),
            K::NeverPlaced { side, rule } => write!(
                f,
                "{side}'s marks cannot have been placed so, in any order: {rule}"
            ),
            K::BothReduced { at, x, o } => write!(
                f,
                "wrong counts: both sides are down to {at} pieces or fewer (X has {x}, O {o}): the game ended when the first was"
            ),
            K::CaptureCounts {
                turn,
                found,
                made,
                unit,
            } => write!(
                f,
                "wrong counts: with {turn} to move, X has {} marks and O {}, which the {} (X {}, O {}) do not explain",
                found.x,
                found.o,
                unit.words(),
                made.x,
                made.o
            ),
            K::CapturesSyntax(text) => write!(
                f,
                "captures `{text}`: expected the captures X and O have made, such as 2/1"
            ),
            K::CapturesButToMove {
                side,
                made,
                wins,
                unit,
            } => write!(
                f,
                "{side} has {made} {} but is to move: {wins} win, so the game ended on {side}'s last move",
                unit.words()
            ),
            K::AgesSyntax(text) => write!(
                f,
                "marks oldest first `{text}`: expected X's marks then O's, oldest first, such as a1,b2/c3 (`-` for none)"
            ),
            K::AgesMismatch { side, keep } => write!(
                f,
                "marks oldest first: {side}'s list must name each of its marks on the board once, at most {keep}"
            ),
            K::AgesTooMany { side, keep, found } => write!(
                f,
                "{side} has {found} marks on the board, but keeps at most {keep}: its oldest vanishes as it places one more"
            ),
            K::AgesUnstated(side) => write!(
                f,
                "{side} has several marks and they vanish oldest first: give their order as a fifth field, such as a1,b2/c3"
            ),
            K::SwappedWithoutPie => {
                f.write_str("`swapped`: there is no pie rule at this table (PI1)")
            }
            K::SwappedEmpty => f.write_str(
                "`swapped`: the pie rule's swap answers the first move, and no mark is on the board (PI1)",
            ),
            K::SwappedEarly { marks, of } => write!(
                f,
                "`swapped`: the pie rule's swap answers the whole first turn, {of} marks, and the board holds {marks} (PI1)"
            ),
            K::Unsupported { cell, under } => {
                let under: Vec<String> = under.iter().map(ToString::to_string).collect();
                write!(
                    f,
                    "the mark on {cell} does not rest on anything: {} must be filled first",
                    under.join(" ")
                )
            }
            K::HeldSyntax(text) => write!(
                f,
                "boards held `{text}`: expected X's boards, `/`, O's boards, each a list like `1,3` or `-`"
            ),
            K::LineButToMove(side) => write!(
                f,
                "{side} has a line but is to move: the game ended on {side}'s last move"
            ),
            K::BothLines => {
                f.write_str("both X and O have a line: the game would have ended when the first of them was made")
            }
            K::RegionLines(r) => write!(f, "board {} has a line of X and a line of O", r + 1),
            K::HolderUnnamed { region, full } => {
                let why = if *full { "is full" } else { "has a line" };
                write!(
                    f,
                    "board {} {why}: name the one side that holds it in the fifth field (X's boards/O's boards)",
                    region + 1
                )
            }
            K::HeldMismatch(r) => write!(
                f,
                "board {}: the fifth field does not match the marks on it",
                r + 1
            ),
            K::TargetNoRegions(text) => write!(
                f,
                "target board `{text}`: this rulebook has no sub-boards, write `-`"
            ),
            K::TargetRange { field, count } => write!(
                f,
                "target board `{field}`: expected a board number 1 to {count}, or `-`"
            ),
            K::TargetClosed(r) => write!(
                f,
                "target board {} is closed (won or full): write `-` for a free choice",
                r + 1
            ),
            K::TargetFull(r) => write!(
                f,
                "target board {} has no cell that may be filled now: write `-` for a free choice",
                r + 1
            ),
            K::TargetEmpty(r) => write!(
                f,
                "target board {} on an empty board: no move has sent the game there yet (U2): write `-`",
                r + 1
            ),
            K::TargetUnexplained(r) => write!(
                f,
                "target board {}: no mark sits on a cell that sends the game there, so no last move explains it (U3): write `-` or the board the last move sent to",
                r + 1
            ),
            K::PieceSize { row, sizes } => write!(
                f,
                "row {row} from the top: a piece is its mark and its size, such as X{} (sizes {sizes}, smallest first)",
                sizes.chars().last().unwrap_or('L')
            ),
            K::StackUnclosed { row } => write!(
                f,
                "row {row} from the top: a `(` is not closed: the pieces a piece covers go between brackets, largest first, like XL(OMXS)"
            ),
            K::StackOrder { cell, text } => write!(
                f,
                "the stack on {cell}, {text}, is not largest on top: a piece covers only smaller ones"
            ),
            K::TooManyOfSize {
                side,
                letter,
                on,
                pieces,
            } => write!(
                f,
                "wrong counts: {side} has {on} pieces of size {letter} on the board, only {pieces} in all"
            ),
            K::Hands { found, want } => write!(
                f,
                "pieces in hand `{found}`: the board leaves {want} (X's then O's, `-` for none)"
            ),
            K::Script(e) => e.fmt(f),
        }
    }
}
