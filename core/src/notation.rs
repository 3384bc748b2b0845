//! Move text: `b2` places a mark, `b2=O` places a chosen one, `d` drops into
//! a column, `b2-c2` moves a piece; and how a rulebook reads and writes them.

use crate::geometry::{Cell, Grid};
use crate::position::{Move, Position, Side};
use crate::rulebook::{Marks, Rulebook};
use crate::rules::{PlayError, Refusal};
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
            ParseMoveError::OffBoard(t) => write!(f, "{t}: no such cell on this board"),
            ParseMoveError::NoMark(t) => {
                write!(f, "`{t}=` names no mark: write {t}=X or {t}=O")
            }
        }
    }
}

impl std::error::Error for ParseMoveError {}

fn looks_like_cell(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Whether `text` has the shape of a move on some board: a cell (`b2`), a
/// column (`d`), either with a chosen mark (`b2=O`), or a movement (`b2-c2`).
/// The REPL uses it to tell a bare move from a command.
pub fn looks_like_move(text: &str) -> bool {
    let column = |t: &str| t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase();
    if let Some((from, to)) = text.split_once('-') {
        return looks_like_cell(from) && looks_like_cell(to);
    }
    let (target, _) = text.split_once('=').unwrap_or((text, ""));
    looks_like_cell(target) || column(target)
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
        Some((t, _)) => return Err(ParseMoveError::NoMark(t.to_string())),
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
            Move::Step { from, to } => {
                write!(f, "{}-{}", self.grid.name(from), self.grid.name(to))
            }
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// Moves as a rulebook writes and reads them, in a position: the column a
/// mark drops into and the mark a move chooses depend on the rulebook and on
/// the position.
impl Rulebook {
    /// A move's text in this rulebook's notation: `b2`, `b2-c2`, and `b2=O`
    /// where a move chooses its mark.
    pub fn move_text(&self, mv: Move) -> String {
        move_name(self.grid(), mv, self.tables.marks == Marks::Either).to_string()
    }

    /// The cell a mark dropped into column `col` lands on in `pos`: the one
    /// cell of that column that may be filled now, if there is exactly one.
    pub fn landing(&self, pos: &Position, col: u32) -> Option<Cell> {
        match self.column_cells(pos, col)[..] {
            [cell] => Some(cell),
            _ => None,
        }
    }

    /// The cells of column `col`, lowest first.
    fn column(&self, col: u32) -> impl Iterator<Item = Cell> {
        let g = self.grid();
        (0..g.height()).filter_map(move |row| g.cell(i64::from(col), i64::from(row)))
    }

    /// The cells of column `col` that may be filled now, lowest first.
    fn column_cells(&self, pos: &Position, col: u32) -> Vec<Cell> {
        let free = self.free_cells(pos);
        self.column(col).filter(|&c| free.contains(c)).collect()
    }

    /// Parses a move in this rulebook's notation, in position `pos` reached by
    /// `history` (see [`Rulebook::legal_moves`]): `b2`
    /// (the mover's mark), `b2=O` (a chosen mark), `d` (a drop into column d,
    /// where marks rest on support), `b2-c2` (a piece moves).
    ///
    /// # Errors
    /// [`PlayError::Notation`] for text that is not a move on this board;
    /// [`PlayError::Refused`] for a move the notation can say but the
    /// rulebook does not have (a chosen mark where marks are not chosen, a
    /// column where marks do not drop, a full column).
    pub fn parse_move(
        &self,
        pos: &Position,
        history: &[Move],
        text: &str,
    ) -> Result<Move, PlayError> {
        let g = self.grid();
        let marks = self.tables.marks;
        let mark = |cell: Cell, given: Option<&str>| -> Result<Side, PlayError> {
            let cell_name = g.name(cell).to_string();
            let Some(given) = given else {
                return Ok(marks.default_mark(pos.turn));
            };
            let mut chars = given.chars();
            let side = match (chars.next().and_then(Side::from_char), chars.next()) {
                (Some(side), None) => side,
                _ => {
                    return Err(
                        self.refused_at(pos, Refusal::UnknownMark(cell_name, given.to_string()))
                    );
                }
            };
            if !marks.allows(pos.turn, side) {
                return Err(self.refused_at(
                    pos,
                    Refusal::FixedMark(cell_name, marks.default_mark(pos.turn)),
                ));
            }
            Ok(side)
        };
        if text == "swap" {
            return Ok(Move::Swap);
        }
        let parsed = parse_move_text(g, text).map_err(|e| match e {
            ParseMoveError::OffBoard(cell) => self.refused_at(pos, Refusal::OffBoard(cell)),
            // `b2=` where the move's mark is fixed: say which mark it places.
            ParseMoveError::NoMark(cell) if marks != Marks::Either => {
                self.refused_at(pos, Refusal::FixedMark(cell, marks.default_mark(pos.turn)))
            }
            e => PlayError::Notation(e),
        })?;
        match parsed {
            MoveText::Place { to, mark: m } => Ok(Move::Place {
                to,
                mark: mark(to, m.as_deref())?,
            }),
            MoveText::Step { from, to } => Ok(Move::Step { from, to }),
            MoveText::Column { col, mark: m } => {
                let letter = column_name(col);
                if !self.tables.gravity {
                    return Err(self.refused_at(pos, Refusal::NoColumns(text.to_string())));
                }
                if col >= g.width() {
                    return Err(self.refused_at(pos, Refusal::OffBoard(letter)));
                }
                match self.column_cells(pos, col)[..] {
                    [to] => Ok(Move::Place {
                        to,
                        mark: mark(to, m.as_deref())?,
                    }),
                    // Several cells of the column may be filled: a column
                    // does not name one of them.
                    [_, _, ..] => Err(self.refused_at(pos, Refusal::NoColumns(text.to_string()))),
                    // None may: the column is full, or the board's own rules
                    // refuse the empty cell that rests on filled ones (a
                    // board the move is not sent to).
                    [] => {
                        let occupied = pos.occupied();
                        let resting = self.column(col).find(|&c| {
                            !occupied.contains(c) && self.tables.support(c).is_subset(occupied)
                        });
                        let Some(to) = resting else {
                            return Err(self.refused_at(pos, Refusal::ColumnFull(letter)));
                        };
                        let mv = Move::Place {
                            to,
                            mark: mark(to, m.as_deref())?,
                        };
                        self.check(pos, history, mv)?;
                        Err(self.refused(Refusal::NoColumns(text.to_string())))
                    }
                }
            }
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
        for text in ["b2", "b2-c2", "d", "d=O", "b2=O", "b2=Q", "z99", "b2="] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in ["", "B2", "=O", "help", "b2-", "-b2", "ab"] {
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
