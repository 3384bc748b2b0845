//! Openings for a match: each line of a text is a sequence of moves in the
//! rulebook's notation, from the start, that a game begins with, so a match
//! between players that would repeat one game samples many positions.
//!
//! ```
//! use gridrules_core::Rulebook;
//! use gridrules_core::openings::parse;
//!
//! let rules = Rulebook::builtin("classic").unwrap();
//! let openings = parse(&rules, "# corner and centre\na1 b2\nb2 a1\n").unwrap();
//! assert_eq!(openings.len(), 2);
//! assert_eq!(openings[0].len(), 2);
//! ```

use crate::files::Kind;
use crate::position::Move;
use crate::rulebook::Rulebook;
use std::fmt;

/// A file of openings: plain text, one opening a line.
pub const OPENINGS: Kind = Kind {
    what: "file of openings",
    extension: "txt",
    max_bytes: 1 << 20,
};

/// Why a text of openings was refused: where (line and column, from 1;
/// line 0 for the text as a whole) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningError {
    /// The line, from 1.
    pub line: usize,
    /// The column of the move refused, from 1.
    pub col: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            0 => f.write_str(&self.message),
            line => write!(f, "{line}:{}: {}", self.col, self.message),
        }
    }
}

impl std::error::Error for OpeningError {}

/// The openings of `text` for `rules`: every line but blank ones, what
/// follows a `#` a comment; each move (in any case, as a record's) legal
/// where it is played and none ending the game (a match would have
/// nothing left to play).
///
/// # Errors
/// The first move that is not legal in its place, or ends the game; a text
/// with no opening.
pub fn parse(rules: &Rulebook, text: &str) -> Result<Vec<Vec<Move>>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = |col: usize, message: String| OpeningError {
            line: i + 1,
            col: col + 1,
            message,
        };
        let line = line.split_once('#').map_or(line, |(moves, _)| moves);
        if line.trim().is_empty() {
            continue;
        }
        let mut pos = rules.initial();
        let mut moves = Vec::new();
        for (col, word) in words(line) {
            let mv = rules
                .parse_move(&pos, &moves, &crate::notation::normal_case(word))
                .map_err(|e| at(col, format!("`{}`: {e}", word)))?;
            pos = rules
                .play(&pos, &moves, mv)
                .map_err(|e| at(col, format!("`{}`: {e}", word)))?;
            moves.push(mv);
            if pos.is_over() {
                return Err(at(col, format!("`{}` ends the game", word)));
            }
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(OpeningError {
            line: 0,
            col: 0,
            message: "no opening: one a line, its moves apart by spaces".to_string(),
        });
    }
    Ok(openings)
}

/// The words of `line`, apart by spaces or tabs, with the column (in
/// characters, from 0) each starts at.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut chars = line.char_indices().enumerate().peekable();
    std::iter::from_fn(move || {
        while chars.next_if(|(_, (_, ch))| ch.is_whitespace()).is_some() {}
        let (col, (start, _)) = chars.next()?;
        let mut end = line.len();
        while let Some(&(_, (at, ch))) = chars.peek() {
            if ch.is_whitespace() {
                end = at;
                break;
            }
            chars.next();
        }
        Some((col, &line[start..end]))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rulebook {
        Rulebook::builtin("classic").unwrap()
    }

    #[test]
    fn a_move_that_is_not_legal_is_named_with_its_place() {
        let e = parse(&rules(), "# two\nb2 a1\nb2 b2\n").unwrap_err();
        assert_eq!((e.line, e.col), (3, 4), "{e}");
        assert!(e.message.starts_with("`b2`"), "{e}");
    }

    #[test]
    fn an_opening_may_not_end_the_game() {
        let e = parse(&rules(), "a1 a2 b1 b2 c1").unwrap_err();
        assert_eq!((e.line, e.col), (1, 13), "{e}");
        assert!(e.message.contains("ends the game"), "{e}");
    }

    #[test]
    fn a_text_without_openings_is_refused() {
        let e = parse(&rules(), "# nothing\n\n").unwrap_err();
        assert_eq!(e.line, 0, "{e}");
    }

    /// Moves in any case, as a record takes them; a `#` starts a comment
    /// anywhere on a line.
    #[test]
    fn moves_in_any_case_and_comments_after_them_are_read() {
        let openings = parse(&rules(), "B2 A1 # corner\n  # none\nc3\n").unwrap();
        assert_eq!(openings.len(), 2);
        let b2 = rules().parse_move(&rules().initial(), &[], "b2").unwrap();
        assert_eq!(openings[0][0], b2);
        assert_eq!(openings[0].len(), 2);
    }

    #[test]
    fn tabs_part_moves_and_columns_count_characters() {
        let e = parse(&rules(), "b2\ta1\nb2  \tb2").unwrap_err();
        assert_eq!((e.line, e.col), (2, 6), "{e}");
        assert_eq!(parse(&rules(), " a1\tb2 ").unwrap()[0].len(), 2);
    }
}
