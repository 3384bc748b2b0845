//! The protocol's lines, and the only way to make one.

use std::fmt;

/// One line the brain writes, in one of the protocol's forms: `OK`, a
/// stone `x,y`, `ERROR …`, `UNKNOWN …`, `MESSAGE …` or `ABOUT`'s
/// `key="value"` pairs. Only this module makes one, and every text put
/// in it — a rulebook's refusal or title, a script's error, what the
/// manager sent — goes through `push_one_line`: no line holds a
/// control character (nor a bidi or invisible one), so none can end
/// early and start a line a manager would read as the brain's move, nor
/// reach a terminal as an escape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line(String);

impl Line {
    pub(super) fn ok() -> Line {
        Line("OK".to_string())
    }

    /// A stone at protocol coordinates: the brain's move, or `PLAY`'s echo.
    pub(super) fn stone(x: u32, y: u32) -> Line {
        Line(format!("{x},{y}"))
    }

    pub(super) fn error(reason: &str) -> Line {
        Line::with("ERROR ", reason)
    }

    pub(super) fn unknown(reason: &str) -> Line {
        Line::with("UNKNOWN ", reason)
    }

    pub(super) fn message(text: &str) -> Line {
        Line::with("MESSAGE ", text)
    }

    /// `ABOUT`'s answer.
    pub(super) fn about() -> Line {
        Line::with("", &super::about())
    }

    fn with(word: &str, text: &str) -> Line {
        let mut line = String::with_capacity(word.len() + text.len());
        line.push_str(word);
        push_one_line(&mut line, text);
        Line(line)
    }

    /// The line's text, without its end.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `text` on one line: each character the REPL shows as an escape
/// ([`crate::edge::hidden`]: control characters, bidi and invisible
/// format characters, the line and paragraph separators), and newline
/// and tab too, written as its escape, `\u{1b}`.
fn push_one_line(out: &mut String, text: &str) {
    for c in text.chars() {
        if c == '\n' || c == '\t' || crate::edge::hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
}

impl std::ops::Deref for Line {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Line {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Line {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl From<Line> for String {
    fn from(line: Line) -> String {
        line.0
    }
}
