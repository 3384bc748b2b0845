//! Move text: `b2` places a mark, `b2=O` places a chosen one (`b2=L` a
//! piece of a size), `d` drops into a column, `b2-c2` moves a piece, as text on a board of any size. How a
//! rulebook gives that text meaning in a position is `rules::parse`'s.

use crate::geometry::{Cell, Grid};
use crate::position::Move;
use std::fmt;

/// Text that is not a move on this board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// The text is not in the notation (`b2` or `b2-c2`). Holds the text.
    Syntax(String),
    /// A coordinate lies off the board. Holds the coordinate.
    OffBoard(String),
    /// `b2=` with nothing after the `=`. Holds the text before it.
    NoMark(String),
    /// A move that names more than one piece to remove (`d7xa1xb2`).
    ManyRemovals {
        /// The text.
        text: String,
        /// The move with its first removal only (`d7xa1`).
        first: String,
    },
    /// The text is in no notation of the rulebook; `like` holds legal moves
    /// of the position, one of each way of writing them.
    NotWritten {
        /// The text.
        text: String,
        /// Legal moves as written, one of each kind (none when none is legal).
        like: Vec<String>,
    },
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Syntax(t) => {
                write!(
                    f,
                    "`{t}` is not a move: write a cell like `b2`, or `b2-c2` to move a piece"
                )
            }
            ParseMoveError::NotWritten { text, .. } if row_first(text).is_some() => {
                let cell = row_first(text).unwrap_or_default();
                write!(
                    f,
                    "`{text}` is not a move: a cell is named column first, row second: `{cell}`"
                )
            }
            ParseMoveError::NotWritten { text, like } if !like.is_empty() => {
                let like: Vec<String> = like.iter().map(|m| format!("`{m}`")).collect();
                write!(
                    f,
                    "`{text}` is not a move: moves here are written like {} (`legal` lists them)",
                    like.join(" or ")
                )
            }
            ParseMoveError::NotWritten { text, .. } => ParseMoveError::Syntax(text.clone()).fmt(f),
            ParseMoveError::OffBoard(t) => write!(f, "{t}: no such cell on this board"),
            ParseMoveError::NoMark(t) => {
                write!(f, "`{t}=` names no mark: write {t}=X or {t}=O")
            }
            ParseMoveError::ManyRemovals { text, first } => write!(
                f,
                "`{text}` names more than one piece: a move removes one, named after one x, like {first}"
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A cell written row first (`5e`), written column first (`e5`).
fn row_first(text: &str) -> Option<String> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (row, column) = text.split_at(digits);
    let plain = (1..=2).contains(&digits)
        && (1..=2).contains(&column.len())
        && column.bytes().all(|b| b.is_ascii_lowercase());
    plain.then(|| format!("{column}{row}"))
}

fn looks_like_cell(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// A move as notation writes it: cells in lower case, a chosen mark or a
/// piece's size in upper case (`B2=o` is `b2=O`). The prompt and records
/// read moves in any case.
pub fn normal_case(text: &str) -> String {
    match text.split_once('=') {
        Some((cell, mark)) => format!("{}={}", cell.to_lowercase(), mark.to_uppercase()),
        None => text.to_lowercase(),
    }
}

/// Whether `text` has the shape of a move on some board: a cell (`b2`), a
/// column (`d`), either with a chosen mark (`b2=O`), a movement (`b2-c2`),
/// a slide (`^d`) or a placement and a twist (`c3/2+`). The REPL uses it
/// to tell a bare move from a command.
pub fn looks_like_move(text: &str) -> bool {
    // A slide's name: `^d`.
    if let Some(rest) = text.strip_prefix('^') {
        return !rest.is_empty()
            && rest
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    }
    let column = |t: &str| t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase();
    // A placement and a twist: `c3/2+`.
    if let Some((place, twist)) = text.split_once('/') {
        return looks_like_cell(place)
            && !twist.is_empty()
            && (twist.chars())
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-".contains(c));
    }
    // A move that removes a piece: `d7xa1`, `d6-d7xa1`.
    if let Some((mv, take)) = split_take(text) {
        return looks_like_cell(take) && (looks_like_cell(mv) || looks_like_move(mv));
    }
    if let Some((from, to)) = text.split_once('-') {
        return looks_like_cell(from) && looks_like_cell(to);
    }
    let (target, _) = text.split_once('=').unwrap_or((text, ""));
    looks_like_cell(target) || column(target)
}

/// `d7xa1` as the move (`d7`) and the piece it removes (`a1`): split at an
/// `x` that follows a digit, so that a column named `x` stays a column.
pub fn split_take(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    let at = (1..b.len()).find(|&i| b[i] == b'x' && b[i - 1].is_ascii_digit())?;
    Some((&text[..at], &text[at + 1..]))
}

/// A move as written, before a rulebook and a position give it meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveText {
    /// `b2`, or `b2=O` with the mark chosen (the text after `=`, unchecked).
    Place {
        /// The cell.
        to: Cell,
        /// The text after `=`, if any.
        mark: Option<String>,
    },
    /// `d`, or `d=O`: a drop into a column (0 is `a`), not checked against the board.
    Column {
        /// The column, from 0.
        col: u32,
        /// The text after `=`, if any.
        mark: Option<String>,
    },
    /// `b2-c2`.
    Step {
        /// Where the piece stands.
        from: Cell,
        /// Where it goes.
        to: Cell,
    },
}

/// A column's letter, `a` for 0.
pub fn column_name(col: u32) -> String {
    char::from(b'a' + col.min(25) as u8).to_string()
}

/// Parses a move's text on `grid`: a cell (`b2`), a cell with a chosen mark
/// (`b2=O`), a column (`d`, `d=O`) or a movement (`b2-c2`).
///
/// # Errors
/// [`ParseMoveError`] when the text is none of these or names a cell off the board.
pub fn parse_move_text(grid: Grid, text: &str) -> Result<MoveText, ParseMoveError> {
    let cell = |t: &str| {
        if !looks_like_cell(t) {
            return Err(ParseMoveError::Syntax(text.to_string()));
        }
        grid.parse_cell(t)
            .ok_or_else(|| ParseMoveError::OffBoard(t.to_string()))
    };
    if let Some((from, to)) = text.split_once('-') {
        return Ok(MoveText::Step {
            from: cell(from)?,
            to: cell(to)?,
        });
    }
    let (target, mark) = match text.split_once('=') {
        Some((t, m)) if !m.is_empty() => (t, Some(m.to_string())),
        Some((t, _)) => {
            // An off-board cell is the first thing wrong with `z9=`.
            if !(t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase()) {
                cell(t)?;
            }
            return Err(ParseMoveError::NoMark(t.to_string()));
        }
        None => (text, None),
    };
    if target.len() == 1 && target.as_bytes()[0].is_ascii_lowercase() {
        let col = u32::from(target.as_bytes()[0] - b'a');
        return Ok(MoveText::Column { col, mark });
    }
    Ok(MoveText::Place {
        to: cell(target)?,
        mark,
    })
}

/// Display form of a move on `grid` (`b2`, `b2-c2`); with `explicit_mark`,
/// a placement names its mark (`b2=O`).
pub fn move_name(grid: Grid, mv: Move, explicit_mark: bool) -> MoveName {
    MoveName {
        grid,
        mv,
        explicit_mark,
    }
}

/// How a rulebook writes its moves beyond the grid's names: whether a
/// placement names its mark, and the names its slides and twists were
/// given. Built with the rulebook's mechanics and handed down to the
/// script layer, which sits below them, so that a hook's `move.text` is
/// the text the player writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveNames {
    /// Whether a placement names its mark (`b2=O`).
    pub explicit_mark: bool,
    /// The slides that have a name (`^d`): from, to, name.
    pub slides: Vec<(Cell, Cell, String)>,
    /// Each twist's name by its number (`2+`).
    pub twists: Vec<String>,
    /// Each size's letter, smallest first (`b2=L`).
    pub sizes: Vec<char>,
}

impl MoveNames {
    /// `mv`'s text on `grid`: `b2`, `b2=O`, `b2=L`, `b2-c2`, `^d`, `c3/2+`, `d6-d7xa1`.
    pub fn text(&self, grid: Grid, mv: Move) -> String {
        match mv {
            Move::Slide { from, to } => {
                match self.slides.iter().find(|s| (s.0, s.1) == (from, to)) {
                    Some((_, _, name)) => name.clone(),
                    None => move_name(grid, mv, false).to_string(),
                }
            }
            Move::Twist { to, twist } => match self.twists.get(usize::from(twist)) {
                Some(name) => format!("{}/{name}", grid.name(to)),
                // A move built, not read (refused before it is played).
                None => format!("{}/#{twist}", grid.name(to)),
            },
            Move::Sized { to, size } => match self.sizes.get(usize::from(size)) {
                Some(letter) => format!("{}={letter}", grid.name(to)),
                None => move_name(grid, mv, false).to_string(),
            },
            _ => move_name(grid, mv, self.explicit_mark).to_string(),
        }
    }
}

/// See [`move_name`].
pub struct MoveName {
    grid: Grid,
    mv: Move,
    explicit_mark: bool,
}

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Move::Place { to, mark } if self.explicit_mark => {
                write!(f, "{}={mark}", self.grid.name(to))
            }
            Move::Place { to, .. } => write!(f, "{}", self.grid.name(to)),
            // The size's letter is the rulebook's (`MoveNames`).
            Move::Sized { to, size } => write!(f, "{}=#{size}", self.grid.name(to)),
            Move::Step { from, to } => {
                write!(f, "{}-{}", self.grid.name(from), self.grid.name(to))
            }
            Move::Slide { from, to } => {
                write!(f, "{}-{}", self.grid.name(from), self.grid.name(to))
            }
            // The twist's name is the rulebook's (`MoveNames`): the grid
            // alone knows its number.
            Move::Twist { to, twist } => write!(f, "{}/{twist}", self.grid.name(to)),
            Move::Take(r) => {
                if let Some(from) = r.from() {
                    write!(f, "{}-", self.grid.name(from))?;
                }
                write!(f, "{}x{}", self.grid.name(r.to()), self.grid.name(r.take()))
            }
            Move::Swap => f.write_str("swap"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Side;

    fn place(to: u16, mark: Option<&str>) -> MoveText {
        MoveText::Place {
            to: Cell(to),
            mark: mark.map(str::to_string),
        }
    }

    /// A cell written row first is answered with it written column first.
    #[test]
    fn a_cell_written_row_first_is_told_the_other_way() {
        let said = |text: &str| {
            ParseMoveError::NotWritten {
                text: text.into(),
                like: vec!["a1".into()],
            }
            .to_string()
        };
        assert_eq!(
            said("5e"),
            "`5e` is not a move: a cell is named column first, row second: `e5`"
        );
        assert_eq!(said("10ab").rsplit(' ').next(), Some("`ab10`"));
        assert!(said("5e5").contains("written like `a1`"));
    }

    #[test]
    fn round_trip() {
        let g = Grid::new(3, 3).unwrap();
        for text in ["a1", "c3", "b2-c2", "a1-c3"] {
            let mv = match parse_move_text(g, text).unwrap() {
                MoveText::Place { to, .. } => Move::Place { to, mark: Side::X },
                MoveText::Step { from, to } => Move::Step { from, to },
                MoveText::Column { .. } => unreachable!("{text}"),
            };
            assert_eq!(move_name(g, mv, false).to_string(), text);
        }
        let o = Move::Place {
            to: Cell(4),
            mark: Side::O,
        };
        assert_eq!(move_name(g, o, true).to_string(), "b2=O");
        assert_eq!(parse_move_text(g, "b2").unwrap(), place(4, None));
        assert_eq!(parse_move_text(g, "b2=O").unwrap(), place(4, Some("O")));
        assert_eq!(parse_move_text(g, "b2=Q").unwrap(), place(4, Some("Q")));
        assert_eq!(
            parse_move_text(g, "d").unwrap(),
            MoveText::Column { col: 3, mark: None }
        );
    }

    #[test]
    fn move_shapes() {
        for text in [
            "b2", "b2-c2", "d", "d=O", "b2=O", "b2=Q", "z99", "b2=", "d7xa1", "d6-d7xa1",
        ] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in [
            "", "B2", "=O", "help", "b2-", "-b2", "ab", "d7x", "xa1", "d7xa",
        ] {
            assert!(!looks_like_move(text), "{text}");
        }
    }

    #[test]
    fn refusals() {
        let g = Grid::new(3, 3).unwrap();
        assert_eq!(
            parse_move_text(g, "b2="),
            Err(ParseMoveError::NoMark("b2".into()))
        );
        // Off the board first: the missing mark is not the first thing wrong.
        assert_eq!(
            parse_move_text(g, "z9="),
            Err(ParseMoveError::OffBoard("z9".into()))
        );
        assert_eq!(
            parse_move_text(g, "d1"),
            Err(ParseMoveError::OffBoard("d1".into()))
        );
        assert_eq!(
            parse_move_text(g, "a4-a1"),
            Err(ParseMoveError::OffBoard("a4".into()))
        );
        for bad in [
            "", "2b", "b2-", "-b2", "b2c2", "B2", "b2-c2-c3", "b+2", "=O", "B",
        ] {
            assert!(
                matches!(parse_move_text(g, bad), Err(ParseMoveError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
