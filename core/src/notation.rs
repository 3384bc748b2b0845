//! Move text: `b2` places a mark, `b2-c2` moves a piece.

use crate::geometry::Grid;
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
        }
    }
}

impl std::error::Error for ParseMoveError {}

fn looks_like_cell(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Parses a move in the notation of `grid`.
///
/// # Errors
/// [`ParseMoveError`] when the text is not a move or names a cell off the board.
pub fn parse_move(grid: Grid, text: &str) -> Result<Move, ParseMoveError> {
    let cell = |t: &str| {
        if !looks_like_cell(t) {
            return Err(ParseMoveError::Syntax(text.to_string()));
        }
        grid.parse_cell(t)
            .ok_or_else(|| ParseMoveError::OffBoard(t.to_string()))
    };
    match text.split_once('-') {
        None => Ok(Move::Place { to: cell(text)? }),
        Some((from, to)) => Ok(Move::Step {
            from: cell(from)?,
            to: cell(to)?,
        }),
    }
}

/// Display form of a move on `grid` (`b2`, `b2-c2`).
pub fn move_name(grid: Grid, mv: Move) -> MoveName {
    MoveName { grid, mv }
}

/// See [`move_name`].
pub struct MoveName {
    grid: Grid,
    mv: Move,
}

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mv {
            Move::Place { to } => write!(f, "{}", self.grid.name(to)),
            Move::Step { from, to } => {
                write!(f, "{}-{}", self.grid.name(from), self.grid.name(to))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    #[test]
    fn round_trip() {
        let g = Grid::new(3, 3).unwrap();
        for text in ["a1", "c3", "b2-c2", "a1-c3"] {
            let mv = parse_move(g, text).unwrap();
            assert_eq!(move_name(g, mv).to_string(), text);
        }
        assert_eq!(parse_move(g, "b2").unwrap(), Move::Place { to: Cell(4) });
    }

    #[test]
    fn refusals() {
        let g = Grid::new(3, 3).unwrap();
        assert_eq!(
            parse_move(g, "d1"),
            Err(ParseMoveError::OffBoard("d1".into()))
        );
        assert_eq!(
            parse_move(g, "a4-a1"),
            Err(ParseMoveError::OffBoard("a4".into()))
        );
        for bad in ["", "b", "2b", "b2-", "-b2", "b2c2", "B2", "b2-c2-c3", "b+2"] {
            assert!(
                matches!(parse_move(g, bad), Err(ParseMoveError::Syntax(_))),
                "{bad}"
            );
        }
    }
}
