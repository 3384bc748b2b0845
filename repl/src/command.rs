//! The commands: one table drives parsing, `help` and completion, and each
//! command prints back (`Display`) as the line that parses to it.

use gridrules_core::Side;
use gridrules_core::search::Level;
use std::fmt;
use std::path::PathBuf;

/// What `draw` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the pending offer.
    Accept,
    /// Decline the pending offer.
    Decline,
}

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
    /// `ai [level]`
    Ai(Option<Level>),
    /// `vs <level|off> [X|O]`: `None` hands both seats back to people.
    Vs(Option<Level>, Option<Side>),
    /// `resign [X|O]`
    Resign(Option<Side>),
    /// `draw offer|accept|decline`
    Draw(DrawAction),
    /// `again`
    Again,
    /// `score`
    Score,
    /// `name <1|2> <name>`
    Name(usize, String),
    /// `clock <seconds>|off`
    Clock(Option<u32>),
    /// `pie on|off`
    Pie(bool),
    /// `alternate on|off`
    Alternate(bool),
    /// `wait <seconds>`
    Wait(u32),
    /// `seed <number>`
    Seed(u64),
    /// `save <file>`
    Save(PathBuf),
    /// `open <file>`
    Open(PathBuf),
    /// `record <file>`
    Record(PathBuf),
    /// `position`
    Position,
    /// `setup <text>`
    Setup(String),
    /// `perft <depth>`
    Perft(u32),
    /// `bench [rulebook] [seconds]`
    Bench(Option<String>, Option<f64>),
    /// `check [rulebook|file|all]`
    Check(Option<String>),
    /// `quit`
    Quit,
}

/// What a command's argument is, for completion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// No argument, or nothing to offer.
    Nothing,
    /// A legal move of the position.
    Move,
    /// A built-in rulebook name (or a `.toml` path).
    Rulebook,
    /// A file path.
    File,
    /// A command name.
    Command,
    /// A word from a fixed list.
    Word(&'static [&'static str]),
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
    /// What its first argument is, for completion.
    pub arg: Arg,
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

const fn spec_of(
    name: &'static str,
    aliases: &'static [&'static str],
    args: &'static str,
    summary: &'static str,
    example: &'static str,
) -> CommandSpec {
    CommandSpec {
        name,
        aliases,
        args,
        summary,
        example,
        arg: Arg::Nothing,
    }
}

impl CommandSpec {
    const fn completing(mut self, arg: Arg) -> CommandSpec {
        self.arg = arg;
        self
    }
}

const LEVELS: &[&str] = &["easy", "medium", "hard", "off"];

/// Every command, in the order `help` lists them.
#[rustfmt::skip]
pub const COMMANDS: &[CommandSpec] = &[
    spec_of("help", &["?"], "[command]", "list the commands, or explain one", "help setup").completing(Arg::Command),
    spec_of("variants", &["rulebooks"], "", "list the built-in rulebooks", "variants"),
    spec_of("new", &[], "[rulebook]", "start a new game, on a built-in rulebook (or .toml file) or the current one", "new ultimate").completing(Arg::Rulebook),
    spec_of("load", &[], "<file.toml>", "load a rulebook from a file and start a game on it", "load my-variant.toml").completing(Arg::File),
    spec_of("rules", &[], "", "the rules of the loaded rulebook, in words", "rules"),
    spec_of("show", &["board"], "", "draw the board", "show"),
    spec_of("play", &["move"], "<move>", "play a move (a bare move works too): b2 places, b2=O chooses the mark, d drops into a column, b2-c2 moves a piece", "play b2").completing(Arg::Move),
    spec_of("swap", &[], "", "under the pie rule, answer the first move by taking its side: the seats exchange marks (PI1)", "swap"),
    spec_of("legal", &["moves"], "", "every legal move, on one line", "legal"),
    spec_of("undo", &["takeback"], "", "take back the last move (against the computer, the last move of each side)", "undo"),
    spec_of("status", &[], "", "who is to move, or the result", "status"),
    spec_of("history", &[], "", "the moves played so far", "history"),
    spec_of("ai", &["hint"], "[easy|medium|hard]", "the computer makes one move for the side to move", "ai hard").completing(Arg::Word(LEVELS)),
    spec_of("vs", &["computer"], "<easy|medium|hard|off> [X|O]", "play against the computer; X or O is your mark (chosen before the first move)", "vs hard O").completing(Arg::Word(LEVELS)),
    spec_of("resign", &[], "[X|O]", "resign the game (the side to move, or your side against the computer)", "resign").completing(Arg::Word(&["X", "O"])),
    spec_of("draw", &[], "offer|accept|decline", "offer a draw, or answer an offer (a move instead declines it)", "draw offer").completing(Arg::Word(&["offer", "accept", "decline"])),
    spec_of("again", &["rematch"], "", "the next game on the same rulebook; keeps the score, swaps marks", "again"),
    spec_of("score", &[], "", "the score by seat; a draw counts half", "score"),
    spec_of("name", &["seat"], "<1|2> <name>", "name a seat", "name 1 Alice"),
    spec_of("clock", &[], "<seconds>|off", "the time per move, before your first move or after the result; it holds for later games", "clock 30").completing(Arg::Word(&["off"])),
    spec_of("alternate", &[], "on|off", "whether `again` passes X and the first move to the other seat (G5); the rulebook's setting until you choose", "alternate off").completing(Arg::Word(&["on", "off"])),
    spec_of("pie", &[], "on|off", "the pie rule at this table, before the first move: O may answer it with `swap` (PI1)", "pie on").completing(Arg::Word(&["on", "off"])),
    spec_of("wait", &[], "<seconds>", "let time pass on batch mode's clock (for testing the clock)", "wait 16"),
    spec_of("seed", &[], "<number>", "seed the randomness (computer moves, timed-out moves) to repeat a session", "seed 42"),
    spec_of("save", &[], "<file>", "save the game as a record that `open` reads", "save game.toml").completing(Arg::File),
    spec_of("open", &[], "<file>", "open a saved game record", "open game.toml").completing(Arg::File),
    spec_of("record", &[], "<file>", "save this session as a transcript that batch mode replays", "record session.txt").completing(Arg::File),
    spec_of("position", &["fen"], "", "the position as one line of text that `setup` accepts", "position"),
    spec_of("setup", &[], "<position>", "start a game from a position text (see `position`)", "setup X2/1O1/3 X"),
    spec_of("perft", &[], "<depth>", "count the move sequences of that length from here", "perft 4"),
    spec_of("bench", &[], "[rulebook] [seconds]", "random games for a while; prints playouts per second", "bench gomoku 2").completing(Arg::Rulebook),
    spec_of("check", &[], "[rulebook|file|all]", "run a rulebook's documented examples; fails if any does", "check ultimate").completing(Arg::Rulebook),
    spec_of("quit", &["exit", "q"], "", "leave", "quit"),
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

fn side_arg(word: &str) -> Option<Side> {
    match word {
        "X" | "x" => Some(Side::X),
        "O" | "o" => Some(Side::O),
        _ => None,
    }
}

/// The longest seat name: it must fit the score line on a terminal.
const MAX_NAME: usize = 24;

/// Parses one command line (comments already removed, not empty).
///
/// # Errors
/// An unknown command, or arguments that do not fit.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    // Commands and moves are written in lower case; upper case is read the
    // same (`STATUS`, `A1-A2`). Arguments keep their case (names, files).
    let lower = word.to_lowercase();
    let Some(spec) = spec(&lower) else {
        // Cells in lower case, a chosen mark in upper case: `B2=o` is `b2=O`.
        let mv = match word.split_once('=') {
            Some((cell, mark)) => format!("{}={}", cell.to_lowercase(), mark.to_uppercase()),
            None => lower,
        };
        if gridrules_core::notation::looks_like_move(&mv) && rest.is_empty() {
            return Ok(Command::Play(mv));
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
    let path = |make: fn(PathBuf) -> Command| {
        if rest.is_empty() {
            Err(ParseError::Usage(spec, "which file?".to_string()))
        } else {
            Ok(make(PathBuf::from(rest)))
        }
    };
    let level = |w: &str| w.parse::<Level>();
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
        "load" => path(Command::Load),
        "rules" => none(Command::Rules),
        "show" => none(Command::Show),
        "play" => match args[..] {
            [m] => Ok(Command::Play(m.to_string())),
            [] => usage("which move?"),
            _ => usage("one move at a time"),
        },
        "swap" => none(Command::Play("swap".to_string())),
        "legal" => none(Command::Legal),
        "undo" => none(Command::Undo),
        "status" => none(Command::Status),
        "history" => none(Command::History),
        "ai" => match args[..] {
            [] => Ok(Command::Ai(None)),
            [l] => level(l)
                .map(|l| Command::Ai(Some(l)))
                .or_else(|e| usage(&e)),
            _ => usage("one level"),
        },
        "vs" => {
            let (lvl, mark) = match args[..] {
                [l] => (l, None),
                [l, m] => match side_arg(m) {
                    Some(s) => (l, Some(s)),
                    None => return usage(&format!("mark `{m}`: expected X or O")),
                },
                _ => return usage("which level?"),
            };
            match lvl {
                "off" if mark.is_none() => Ok(Command::Vs(None, None)),
                "off" => usage("`vs off` takes no mark"),
                l => level(l)
                    .map(|l| Command::Vs(Some(l), mark))
                    .or_else(|e| usage(&e)),
            }
        }
        "resign" => match args[..] {
            [] => Ok(Command::Resign(None)),
            [s] => side_arg(s)
                .map(|s| Command::Resign(Some(s)))
                .ok_or(())
                .or_else(|()| usage(&format!("`{s}`: expected X or O"))),
            _ => usage("one side"),
        },
        "draw" => match args[..] {
            ["offer"] => Ok(Command::Draw(DrawAction::Offer)),
            ["accept"] => Ok(Command::Draw(DrawAction::Accept)),
            ["decline"] => Ok(Command::Draw(DrawAction::Decline)),
            _ => usage("offer, accept or decline?"),
        },
        "again" => none(Command::Again),
        "score" => none(Command::Score),
        "name" => match rest.split_once(char::is_whitespace) {
            Some((_, n)) if n.trim().chars().count() > MAX_NAME => {
                usage(&format!("a name has at most {MAX_NAME} characters"))
            }
            Some(("1", n)) if !n.trim().is_empty() => Ok(Command::Name(1, n.trim().to_string())),
            Some(("2", n)) if !n.trim().is_empty() => Ok(Command::Name(2, n.trim().to_string())),
            _ => usage("which seat (1 or 2), and what name?"),
        },
        "clock" => match args[..] {
            ["off"] => Ok(Command::Clock(None)),
            [s] => match s.parse::<u32>() {
                Ok(n) if n > 0 => Ok(Command::Clock(Some(n))),
                _ => usage(&format!("`{s}`: expected seconds per move, or off")),
            },
            _ => usage("how many seconds?"),
        },
        "alternate" => match args[..] {
            ["on"] => Ok(Command::Alternate(true)),
            ["off"] => Ok(Command::Alternate(false)),
            _ => usage("on or off?"),
        },
        "pie" => match args[..] {
            ["on"] => Ok(Command::Pie(true)),
            ["off"] => Ok(Command::Pie(false)),
            _ => usage("on or off?"),
        },
        "wait" => match args[..] {
            [s] => s
                .parse()
                .map(Command::Wait)
                .or_else(|_| usage(&format!("`{s}`: expected whole seconds"))),
            _ => usage("how many seconds?"),
        },
        "seed" => match args[..] {
            [n] => n
                .parse()
                .map(Command::Seed)
                .or_else(|_| usage(&format!("`{n}`: expected a whole number"))),
            _ => usage("which seed?"),
        },
        "save" => path(Command::Save),
        "open" => path(Command::Open),
        "record" => path(Command::Record),
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
        "check" => match args[..] {
            [] => Ok(Command::Check(None)),
            [r] => Ok(Command::Check(Some(r.to_string()))),
            _ => usage("one rulebook at a time"),
        },
        "quit" => none(Command::Quit),
        _ => unreachable!("every command in COMMANDS is parsed above"),
    }
}

impl fmt::Display for Command {
    /// The line that parses back to this command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |o: &Option<String>| o.as_ref().map_or(String::new(), |s| format!(" {s}"));
        match self {
            Command::Help(t) => write!(f, "help{}", opt(t)),
            Command::Variants => f.write_str("variants"),
            Command::New(r) => write!(f, "new{}", opt(r)),
            Command::Load(p) => write!(f, "load {}", p.display()),
            Command::Rules => f.write_str("rules"),
            Command::Show => f.write_str("show"),
            Command::Play(m) => f.write_str(m),
            Command::Legal => f.write_str("legal"),
            Command::Undo => f.write_str("undo"),
            Command::Status => f.write_str("status"),
            Command::History => f.write_str("history"),
            Command::Ai(l) => write!(f, "ai{}", opt(&l.map(|l| l.to_string()))),
            Command::Vs(None, _) => f.write_str("vs off"),
            Command::Vs(Some(l), m) => write!(f, "vs {l}{}", opt(&m.map(|m| m.to_string()))),
            Command::Resign(s) => write!(f, "resign{}", opt(&s.map(|s| s.to_string()))),
            Command::Draw(DrawAction::Offer) => f.write_str("draw offer"),
            Command::Draw(DrawAction::Accept) => f.write_str("draw accept"),
            Command::Draw(DrawAction::Decline) => f.write_str("draw decline"),
            Command::Again => f.write_str("again"),
            Command::Score => f.write_str("score"),
            Command::Name(seat, n) => write!(f, "name {seat} {n}"),
            Command::Clock(None) => f.write_str("clock off"),
            Command::Clock(Some(s)) => write!(f, "clock {s}"),
            Command::Pie(on) => write!(f, "pie {}", if *on { "on" } else { "off" }),
            Command::Alternate(on) => write!(f, "alternate {}", if *on { "on" } else { "off" }),
            Command::Wait(s) => write!(f, "wait {s}"),
            Command::Seed(n) => write!(f, "seed {n}"),
            Command::Save(p) => write!(f, "save {}", p.display()),
            Command::Open(p) => write!(f, "open {}", p.display()),
            Command::Record(p) => write!(f, "record {}", p.display()),
            Command::Position => f.write_str("position"),
            Command::Setup(t) => write!(f, "setup {t}"),
            Command::Perft(d) => write!(f, "perft {d}"),
            Command::Bench(r, s) => write!(f, "bench{}{}", opt(r), opt(&s.map(|s| s.to_string()))),
            Command::Check(r) => write!(f, "check{}", opt(r)),
            Command::Quit => f.write_str("quit"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_parses_its_example_and_prints_it_back() {
        for spec in COMMANDS {
            let cmd = parse(spec.example).unwrap_or_else(|e| panic!("{}: {e}", spec.example));
            // Moves print bare (`b2`), the form transcripts use.
            assert_eq!(cmd.to_string(), spec.example.trim_start_matches("play "));
            assert_eq!(parse(&cmd.to_string()), Ok(cmd));
        }
    }

    #[test]
    fn bare_moves_and_errors() {
        assert_eq!(parse("b2"), Ok(Command::Play("b2".into())));
        assert_eq!(parse("b2-c2"), Ok(Command::Play("b2-c2".into())));
        assert_eq!(parse("b2=O"), Ok(Command::Play("b2=O".into())));
        assert_eq!(parse("B2=o"), Ok(Command::Play("b2=O".into())));
        assert_eq!(parse("A1-B2"), Ok(Command::Play("a1-b2".into())));
        assert_eq!(parse("d"), Ok(Command::Play("d".into())));
        // A command or alias wins over a column of the same letter.
        assert_eq!(parse("q"), Ok(Command::Quit));
        assert_eq!(
            parse("frobnicate"),
            Err(ParseError::Unknown("frobnicate".into()))
        );
        for bad in [
            "perft x",
            "legal now",
            "vs expert",
            "vs hard Z",
            "draw maybe",
            "clock 0",
            "name 3 Zed",
            "resign Q",
        ] {
            assert!(matches!(parse(bad), Err(ParseError::Usage(..))), "{bad}");
        }
        assert_eq!(
            parse("bench gomoku 2"),
            Ok(Command::Bench(Some("gomoku".into()), Some(2.0)))
        );
        assert_eq!(parse("vs off"), Ok(Command::Vs(None, None)));
        assert_eq!(
            parse("name 2 Ada Lovelace"),
            Ok(Command::Name(2, "Ada Lovelace".into()))
        );
    }
}
