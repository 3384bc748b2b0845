//! Locations and the errors that carry them.
//!
//! A problem keeps the text it points into ([`Source`], shared) and the byte
//! range of the offending token, as read at load: the REPL draws it from
//! there, so an edited or missing file never changes what is shown.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

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

/// A file's text as it was loaded, shared by every problem that points into it.
#[derive(Clone, PartialEq, Eq)]
pub struct Source {
    /// The file, as the user named it.
    pub path: String,
    /// Its text when it was read.
    pub text: Arc<str>,
}

impl fmt::Debug for Source {
    // The text would bury the problem in a Debug dump; the path says which.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({:?})", self.path)
    }
}

impl Source {
    /// A source read from `path`.
    pub fn new(path: impl Into<String>, text: impl Into<Arc<str>>) -> Source {
        Source {
            path: path.into(),
            text: text.into(),
        }
    }

    /// The location of byte `offset`.
    pub fn location(&self, offset: usize) -> Location {
        Location::from_offset(&self.path, &self.text, offset)
    }

    /// The byte offset of 1-based `line` and `col` (in characters), clamped
    /// to the text.
    pub fn offset(&self, line: usize, col: usize) -> usize {
        let start: usize = self
            .text
            .split_inclusive('\n')
            .take(line.saturating_sub(1))
            .map(str::len)
            .sum();
        let rest = &self.text[start..];
        let in_line = rest
            .char_indices()
            .take_while(|&(_, c)| c != '\n')
            .nth(col.saturating_sub(1))
            .map_or_else(|| rest.find('\n').unwrap_or(rest.len()), |(i, _)| i);
        start + in_line
    }

    /// The range of the token that starts at `offset`: a name with its
    /// `::` path, a number, a quoted string, or else one character.
    pub fn token_at(&self, offset: usize) -> Range<usize> {
        let text = &self.text[offset.min(self.text.len())..];
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let len = match text.chars().next() {
            None => 0,
            Some('"') => text[1..].find('"').map_or(1, |i| i + 2),
            Some(c) if word(c) => {
                let mut len = 0;
                let mut rest = text;
                loop {
                    let n: usize = rest
                        .chars()
                        .take_while(|&c| word(c))
                        .map(char::len_utf8)
                        .sum();
                    len += n;
                    rest = &rest[n..];
                    match rest.strip_prefix("::") {
                        Some(after) if after.starts_with(word) => {
                            len += 2;
                            rest = after;
                        }
                        _ => break,
                    }
                }
                len
            }
            Some(c) => c.len_utf8(),
        };
        let start = offset.min(self.text.len());
        start..start + len
    }

    /// The range of the token at 1-based `line` and `col`, with the module
    /// path before it (`lines::stright`, where Rhai points at `stright`).
    pub fn token_at_line_col(&self, line: usize, col: usize) -> Range<usize> {
        let range = self.token_at(self.offset(line, col));
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let mut start = range.start;
        while let Some(before) = self.text[..start].strip_suffix("::") {
            let module = before.len() - before.trim_end_matches(word).len();
            if module == 0 {
                break;
            }
            start = before.len() - module;
        }
        start..range.end
    }
}

/// What a problem points at: a range of its source, with a label, and other
/// ranges that explain it (where an unclosed `{` opened, say).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The text the ranges index.
    pub source: Source,
    /// The offending bytes.
    pub range: Range<usize>,
    /// What the range is, under the carets (`unknown key`).
    pub label: Option<String>,
    /// Other ranges of the same source, each with what it adds.
    pub context: Vec<(Range<usize>, String)>,
}

impl Snippet {
    /// `range` of `source`, with no label yet.
    pub fn new(source: &Source, range: Range<usize>) -> Snippet {
        Snippet {
            source: source.clone(),
            range,
            label: None,
            context: Vec::new(),
        }
    }
}

/// What kind of problem: what code and tests match, where the message is
/// for people (and its wording may be refined).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProblemKind {
    /// A file cannot be read or written.
    Io,
    /// The TOML does not parse, or does not read as the file's format
    /// where no key is to blame.
    Toml,
    /// A key or section the format does not have (`heigth`, `[tabel]`, an
    /// unknown refusal).
    UnknownKey,
    /// A key every such file or table must set is absent.
    MissingKey,
    /// A value of a type the key does not take (`width = "3"`, a float param).
    WrongType,
    /// A value of the right type that the rules of the format refuse (a
    /// board of width 0, a name with capitals, an unknown placeholder).
    BadValue,
    /// No built-in rulebook has that name.
    UnknownRulebook,
    /// The rulebook's script is neither beside it nor built in.
    MissingScript,
    /// A hook every script must define is absent.
    MissingHook,
    /// A hook is defined with the wrong number of parameters.
    HookArity,
    /// The script does not parse (or names what does not exist).
    ScriptSyntax,
    /// The script raised an error while running (a type error, `throw`, …).
    Script,
    /// The script hit a sandbox limit (operations, call depth, data size, time).
    Limit,
    /// A hook returned a value of the wrong shape or meaning.
    HookValue,
    /// A record's rulebook does not load (its own problems follow).
    Unloadable,
    /// A record's start position is refused.
    Setup,
    /// A record's move is refused.
    Move,
    /// A record's result does not follow from its moves.
    ResultMismatch,
    /// Warning: a param the script never reads.
    UnusedParam,
    /// Warning: an example pins a rule the description does not state.
    UnstatedRule,
    /// Warning: a function one slip from a hook's name, which is never called.
    NotAHook,
    /// Warning: `wins(run)` says a run longer than a line is none, but the
    /// lines are given as windows of it, so no longer run is ever seen.
    SplitRuns,
    /// Not a problem itself: what follows from the ones before it (what
    /// was kept when a reload failed).
    Note,
}

impl ProblemKind {
    /// The kind of a serde error from reading TOML into a type, by the
    /// opening serde gives each kind of message (its errors carry no
    /// kind); anything else is the TOML's own.
    /// A serde message in a file's terms rather than Rust's: `expected
    /// i64` is an integer, and a number past any integer is too large (not
    /// "integer `N` as i128").
    pub(crate) fn serde_words(message: &str) -> String {
        let message = message.trim_end();
        if let Some(rest) = message.strip_prefix("invalid type: integer `")
            && let Some((n, tail)) = rest.split_once('`')
            && tail.starts_with(" as i128")
        {
            return format!("the number `{n}` is too large: expected an integer");
        }
        ["i64", "u64", "i32", "u32", "u16", "u8", "usize"]
            .iter()
            .fold(message.to_string(), |m, t| {
                m.replace(&format!("expected {t}"), "expected an integer")
            })
    }

    pub(crate) fn of_serde(message: &str) -> ProblemKind {
        const KINDS: &[(&str, ProblemKind)] = &[
            ("unknown field `", ProblemKind::UnknownKey),
            ("missing field `", ProblemKind::MissingKey),
            ("invalid type: ", ProblemKind::WrongType),
            ("invalid value: ", ProblemKind::BadValue),
            ("invalid length ", ProblemKind::BadValue),
            ("unknown variant `", ProblemKind::BadValue),
        ];
        KINDS
            .iter()
            .find(|(opening, _)| message.starts_with(opening))
            .map_or(ProblemKind::Toml, |&(_, kind)| kind)
    }
}

/// One problem found in a rulebook or its script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Where it is, when known.
    pub location: Option<Location>,
    /// What is wrong and what was expected (lower case, no trailing period).
    pub message: String,
    /// The source it points into, when it was kept (boxed: errors travel
    /// in `Result`s on hot paths, and most are never drawn).
    pub snippet: Option<Box<Snippet>>,
    /// What to do about it (`did you mean `width`?`).
    pub help: Option<String>,
}

impl Problem {
    /// A problem of `kind` at `location`.
    pub fn at(kind: ProblemKind, location: Location, message: impl Into<String>) -> Problem {
        Problem {
            kind,
            location: Some(location),
            message: message.into(),
            snippet: None,
            help: None,
        }
    }

    /// A problem of `kind` with no position (a whole file, say).
    pub fn bare(kind: ProblemKind, message: impl Into<String>) -> Problem {
        Problem {
            kind,
            location: None,
            message: message.into(),
            snippet: None,
            help: None,
        }
    }

    /// A problem of `kind` at `range` of `source`, which the renderer will draw.
    pub fn spanned(
        kind: ProblemKind,
        source: &Source,
        range: Range<usize>,
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            kind,
            location: Some(source.location(range.start)),
            message: message.into(),
            snippet: Some(Box::new(Snippet::new(source, range))),
            help: None,
        }
    }

    /// The same problem with `label` under its carets.
    pub fn with_label(mut self, label: impl Into<String>) -> Problem {
        if let Some(s) = &mut self.snippet {
            s.label = Some(label.into());
        }
        self
    }

    /// The same problem with a `help:` line (none when `help` is `None`).
    pub fn with_help(mut self, help: Option<String>) -> Problem {
        self.help = help.or(self.help);
        self
    }
}

impl fmt::Display for Problem {
    /// One line, `path:line:col: message: help`, for logs and `grep`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.location {
            write!(f, "{loc}: ")?;
        }
        f.write_str(&self.message)?;
        match &self.help {
            Some(help) => write!(f, ": {help}"),
            None => Ok(()),
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
        e.to_problem().into()
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
    /// The script names something that is neither a param, a board
    /// constant, nor defined by the script (found at compile time).
    Undefined,
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
    /// The script's text around it, when kept.
    pub snippet: Option<Box<Snippet>>,
    /// What to do about it (`did you mean `K`?`).
    pub help: Option<String>,
}

impl ScriptError {
    /// The message without the location: names the hook and the kind of failure.
    pub fn describe(&self) -> String {
        let what = match self.kind {
            ScriptErrorKind::Syntax => "syntax error",
            // The message names what is not defined: no kind to add.
            ScriptErrorKind::Undefined => "",
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

impl ScriptError {
    /// The error as a [`Problem`], to render or to list with others.
    pub fn to_problem(&self) -> Problem {
        Problem {
            kind: match self.kind {
                ScriptErrorKind::Syntax | ScriptErrorKind::Undefined => ProblemKind::ScriptSyntax,
                ScriptErrorKind::Runtime => ProblemKind::Script,
                ScriptErrorKind::Limit => ProblemKind::Limit,
                ScriptErrorKind::BadValue => ProblemKind::HookValue,
            },
            location: self.location.clone(),
            message: self.describe(),
            snippet: self.snippet.clone(),
            help: self.help.clone(),
        }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_problem().fmt(f)
    }
}

impl std::error::Error for ScriptError {}
