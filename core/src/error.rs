//! Locations and the errors that carry them.

use std::fmt;

/// A place in a file: path as the user named it, 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file, as the user named it (built-in files read `rules/…` or `scripts/…`).
    pub path: String,
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
}

impl Location {
    /// The location of byte `offset` in `source`, which was read from `path`.
    pub fn from_offset(path: &str, source: &str, offset: usize) -> Location {
        // An offset inside a character counts as that character's start.
        let mut end = offset.min(source.len());
        while !source.is_char_boundary(end) {
            end -= 1;
        }
        let before = &source[..end];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        Location {
            path: path.to_string(),
            line,
            col: before[line_start..].chars().count() + 1,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.path, self.line, self.col)
    }
}

/// One problem found in a rulebook or its script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where it is, when known.
    pub location: Option<Location>,
    /// What is wrong and what was expected (lower case, no trailing period).
    pub message: String,
}

impl Problem {
    /// A problem at `location`.
    pub fn at(location: Location, message: impl Into<String>) -> Problem {
        Problem {
            location: Some(location),
            message: message.into(),
        }
    }

    /// A problem with no position (a whole file, say).
    pub fn bare(message: impl Into<String>) -> Problem {
        Problem {
            location: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// A rulebook that could not be loaded: every problem found, at least one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulebookError {
    /// The problems, in the order found.
    pub problems: Vec<Problem>,
}

impl From<Problem> for RulebookError {
    fn from(p: Problem) -> RulebookError {
        RulebookError { problems: vec![p] }
    }
}

impl From<ScriptError> for RulebookError {
    fn from(e: ScriptError) -> RulebookError {
        Problem {
            location: e.location.clone(),
            message: e.describe(),
        }
        .into()
    }
}

impl fmt::Display for RulebookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulebookError {}

/// What stopped a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScriptErrorKind {
    /// The script does not parse.
    Syntax,
    /// The script raised an error while running (a type error, `throw`, …).
    Runtime,
    /// The script hit a sandbox limit (operations, call depth, data size).
    Limit,
    /// A hook returned a value of the wrong shape.
    BadValue,
}

/// An error raised by a rulebook's script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// What kind of failure.
    pub kind: ScriptErrorKind,
    /// The hook that was running, if any.
    pub hook: Option<&'static str>,
    /// Where in the script, when known.
    pub location: Option<Location>,
    /// Rhai's message, lower case.
    pub message: String,
}

impl ScriptError {
    /// The message without the location: names the hook and the kind of failure.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            ScriptErrorKind::Syntax => "syntax error",
            ScriptErrorKind::Runtime => "script error",
            ScriptErrorKind::Limit => "script stopped",
            // The message says what the hook answered and what was expected.
            ScriptErrorKind::BadValue => "",
        };
        match (self.hook, what) {
            (Some(h), "") => format!("hook `{h}`: {}", self.message),
            (Some(h), what) => format!("{what} in hook `{h}`: {}", self.message),
            (None, "") => self.message.clone(),
            (None, what) => format!("{what}: {}", self.message),
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(loc) => write!(f, "{loc}: {}", self.describe()),
            None => f.write_str(&self.describe()),
        }
    }
}

impl std::error::Error for ScriptError {}
