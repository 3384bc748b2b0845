//! One entry of the command registry, and the reader of its arguments.

use super::parsed::Command;
use std::fmt;
use std::path::PathBuf;

/// What a command's arguments are, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// Words by place, the first word from the first place and so on,
    /// nothing past them; and options anywhere among them, each followed
    /// by a word from its own place (`--from <rulebook>`).
    Places(&'static [Place], &'static [(&'static str, Place)]),
    /// A word from a fixed list, then a word from the list paired with the
    /// first (`ai time default`, `vs hard X`; `vs off` takes none).
    Then(
        &'static [&'static str],
        &'static [(&'static str, &'static [&'static str])],
    ),
    /// A file path, which may hold spaces: one ending in this extension
    /// (or a folder on the way to one), any file where none is given.
    File(Option<&'static str>),
    /// A path, as [`Arg::File`], to a file of this kind gridrules reads.
    Kind(Want),
}

/// Which `.toml` files are offered where one kind is asked for: they
/// cannot be told apart by their names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// Rulebooks: any `.toml` but a game record (which starts with its
    /// header).
    Rulebook,
    /// Game records only.
    Record,
}

impl Arg {
    /// No argument, or nothing to offer.
    pub const NOTHING: Arg = Arg::Places(&[], &[]);
}

/// What one word of a command may be, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Anything typed (a number, a name): nothing offered.
    Typed,
    /// A command name.
    Command,
    /// A word from a fixed list.
    Word(&'static [&'static str]),
    /// A built-in rulebook name, a `.toml` path, or one of these words
    /// (`check all`).
    Rulebook(&'static [&'static str]),
    /// A file or folder path: one ending in this extension where given.
    File(Option<&'static str>),
    /// A path to a `.toml` file of this kind (or a folder).
    Kind(Want),
    /// One of these words, or a program's path (`arena`'s players).
    WordOrFile(&'static [&'static str]),
    /// What the session knows as it stands.
    Known(Ask),
}

/// Words only the session knows, as it stands when a line is completed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// The legal moves, as written.
    Moves,
    /// The sides the person at the keyboard plays (both between two
    /// people): `resign` refuses the computer's.
    OwnSides,
    /// The draw actions that apply now: `offer` with none standing,
    /// `accept` and `decline` while one does.
    DrawActions,
    /// The seats that may take X, before the game's first move.
    Seats,
}

/// Whether a command goes into the session's transcript, which batch mode
/// replays exactly: everything that plays, or shows or refuses something
/// about the game, refused lines included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Log {
    /// Always.
    Always,
    /// Never: it shows, measures, writes files of its own (`record`,
    /// `new-variant`) or leaves: nothing a replay needs.
    Never,
    /// Only where batch mode's clock runs (`wait`): at the REPL it is
    /// refused, and the real time that passed is logged as a `wait` instead.
    VirtualClock,
}

/// Reads a command's arguments: the words after its name, as a [`Command`].
pub type Parse = fn(&Args<'_>) -> Result<Command, ParseError>;

/// One command's entry in the registry.
pub struct CommandSpec {
    /// The name typed.
    pub name: &'static str,
    /// Other names that work too.
    pub aliases: &'static [&'static str],
    /// Arguments, as shown in `help` and as the hint after the name.
    pub args: &'static str,
    /// What it does, in a line.
    pub summary: &'static str,
    /// More for `help <command>`: what happens in the cases that surprise.
    pub more: &'static str,
    /// An example line.
    pub example: &'static str,
    /// What its arguments are, for completion.
    pub arg: Arg,
    /// Whether it goes into the transcript.
    pub log: Log,
    /// It plays, resigns or offers for the side to move, so it is refused
    /// as too late once that side's time has run out.
    pub plays: bool,
    /// It may run long by design (Ctrl-C stops it), so the scripts it runs
    /// have no time budget for the whole command, only per hook call.
    pub long: bool,
    /// How its arguments are read.
    pub parse: Parse,
}

impl fmt::Debug for CommandSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CommandSpec({})", self.name)
    }
}

/// Entries are one per name.
impl PartialEq for CommandSpec {
    fn eq(&self, other: &CommandSpec) -> bool {
        self.name == other.name
    }
}

impl Eq for CommandSpec {}

impl CommandSpec {
    /// `name args`, as in usage messages.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }

    pub(super) const fn aka(mut self, aliases: &'static [&'static str]) -> CommandSpec {
        self.aliases = aliases;
        self
    }

    pub(super) const fn example(mut self, example: &'static str) -> CommandSpec {
        self.example = example;
        self
    }

    pub(super) const fn completing(mut self, arg: Arg) -> CommandSpec {
        self.arg = arg;
        self
    }

    pub(super) const fn more(mut self, more: &'static str) -> CommandSpec {
        self.more = more;
        self
    }

    pub(super) const fn unlogged(mut self) -> CommandSpec {
        self.log = Log::Never;
        self
    }

    pub(super) const fn virtual_clock(mut self) -> CommandSpec {
        self.log = Log::VirtualClock;
        self
    }

    pub(super) const fn long(mut self) -> CommandSpec {
        self.long = true;
        self
    }

    pub(super) const fn plays(mut self) -> CommandSpec {
        self.plays = true;
        self
    }
}

/// A line that is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No command by that name, and not a move either. Holds the word.
    Unknown(String),
    /// No command by that name, but one is a likely slip for it.
    Misspelt {
        /// The word typed.
        word: String,
        /// The command's name (or alias) it is nearest.
        near: &'static str,
    },
    /// The arguments do not fit. Holds the command and what is wrong.
    Usage(&'static CommandSpec, String),
    /// A mode of the program, run from the command line, not the prompt.
    CommandLineOnly {
        /// The word typed.
        word: String,
        /// How the mode is run.
        how: &'static str,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(w) => write!(f, "unknown command `{w}`: type `help` for the list"),
            ParseError::Misspelt { word, near } => write!(
                f,
                "unknown command `{word}`: did you mean `{near}`? (`help` lists them)"
            ),
            // A question reads as one before the usage: `which move? usage: …`.
            ParseError::Usage(spec, why) if why.ends_with('?') => {
                write!(f, "{why} usage: {}", spec.usage())
            }
            ParseError::Usage(spec, why) => write!(f, "{why}: usage: {}", spec.usage()),
            ParseError::CommandLineOnly { word, how } => {
                write!(f, "`{word}` is run from the command line, not here: {how}")
            }
        }
    }
}

/// The words after a command's name, with readers that refuse what does
/// not fit with the command's usage.
#[derive(Debug)]
pub struct Args<'a> {
    spec: &'static CommandSpec,
    rest: &'a str,
    /// The words, quotes and escapes read (see [`split_words`]).
    words: Vec<String>,
}

/// Splits `text` into words at white space, as a shell would where a word
/// holds a space: inside `"…"` or `'…'`, or after a backslash (`my\ games`,
/// as Tab completes a file's name). A backslash before anything but a
/// space, a quote or a backslash is kept (a Windows path's `C:\games`).
pub fn split_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (_, '\\') if matches!(chars.peek(), Some(' ' | '"' | '\'' | '\\')) => {
                let next = chars.next().expect("peeked");
                word.get_or_insert_with(String::new).push(next);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// A path written as one word, quoted or escaped (`"my games/a.toml"`,
/// `my\ games/a.toml`), or as it stands where spaces are left bare
/// (`my games/a.toml`).
fn one_path(text: &str) -> String {
    match &split_words(text)[..] {
        [one] => one.clone(),
        _ => text.to_string(),
    }
}

impl<'a> Args<'a> {
    /// The words after `spec`'s name.
    pub fn new(spec: &'static CommandSpec, rest: &'a str) -> Args<'a> {
        let rest = rest.trim();
        Args {
            spec,
            rest,
            words: split_words(rest),
        }
    }

    /// The command's usage error: `why`, then how it is used.
    pub fn usage(&self, why: impl Into<String>) -> ParseError {
        ParseError::Usage(self.spec, why.into())
    }

    /// The words, split at white space (a quoted or escaped space kept).
    pub fn words(&self) -> Vec<&str> {
        self.words.iter().map(String::as_str).collect()
    }

    /// No argument.
    pub fn none(&self) -> Result<(), ParseError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(self.usage(format!("`{}` takes no argument", self.spec.name)))
        }
    }

    /// At most one word; `many` says why more are refused.
    pub fn optional(&self, many: &str) -> Result<Option<&str>, ParseError> {
        match self.words()[..] {
            [] => Ok(None),
            [w] => Ok(Some(w)),
            _ => Err(self.usage(many)),
        }
    }

    /// Exactly one word; `missing` and `many` say what is wrong otherwise.
    pub fn one(&self, missing: &str, many: &str) -> Result<&str, ParseError> {
        match self.words()[..] {
            [] => Err(self.usage(missing)),
            [w] => Ok(w),
            _ => Err(self.usage(many)),
        }
    }

    /// Everything after the name, spaces kept (a name, a path, a position);
    /// quoted as a whole (`setup "3/1X1/3 O"`, as a shell passes a word
    /// with spaces on), without its quotes.
    pub fn rest(&self, missing: &str) -> Result<&'a str, ParseError> {
        let rest = ['"', '\'']
            .iter()
            .find_map(|&q| {
                let inner = self.rest.strip_prefix(q)?.strip_suffix(q)?;
                // A name with the other quote in it (`"Bob's game.toml"`)
                // is read whole, quotes and all, by `split_words`.
                (!inner.contains(['"', '\''])).then_some(inner)
            })
            .unwrap_or(self.rest);
        if rest.trim().is_empty() {
            Err(self.usage(missing))
        } else {
            Ok(rest)
        }
    }

    /// A file path: everything after the name, as [`Args::rulebook`]
    /// reads it.
    pub fn path(&self) -> Result<PathBuf, ParseError> {
        (self.rulebook().map(PathBuf::from)).ok_or_else(|| self.usage("which file?"))
    }

    /// A rulebook's name or file, if one is given: everything after the
    /// name, one word (quoted or escaped) or, with bare spaces, as it stands.
    pub fn rulebook(&self) -> Option<String> {
        match &self.words[..] {
            [] => None,
            [one] => Some(one.clone()),
            _ => Some(self.rest.to_string()),
        }
    }

    /// A file to write, after an optional `--force` (to replace a file
    /// that gridrules did not write).
    pub fn forced_path(&self) -> Result<(PathBuf, bool), ParseError> {
        let rest = self.rest("which file?")?;
        match rest.strip_prefix("--force") {
            Some(path) if path.starts_with(char::is_whitespace) => {
                Ok((PathBuf::from(one_path(path.trim())), true))
            }
            Some("") => Err(self.usage("which file?")),
            _ => Ok((PathBuf::from(one_path(rest)), false)),
        }
    }

    /// `on` or `off`.
    pub fn switch(&self) -> Result<bool, ParseError> {
        match self.words()[..] {
            ["on"] => Ok(true),
            ["off"] => Ok(false),
            _ => Err(self.usage("on or off?")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_words;

    #[test]
    fn words_keep_quoted_and_escaped_spaces() {
        let cases: &[(&str, &[&str])] = &[
            ("a b  c", &["a", "b", "c"]),
            (r#""my games/a.toml""#, &["my games/a.toml"]),
            ("'my games/a.toml' 3", &["my games/a.toml", "3"]),
            (r"my\ games/a.toml", &["my games/a.toml"]),
            (r#"say\"s ''"#, &[r#"say"s"#, ""]),
            (r"C:\games\a.toml", &[r"C:\games\a.toml"]),
            (r#""C:\\games" x"#, &[r"C:\games", "x"]),
        ];
        for (text, words) in cases {
            assert_eq!(split_words(text), *words, "{text}");
        }
    }
}
