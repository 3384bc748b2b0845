//! The commands: one table drives parsing, `help` and completion.

use std::fmt;
use std::path::PathBuf;

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `help [command]`
    Help(Option<String>),
    /// `variants`
    Variants,
    /// `new [rulebook]`
    New(Option<String>),
    /// `load <file.toml>`
    Load(PathBuf),
    /// `rules`
    Rules,
    /// `show`
    Show,
    /// `play <move>` or a bare move; the text is kept for messages.
    Play(String),
    /// `legal`
    Legal,
    /// `undo`
    Undo,
    /// `status`
    Status,
    /// `history`
    History,
    /// `position`
    Position,
    /// `setup <text>`
    Setup(String),
    /// `perft <depth>`
    Perft(u32),
    /// `bench [rulebook] [seconds]`
    Bench(Option<String>, Option<f64>),
    /// `quit`
    Quit,
}

/// One command's entry in the table.
#[derive(Debug, PartialEq, Eq)]
pub struct CommandSpec {
    /// The name typed.
    pub name: &'static str,
    /// Other names that work too.
    pub aliases: &'static [&'static str],
    /// Arguments, as shown in `help`.
    pub args: &'static str,
    /// What it does, in a line.
    pub summary: &'static str,
    /// An example line.
    pub example: &'static str,
}

impl CommandSpec {
    /// `name args`, as in usage messages.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

/// Every command, in the order `help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "help",
        aliases: &["?"],
        args: "[command]",
        summary: "list the commands, or explain one",
        example: "help setup",
    },
    CommandSpec {
        name: "variants",
        aliases: &["rulebooks"],
        args: "",
        summary: "list the built-in rulebooks",
        example: "variants",
    },
    CommandSpec {
        name: "new",
        aliases: &[],
        args: "[rulebook]",
        summary: "start a new game, on a built-in rulebook or the current one",
        example: "new ultimate",
    },
    CommandSpec {
        name: "load",
        aliases: &[],
        args: "<file.toml>",
        summary: "load a rulebook from a file and start a game on it",
        example: "load my-variant.toml",
    },
    CommandSpec {
        name: "rules",
        aliases: &[],
        args: "",
        summary: "the rules of the loaded rulebook, in words",
        example: "rules",
    },
    CommandSpec {
        name: "show",
        aliases: &["board"],
        args: "",
        summary: "draw the board",
        example: "show",
    },
    CommandSpec {
        name: "play",
        aliases: &["move"],
        args: "<move>",
        summary: "play a move (a bare move works too): b2 places, b2-c2 moves a piece",
        example: "play b2",
    },
    CommandSpec {
        name: "legal",
        aliases: &["moves"],
        args: "",
        summary: "every legal move, on one line",
        example: "legal",
    },
    CommandSpec {
        name: "undo",
        aliases: &["takeback"],
        args: "",
        summary: "take back the last move",
        example: "undo",
    },
    CommandSpec {
        name: "status",
        aliases: &[],
        args: "",
        summary: "who is to move, or the result",
        example: "status",
    },
    CommandSpec {
        name: "history",
        aliases: &[],
        args: "",
        summary: "the moves played so far",
        example: "history",
    },
    CommandSpec {
        name: "position",
        aliases: &["fen"],
        args: "",
        summary: "the position as one line of text that `setup` accepts",
        example: "position",
    },
    CommandSpec {
        name: "setup",
        aliases: &[],
        args: "<position>",
        summary: "start a game from a position text (see `position`)",
        example: "setup X2/1O1/3 X",
    },
    CommandSpec {
        name: "perft",
        aliases: &[],
        args: "<depth>",
        summary: "count the move sequences of that length from here",
        example: "perft 4",
    },
    CommandSpec {
        name: "bench",
        aliases: &[],
        args: "[rulebook] [seconds]",
        summary: "random games for a while; prints playouts per second",
        example: "bench gomoku 2",
    },
    CommandSpec {
        name: "quit",
        aliases: &["exit", "q"],
        args: "",
        summary: "leave",
        example: "quit",
    },
];

/// The command called `word` (or one of its aliases).
pub fn spec(word: &str) -> Option<&'static CommandSpec> {
    COMMANDS
        .iter()
        .find(|c| c.name == word || c.aliases.contains(&word))
}

/// A line that is not a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No command by that name, and not a move either. Holds the word.
    Unknown(String),
    /// The arguments do not fit. Holds the command and what is wrong.
    Usage(&'static CommandSpec, String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(w) => write!(f, "unknown command `{w}`: type `help` for the list"),
            ParseError::Usage(spec, why) => write!(f, "{why}: usage: {}", spec.usage()),
        }
    }
}

/// Whether `word` has the shape of a move (`b2`, `b2-c2`), on any board.
pub fn looks_like_move(word: &str) -> bool {
    let cell = |t: &str| {
        let b = t.as_bytes();
        b.len() >= 2 && b[0].is_ascii_lowercase() && b[1..].iter().all(u8::is_ascii_digit)
    };
    match word.split_once('-') {
        Some((a, b)) => cell(a) && cell(b),
        None => cell(word),
    }
}

/// Parses one command line (comments already removed, not empty).
///
/// # Errors
/// An unknown command, or arguments that do not fit.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let Some(spec) = spec(word) else {
        if looks_like_move(word) && rest.is_empty() {
            return Ok(Command::Play(word.to_string()));
        }
        return Err(ParseError::Unknown(word.to_string()));
    };
    let usage = |why: &str| Err(ParseError::Usage(spec, why.to_string()));
    let args: Vec<&str> = rest.split_whitespace().collect();
    let none = |cmd: Command| {
        if args.is_empty() {
            Ok(cmd)
        } else {
            Err(ParseError::Usage(
                spec,
                format!("`{}` takes no argument", spec.name),
            ))
        }
    };
    match spec.name {
        "help" => match args[..] {
            [] => Ok(Command::Help(None)),
            [c] => Ok(Command::Help(Some(c.to_string()))),
            _ => usage("one command at a time"),
        },
        "variants" => none(Command::Variants),
        "new" => match args[..] {
            [] => Ok(Command::New(None)),
            [r] => Ok(Command::New(Some(r.to_string()))),
            _ => usage("one rulebook at a time"),
        },
        "load" if rest.is_empty() => usage("which file?"),
        "load" => Ok(Command::Load(PathBuf::from(rest))),
        "rules" => none(Command::Rules),
        "show" => none(Command::Show),
        "play" => match args[..] {
            [m] => Ok(Command::Play(m.to_string())),
            [] => usage("which move?"),
            _ => usage("one move at a time"),
        },
        "legal" => none(Command::Legal),
        "undo" => none(Command::Undo),
        "status" => none(Command::Status),
        "history" => none(Command::History),
        "position" => none(Command::Position),
        "setup" if rest.is_empty() => usage("which position?"),
        "setup" => Ok(Command::Setup(rest.to_string())),
        "perft" => match args[..] {
            [d] => match d.parse::<u32>() {
                Ok(d) if d <= 20 => Ok(Command::Perft(d)),
                _ => usage(&format!("depth `{d}`: expected a number from 0 to 20")),
            },
            _ => usage("which depth?"),
        },
        "bench" => {
            let mut rulebook = None;
            let mut seconds = None;
            for a in &args {
                match a.parse::<f64>() {
                    Ok(s) if seconds.is_none() && s > 0.0 && s <= 3600.0 => seconds = Some(s),
                    Ok(_) => {
                        return usage(&format!(
                            "seconds `{a}`: expected more than 0, at most 3600"
                        ));
                    }
                    Err(_) if rulebook.is_none() => rulebook = Some(a.to_string()),
                    Err(_) => return usage(&format!("unexpected `{a}`")),
                }
            }
            Ok(Command::Bench(rulebook, seconds))
        }
        "quit" => none(Command::Quit),
        _ => unreachable!("every command in COMMANDS is parsed above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_parses_its_example() {
        for spec in COMMANDS {
            let cmd = parse(spec.example);
            assert!(cmd.is_ok(), "{}: {:?}", spec.example, cmd);
        }
    }

    #[test]
    fn bare_moves_and_errors() {
        assert_eq!(parse("b2"), Ok(Command::Play("b2".into())));
        assert_eq!(parse("b2-c2"), Ok(Command::Play("b2-c2".into())));
        assert_eq!(
            parse("frobnicate"),
            Err(ParseError::Unknown("frobnicate".into()))
        );
        assert!(matches!(parse("perft x"), Err(ParseError::Usage(..))));
        assert!(matches!(parse("legal now"), Err(ParseError::Usage(..))));
        assert_eq!(
            parse("bench gomoku 2"),
            Ok(Command::Bench(Some("gomoku".into()), Some(2.0)))
        );
    }
}
