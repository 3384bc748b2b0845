//! Why a move is not played: the kinds of refusal, the keys a rulebook's
//! `[refusals]` table words them by, and the error a move's play returns.
//! Below both the rulebook (which checks its `[refusals]` texts against
//! these keys) and the rules (which refuse moves).

use crate::error::ScriptError;
use crate::geometry::{Cell, Grid};
use crate::notation::ParseMoveError;
use crate::position::{Move, Outcome, Side};
use std::fmt;

/// Why a move is refused. The game is unchanged.
///
/// Cells of the board are held as [`Cell`]s: naming one needs the grid, so
/// a refusal is put in words by [`Refusal::describe`] (or a rulebook's
/// `[refusals]` text, [`crate::Rulebook::explain`]), not by `Display`.
/// Text that is no cell of the board (a coordinate off it as written, a
/// column letter, a script's reason) stays text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// The game is over (G3).
    GameOver(Outcome),
    /// The cell is taken.
    Occupied(Cell),
    /// The cell is in a closed region.
    ClosedRegion(Cell),
    /// The move must go to another region. Holds the cell and the region
    /// the move is sent to (from 0).
    WrongRegion(Cell, usize),
    /// A movement while pieces are still to be placed. Holds a placement
    /// of the position to show, if there is one.
    MustPlace(Option<Move>),
    /// A placement when no pieces are left in hand. Holds a movement of the
    /// position to show, if there is one.
    MustMove(Option<Move>),
    /// The piece to move is not the mover's. Holds the cell it moves from.
    NotOwnPiece(Cell),
    /// The piece cannot reach that cell. Holds the cells it moves from and to.
    Unreachable(Cell, Cell),
    /// A jump over a cell that is not empty. Holds the cells it moves from and to.
    JumpBlocked(Cell, Cell),
    /// The cell does not rest on its support yet (gravity). Holds the cell
    /// and the cell of its column a mark would land on, if any.
    Unsupported(Cell, Option<Cell>),
    /// A column named for a drop has no room left. Holds the column's letter.
    ColumnFull(String),
    /// A column was named where marks do not drop. Holds the text.
    NoColumns(String),
    /// The move chose a mark it may not place. Holds the cell and the mark
    /// it must place.
    FixedMark(Cell, Side),
    /// As [`Refusal::FixedMark`], for `…=` after text that is no cell of the
    /// board as written (a column `d=`, `b2-c2=`). Holds the text before
    /// the `=` and the mark the move must place.
    FixedMarkText(String, Side),
    /// `=` followed by something that is not a mark. Holds the cell and the text.
    UnknownMark(Cell, String),
    /// A cell or column off the board. Holds it as written.
    OffBoard(String),
    /// `swap` where the table has no pie rule (PI1).
    NoPieRule,
    /// `swap` other than in answer to the first move (PI1).
    SwapLate,
    /// No slide leads from the first cell to the second (`slides(cell)`),
    /// though some start at the first.
    NoSlide(Cell, Cell),
    /// No slide starts at the first cell (a cube inside Quixo's border).
    /// Holds the cells the move names. Worded by `no_slide` where the
    /// rulebook has no `no_slide_from` text.
    NoSlideFrom(Cell, Cell),
    /// The slide's first cell holds the opponent's mark, which the mover
    /// may not take. Holds the cell and the mark.
    SlideTake(Cell, Side),
    /// The slide's first cell is empty where the mover takes only its own
    /// mark (Pop Out). Holds the cell.
    SlideEmpty(Cell),
    /// `^…` names no slide of this rulebook. Holds the text.
    NoSlideNamed(String),
    /// A placement without a twist where every placement is followed by
    /// one (`twists()`), unless it makes a line. Holds the cell.
    MustTwist(Cell),
    /// A twist after a placement that makes a line: the game ends with the
    /// placement. Holds the cell.
    LineBeforeTwist(Cell),
    /// `…/name` names no twist of this rulebook. Holds the name.
    NoTwist(String),
    /// A move that completes a line, where lines remove (`removes()`), names
    /// no piece to remove. Holds where a moved piece came from (none for
    /// a placement), the cell the piece lands on, and a piece it may
    /// remove, for the example.
    MustRemove(Option<Cell>, Cell, Cell),
    /// A removal after a move that completes no line (or where lines do not
    /// remove). Holds the cell the piece lands on.
    RemovesNothing(Cell),
    /// A removal after a placement whose line removes nothing
    /// (`placing_lines()` is "count for nothing"). Holds the cell.
    PlacedLineRemoves(Cell),
    /// A placement that completes a line where such placements are refused
    /// (`placing_lines()` is "refused"). Holds the cell.
    PlacedLine(Cell),
    /// The piece to remove is not there. Holds the cell and the side whose
    /// piece it should be.
    NotRemovable(Cell, Side),
    /// The piece to remove stands in a completed line while another of that
    /// side does not (`removes()` is "not in a line"). Holds the cell and
    /// the side.
    TakeInLine(Cell, Side),
    /// The cell is forbidden to the side on this move of its
    /// (`forbidden()`). Holds the cell, the side and its move number.
    Forbidden(Cell, Side, u32),
    /// The move makes a pattern its side may not (`forbidden_patterns()`).
    /// Holds the cell, the side, the pattern, and the marks of each line
    /// making it.
    Pattern(Cell, Side, Pattern, Vec<Vec<Cell>>),
    /// A placement that names no size where pieces have sizes
    /// (`sizes()`). Holds the cell and the sizes' letters.
    NoSize(Cell, Vec<char>),
    /// `=` followed by something that is not a size. Holds the cell, the
    /// text and the sizes' letters.
    UnknownSize(Cell, String, Vec<char>),
    /// The side has no piece of that size left in hand. Holds the cell,
    /// the side and the size's letter.
    NoneInHand(Cell, Side, char),
    /// The piece may not cover the cell's top, as large or larger. Holds
    /// the cell, the size of the piece, and the side and size of the top.
    CannotCover(Cell, char, Side, char),
    /// The rulebook's `refuse` hook said no. Holds its reason.
    Script(String),
}

/// A move that completes a line written with a piece it may remove:
/// `c1xb2`, `d6-d7xa1`.
pub(crate) fn removal_example(grid: Grid, from: Option<Cell>, to: Cell, take: Cell) -> String {
    format!(
        "{}x{}",
        written_before_removal(grid, from, to),
        grid.name(take)
    )
}

/// A move that completes a line as written before its removal is named:
/// `d3-d2` for a step, `a7` for a placement.
pub(crate) fn written_before_removal(grid: Grid, from: Option<Cell>, to: Cell) -> String {
    match from {
        Some(f) => format!("{}-{}", grid.name(f), grid.name(to)),
        None => grid.name(to).to_string(),
    }
}

impl Refusal {
    /// The reason in the engine's words, worded to follow the move
    /// (`e5: the cell is taken`), naming cells as `grid` does.
    pub fn describe(&self, grid: Grid) -> String {
        let name = |c: &Cell| grid.name(*c);
        match self {
            Refusal::GameOver(o) => format!("the game is over ({o})"),
            Refusal::Occupied(_) => "the cell is taken".to_string(),
            Refusal::ClosedRegion(_) => "that board is closed (won or full)".to_string(),
            Refusal::WrongRegion(_, r) => format!("the move must be played on board {}", r + 1),
            Refusal::MustPlace(example) => {
                must_place(example.and_then(Move::to).map(|c| name(&c)).as_ref())
            }
            Refusal::MustMove(example) => must_move(
                example
                    .and_then(|m| match m {
                        Move::Slide { from, to } => Some((from, to)),
                        _ => Some((m.from()?, m.to()?)),
                    })
                    .map(|(a, b)| format!("{}-{}", name(&a), name(&b)))
                    .as_ref(),
            ),
            Refusal::NotOwnPiece(c) => {
                format!("no piece of the side to move stands on {}", name(c))
            }
            Refusal::Unreachable(a, b) => {
                format!("a piece on {} cannot reach {}", name(a), name(b))
            }
            Refusal::JumpBlocked(..) => "the jump passes over an occupied cell".to_string(),
            Refusal::Unsupported(_, Some(landing)) => format!(
                "a mark cannot stand there yet: in that column it lands on {}",
                name(landing)
            ),
            Refusal::Unsupported(..) => {
                "a mark cannot stand there yet: the cells it rests on are empty".to_string()
            }
            Refusal::ColumnFull(col) => format!("column {col} is full"),
            Refusal::NoColumns(_) => {
                "marks do not drop into columns here: name a cell, like b2".to_string()
            }
            Refusal::FixedMark(cell, mark) => fixed_mark(&name(cell), *mark),
            Refusal::FixedMarkText(text, mark) => fixed_mark(text, *mark),
            Refusal::UnknownMark(cell, text) => {
                let cell = name(cell);
                format!("`{text}` is not a mark: write {cell}=X or {cell}=O")
            }
            Refusal::OffBoard(t) => format!("{t} is not a cell of this board"),
            Refusal::NoPieRule => {
                "there is no pie rule at this table: `swap` is not a move here (PI1)".to_string()
            }
            Refusal::SwapLate => {
                "the pie rule lets the second player swap only in answer to the first move, once (PI1)"
                    .to_string()
            }
            Refusal::NoSlide(a, b) => format!("no slide leads from {} to {}", name(a), name(b)),
            Refusal::NoSlideFrom(a, _) => format!("no slide starts at {}", name(a)),
            Refusal::SlideTake(c, mark) => {
                format!("{} shows {mark}: the side to move may not take it", name(c))
            }
            Refusal::SlideEmpty(c) => {
                format!("{} is empty: the side to move takes only its own mark", name(c))
            }
            Refusal::NoSlideNamed(text) => format!("no slide is named `{text}` here"),
            Refusal::MustTwist(c) => {
                format!("a twist follows the placement: write {}/ and a twist", name(c))
            }
            Refusal::LineBeforeTwist(c) => {
                format!("the placement makes a line and ends the game: write {} alone", name(c))
            }
            Refusal::NoTwist(text) => format!("no twist is named `{text}` here"),
            Refusal::MustRemove(from, c, take) => format!(
                "{} completes a line: name the piece it removes too, like {}",
                name(c),
                removal_example(grid, *from, *c, *take)
            ),
            Refusal::RemovesNothing(c) => {
                format!("{} completes no line: the move removes nothing", name(c))
            }
            Refusal::PlacedLineRemoves(c) => format!(
                "{} completes a line while pieces are placed, and such a line removes nothing: write {} alone",
                name(c),
                name(c)
            ),
            Refusal::PlacedLine(c) => format!(
                "{} would complete a line while pieces are placed, which the rules refuse: place elsewhere",
                name(c)
            ),
            Refusal::NotRemovable(c, side) => {
                format!("no piece of {side}'s stands on {} to remove", name(c))
            }
            Refusal::TakeInLine(c, side) => format!(
                "{} stands in a line of {side}'s: remove a piece outside {side}'s lines while there is one",
                name(c)
            ),
            Refusal::Forbidden(c, side, n) => {
                format!(
                    "{side} may not take {} on its {} move",
                    name(c),
                    crate::ordinal::ordinal(*n as usize)
                )
            }
            Refusal::Pattern(c, _, p, lines) => {
                let lines = lines_text(grid, lines);
                format!("{} at {}: {lines}", p.named(), name(c))
            }
            Refusal::NoSize(c, sizes) => format!(
                "a piece from hand names its size: write {}",
                size_choices(&name(c).to_string(), sizes)
            ),
            Refusal::UnknownSize(_, _, sizes) if sizes.is_empty() => {
                "pieces have no sizes here: name a cell, like b2".to_string()
            }
            Refusal::UnknownSize(c, text, sizes) => format!(
                "`{text}` is not a size here: write {}",
                size_choices(&name(c).to_string(), sizes)
            ),
            Refusal::NoneInHand(_, side, size) => {
                format!("{side} has no {size} left in hand")
            }
            Refusal::CannotCover(c, size, side, top) => format!(
                "{} shows {side}{top}: {size} covers only a smaller piece",
                name(c)
            ),
            Refusal::Script(reason) => reason.clone(),
        }
    }
}

/// `b2=S, b2=M or b2=L`: the placements of each size on a cell.
pub(crate) fn size_choices(cell: &str, sizes: &[char]) -> String {
    let each: Vec<String> = sizes.iter().map(|l| format!("{cell}={l}")).collect();
    match each.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => each.concat(),
    }
}

/// A shape a move may be forbidden to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// A run longer than the side's shortest win that does not win.
    Overline,
    /// Two fours or more made by one move, two on one line included.
    DoubleFour,
    /// Two threes or more made by one move.
    DoubleThree,
}

impl Pattern {
    pub(crate) const ALL: [Pattern; 3] =
        [Pattern::Overline, Pattern::DoubleFour, Pattern::DoubleThree];

    /// The word a script writes: `"double three"`.
    pub fn word(self) -> &'static str {
        match self {
            Pattern::Overline => "overline",
            Pattern::DoubleFour => "double four",
            Pattern::DoubleThree => "double three",
        }
    }

    /// The word with its article, as a sentence names it: `an overline`.
    pub fn named(self) -> String {
        let article = if self == Pattern::Overline { "an" } else { "a" };
        format!("{article} {}", self.word())
    }

    /// The pattern's bit in a set of kinds.
    pub(crate) fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The marks of each line of a pattern, `f8 g8 h8 and h6 h7 h8`.
pub(crate) fn lines_text(grid: Grid, lines: &[Vec<Cell>]) -> String {
    let each: Vec<String> = lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|&c| grid.name(c).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    each.join(" and ")
}

/// [`Refusal::MustPlace`]'s words, with a placement of the position as
/// written, if there is one.
pub(crate) fn must_place(example: Option<&impl fmt::Display>) -> String {
    match example {
        Some(e) => format!("a move here places a mark: name an empty cell, like {e}"),
        None => "a move here places a mark, and none can be placed".to_string(),
    }
}

/// [`Refusal::MustMove`]'s words, as [`must_place`].
pub(crate) fn must_move(example: Option<&impl fmt::Display>) -> String {
    match example {
        Some(e) => format!("all pieces are placed: move one, like {e}"),
        None => "all pieces are placed: a move here moves one, and none can move".to_string(),
    }
}

/// Names as a choice: `a5`, `a5 or e1`, `a5, e1 or c1`.
pub(crate) fn either(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// [`Refusal::FixedMark`]'s words, for a cell or the text written.
fn fixed_mark(at: &dyn fmt::Display, mark: Side) -> String {
    format!("a move here places {mark}, not a mark of its choice: write {at}")
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
    "no_slide",
    "no_slide_from",
    "slide_take",
    "slide_empty",
    "must_twist",
    "line_before_twist",
    "no_twist",
    "must_remove",
    "removes_nothing",
    "placed_line_removes",
    "placed_line",
    "not_removable",
    "take_in_line",
    "forbidden",
    "overline",
    "double_four",
    "double_three",
    "no_size",
    "unknown_size",
    "none_in_hand",
    "cannot_cover",
];

/// The placeholders a `[refusals]` text may use.
pub const REFUSAL_PLACEHOLDERS: &[&str] = &[
    "{cell}",
    "{from}",
    "{to}",
    "{board}",
    "{span}",
    "{result}",
    "{mark}",
    "{text}",
    "{lines}",
    "{size}",
    "{top}",
    "{example}",
    "{n}",
    "{grid}",
    "{ends}",
];

/// The placeholders each refusal fills in (what [`crate::Rulebook::explain`]
/// knows for that kind); any other would print empty. Every refusal fills
/// in `{grid}`, the board's size (`3×3`), so that a text stays true when
/// a copy of the rulebook changes it.
pub fn refusal_placeholders(key: &str) -> Vec<&'static str> {
    let mut all = own_placeholders(key).to_vec();
    all.push("{grid}");
    all
}

/// The placeholders a refusal of `key` fills in beside `{grid}`.
fn own_placeholders(key: &str) -> &'static [&'static str] {
    match key {
        "occupied" | "unsupported" => &["{cell}", "{to}"],
        "closed_board" | "wrong_board" => &["{cell}", "{to}", "{board}", "{span}"],
        "column_full" | "no_columns" | "off_board" => &["{text}"],
        "fixed_mark" => &["{cell}", "{to}", "{mark}"],
        "unknown_mark" => &["{cell}", "{to}", "{text}"],
        "not_own_piece" => &["{cell}", "{from}"],
        "unreachable" | "jump_blocked" => &["{cell}", "{from}", "{to}"],
        "no_slide" => &["{cell}", "{from}", "{to}", "{text}", "{ends}"],
        "no_slide_from" => &["{cell}", "{from}", "{to}", "{text}"],
        "slide_take" => &["{cell}", "{from}", "{mark}"],
        "slide_empty" => &["{cell}", "{from}"],
        "must_twist" | "line_before_twist" => &["{cell}", "{to}"],
        "no_twist" => &["{text}"],
        "must_remove" => &["{cell}", "{to}", "{text}", "{example}"],
        "removes_nothing" | "placed_line_removes" | "placed_line" => &["{cell}", "{to}"],
        "not_removable" | "take_in_line" => &["{cell}", "{mark}"],
        "forbidden" => &["{cell}", "{to}", "{mark}", "{n}"],
        "overline" | "double_four" | "double_three" => &["{cell}", "{to}", "{mark}", "{lines}"],
        "no_size" => &["{cell}", "{to}", "{text}"],
        "unknown_size" => &["{cell}", "{to}", "{text}"],
        "none_in_hand" => &["{cell}", "{to}", "{mark}", "{size}"],
        "cannot_cover" => &["{cell}", "{to}", "{size}", "{top}"],
        "game_over" => &["{result}"],
        "must_place" | "must_move" => &["{example}"],
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
            Refusal::MustPlace(_) => "must_place",
            Refusal::MustMove(_) => "must_move",
            Refusal::NotOwnPiece(_) => "not_own_piece",
            Refusal::Unreachable(..) => "unreachable",
            Refusal::JumpBlocked(..) => "jump_blocked",
            Refusal::Unsupported(..) => "unsupported",
            Refusal::ColumnFull(_) => "column_full",
            Refusal::NoColumns(_) => "no_columns",
            Refusal::FixedMark(..) | Refusal::FixedMarkText(..) => "fixed_mark",
            Refusal::UnknownMark(..) => "unknown_mark",
            Refusal::OffBoard(_) => "off_board",
            Refusal::NoPieRule => "no_pie_rule",
            Refusal::SwapLate => "swap_late",
            Refusal::NoSlide(..) => "no_slide",
            Refusal::NoSlideFrom(..) => "no_slide_from",
            Refusal::SlideTake(..) => "slide_take",
            Refusal::SlideEmpty(_) => "slide_empty",
            Refusal::NoSlideNamed(_) => "no_slide",
            Refusal::MustTwist(_) => "must_twist",
            Refusal::LineBeforeTwist(_) => "line_before_twist",
            Refusal::NoTwist(_) => "no_twist",
            Refusal::MustRemove(..) => "must_remove",
            Refusal::RemovesNothing(_) => "removes_nothing",
            Refusal::PlacedLineRemoves(_) => "placed_line_removes",
            Refusal::PlacedLine(_) => "placed_line",
            Refusal::NotRemovable(..) => "not_removable",
            Refusal::TakeInLine(..) => "take_in_line",
            Refusal::Forbidden(..) => "forbidden",
            Refusal::Pattern(_, _, Pattern::Overline, _) => "overline",
            Refusal::Pattern(_, _, Pattern::DoubleFour, _) => "double_four",
            Refusal::Pattern(_, _, Pattern::DoubleThree, _) => "double_three",
            Refusal::NoSize(..) => "no_size",
            Refusal::UnknownSize(..) => "unknown_size",
            Refusal::NoneInHand(..) => "none_in_hand",
            Refusal::CannotCover(..) => "cannot_cover",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A move-number restriction counts the side's moves as people do
    /// ("its first move"): "its move 1" read as a name of the placement.
    #[test]
    fn a_forbidden_cell_names_the_move_as_an_ordinal() {
        let grid = Grid::new(3, 3).unwrap();
        let c3 = grid.parse_cell("c3").unwrap();
        assert_eq!(
            Refusal::Forbidden(c3, Side::X, 1).describe(grid),
            "X may not take c3 on its first move"
        );
        assert_eq!(
            Refusal::Forbidden(c3, Side::O, 2).describe(grid),
            "O may not take c3 on its second move"
        );
    }
}
