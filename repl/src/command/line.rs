//! A command line: which command it names (or the move it is), its
//! arguments, and the line as the transcript keeps it.

use super::entry::{Args, CommandSpec, ParseError};
use super::parsed::Command;
use super::registry::{COMMANDS, spec};
use super::words::{as_typed, invisible, normal_move};

/// A parsed line: the command, its arguments, and the line as the
/// transcript keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Invocation {
    /// The command.
    pub spec: &'static CommandSpec,
    /// The words after its name.
    pub args: String,
    /// The line in its usual form: the command's name (not an alias) in
    /// lower case, or a bare move as notation writes it.
    pub text: String,
    /// The line ended with [`NO_REPLY`]: the computer's seats make no move
    /// while it runs (`ai` plays for them after).
    pub hold: bool,
}

/// The word that ends a line whose moves the computer must not answer: a
/// record writes it where Ctrl-C stopped the computer's reply, so that the
/// replay stops there too.
pub const NO_REPLY: &str = "--no-reply";

impl Invocation {
    /// The command with its arguments read.
    ///
    /// # Errors
    /// The arguments do not fit the command's usage.
    pub fn command(&self) -> Result<Command, ParseError> {
        (self.spec.parse)(&Args::new(self.spec, &self.args))
    }
}

/// Parses one command line (comments already removed, not empty): the
/// first word names a command, else the line is `play`'s: a move, or a
/// line that starts as one (which `play` refuses in the rulebook's words).
///
/// # Errors
/// The first word is neither a command nor a move.
pub fn parse(line: &str) -> Result<Invocation, ParseError> {
    parse_on(line, |_| false)
}

/// [`parse`] on a board where `is_move` tells the words it reads as moves:
/// a command's alias that is one of them (`q`, a column of a board 17
/// wide where marks drop) is the move there, and the command goes by its
/// name (`quit`). A command's name always wins.
///
/// # Errors
/// As [`parse`].
pub fn parse_on(line: &str, is_move: impl Fn(&str) -> bool) -> Result<Invocation, ParseError> {
    // A zero-width space pasted before a move is no part of it.
    let line = line.trim_matches(|c: char| c.is_whitespace() || invisible(c));
    // Read in any case, as commands are (`--NO-REPLY`).
    let cut = line.len().saturating_sub(NO_REPLY.len());
    let (line, hold) = match (line.get(..cut), line.get(cut..)) {
        (Some(rest), Some(end))
            if end.eq_ignore_ascii_case(NO_REPLY)
                && (rest.is_empty() || rest.ends_with(char::is_whitespace)) =>
        {
            (rest.trim(), true)
        }
        _ => (line, false),
    };
    if line.is_empty() {
        // `--no-reply` alone, or nothing at all but what the trim took.
        let word = if hold { NO_REPLY } else { "" };
        return Err(ParseError::Unknown(word.to_string()));
    }
    let mut inv = parse_command(line, is_move)?;
    if hold {
        inv.hold = true;
        inv.text = format!("{} {NO_REPLY}", inv.text);
    }
    Ok(inv)
}

/// [`parse`] without the trailing [`NO_REPLY`].
fn parse_command(line: &str, is_move: impl Fn(&str) -> bool) -> Result<Invocation, ParseError> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let word = as_typed(word);
    let word: &str = &word;
    let rest = rest.trim();
    // Commands and moves are written in lower case; upper case is read the
    // same (`STATUS`, `A1-A2`). Arguments keep their case (names, files).
    let lower = word.to_lowercase();
    if let Some(spec) = spec(&lower)
        .filter(|spec| spec.name == lower || !rest.is_empty() || !is_move(&normal_move(word)))
    {
        // A move is read as typed; other arguments (a file's name) keep
        // every character.
        let rest = if spec.name == "play" {
            as_typed(rest)
        } else {
            rest.into()
        };
        let text = if rest.is_empty() {
            spec.name.to_string()
        } else {
            format!("{} {rest}", spec.name)
        };
        return Ok(Invocation {
            spec,
            args: rest.to_string(),
            text,
            hold: false,
        });
    }
    let mv = normal_move(word);
    let rest = as_typed(rest);
    let rest: &str = &rest;
    // A line that starts as a move does not go on as a command: it is
    // `play`'s to refuse, in the rulebook's words (`b2 a1`: one move at a
    // time; `c3/2*`: no such twist), not "unknown command".
    if (rest.is_empty() && gridrules_core::notation::looks_like_move(&mv))
        || starts_like_move(&mv)
        || column_then_row(&mv, rest)
    {
        let play = spec("play").expect("`play` is in the registry");
        let args = if rest.is_empty() {
            mv
        } else {
            format!("{mv} {rest}")
        };
        return Ok(Invocation {
            spec: play,
            args: args.clone(),
            text: args,
            hold: false,
        });
    }
    Err(unknown(word))
}

/// Modes of the program that are no command of the prompt: each word, and
/// how it is run.
const COMMAND_LINE_ONLY: &[(&str, &str)] = &[(
    "brain",
    "`gridrules brain [--rules <rulebook>]` speaks the Gomocup brain protocol on stdin and stdout",
)];

/// The refusal of `word` as no command: with the command it is a likely
/// slip for, if one is. A word of one character is one edit from any
/// other, `?` included: no name is a likely slip for it.
pub(super) fn unknown(word: &str) -> ParseError {
    let lower = word.to_lowercase();
    if let Some(&(_, how)) = COMMAND_LINE_ONLY.iter().find(|(w, _)| *w == lower) {
        return ParseError::CommandLineOnly {
            word: word.to_string(),
            how,
        };
    }
    let names = COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .filter(|n| n.len() > 1);
    match (word.chars().count() > 1)
        .then(|| gridrules_core::suggest::nearest(word, names))
        .flatten()
    {
        Some(near) => ParseError::Misspelt {
            word: word.to_string(),
            near,
        },
        None => ParseError::Unknown(word.to_string()),
    }
}

/// Whether `word` is a column's one or two letters and `rest` begins with
/// a row's number (`b 2`): a cell typed in two words, `play`'s to name
/// joined.
fn column_then_row(word: &str, rest: &str) -> bool {
    (1..=2).contains(&word.len())
        && word.bytes().all(|b| b.is_ascii_lowercase())
        && rest.bytes().next().is_some_and(|b| b.is_ascii_digit())
}

/// Whether `word` begins as a cell does (a column's one or two letters,
/// then a digit: `c3/2*`, `d3-d2xa1xa4`), as a column moved from (`d-d1`)
/// or as a slide (`^`): no command is written so, and a command run into
/// its number (`solve60`) is not.
fn starts_like_move(word: &str) -> bool {
    if word.starts_with('^') {
        return true;
    }
    // A cell written row first (`5e`): `play` says how it is written.
    let digits = word.chars().take_while(char::is_ascii_digit).count();
    let letters = word
        .chars()
        .skip(digits)
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    if (1..=2).contains(&digits) && (1..=2).contains(&letters) && digits + letters == word.len() {
        return true;
    }
    // Any letter, not only a to z: `é5` is a slip for a cell, not a
    // command (it said "unknown command").
    let letters = word.chars().take_while(|c| c.is_alphabetic()).count();
    let next = word.chars().nth(letters);
    (1..=2).contains(&letters) && next.is_some_and(|c| c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::super::registry::{COMMANDS, spec};
    use super::*;

    /// A move or a command typed with an East Asian input method's
    /// fullwidth forms, or pasted with a zero-width space, reads as typed
    /// in ASCII (it said "unknown command"); a file's name keeps its
    /// characters.
    #[test]
    fn fullwidth_and_invisible_characters_read_as_typed() {
        for (line, text) in [
            ("ｃ３", "c3"),
            ("\u{200B}c3", "c3"),
            ("\u{FEFF}b2\u{200B}", "b2"),
            ("ｄ６－ｄ７ｘａ１", "d6-d7xa1"),
            ("ｂ　２", "b 2"),
            ("ｐｌａｙ　ｃ３", "play c3"),
            ("ＳＴＡＴＵＳ", "status"),
            ("load ｇａｍｅ.toml", "load ｇａｍｅ.toml"),
        ] {
            let inv = parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(inv.text, text, "{line}");
        }
        assert_eq!(parse("ｃ３").unwrap().spec.name, "play");
    }

    /// A line may end in `--no-reply`, in any case, after white space; the
    /// transcript keeps it in its usual form.
    #[test]
    fn no_reply_ends_any_line() {
        let held = parse("B2 --NO-REPLY").unwrap();
        assert!(held.hold);
        assert_eq!(held.text, "b2 --no-reply");
        let held = parse("ai  hard --no-reply").unwrap();
        assert!(held.hold);
        assert_eq!(held.spec.name, "ai");
        assert!(!parse("status").unwrap().hold);
        // Part of a word is not the suffix; alone it is no command.
        assert!(parse("name 1 x--no-reply").is_ok_and(|i| !i.hold));
        assert!(parse("--no-reply").is_err());
        // A column written as a step is `play`'s to refuse.
        assert_eq!(parse("d-d1").unwrap().spec.name, "play");
    }

    /// A name in quotes is the name without them (a new user's
    /// `name 1 "A  B"` kept the quotes in the score); a quote inside stays.
    #[test]
    fn a_name_in_quotes_is_the_name() {
        let named = |line: &str| match parse(line).unwrap().command() {
            Ok(Command::Name(seat, name)) => (seat, name),
            other => panic!("{line}: {other:?}"),
        };
        assert_eq!(
            named("name 1 \"Ada  Lovelace\""),
            (0, "Ada  Lovelace".into())
        );
        assert_eq!(named("name 2 'Bob'"), (1, "Bob".into()));
        assert_eq!(named("name 2 O'Brien"), (1, "O'Brien".into()));
        assert_eq!(named("name 1 \"Ada"), (0, "\"Ada".into()));
        assert!(usage_of("name 1 \"  \"").is_err());
    }

    /// Reads `line` and its arguments; `Err` for a line that is not a
    /// command or a usage error.
    fn usage_of(line: &str) -> Result<(), String> {
        let inv = parse(line).map_err(|e| e.to_string())?;
        inv.command().map(|_| ()).map_err(|e| e.to_string())
    }

    #[test]
    fn names_and_aliases_are_unique_and_every_example_is_its_own_command() {
        let mut seen = std::collections::HashSet::new();
        for c in COMMANDS {
            for n in std::iter::once(&c.name).chain(c.aliases) {
                assert!(seen.insert(*n), "`{n}` names two commands");
            }
            let inv = parse(c.example).unwrap_or_else(|e| panic!("{}: {e}", c.example));
            assert_eq!(inv.spec.name, c.name, "{}", c.example);
            assert_eq!(parse(&inv.text), Ok(inv.clone()), "{}", c.example);
            // Every example reads without a usage error (the session's
            // tests run them).
            assert_eq!(usage_of(c.example), Ok(()), "{}", c.example);
        }
    }

    /// Tab offers only words the command takes (`ai off` was offered and
    /// refused; `ai time` was never offered).
    #[test]
    fn every_word_completion_offers_is_taken() {
        use crate::command::{Arg, Place};
        for c in COMMANDS {
            let (words, then) = match c.arg {
                Arg::Places(&[Place::Word(words), ..], _) => (words, &[][..]),
                Arg::Then(words, then) => (words, then),
                _ => continue,
            };
            // A pair offered after its first word is taken whole.
            for (first, seconds) in then {
                assert!(words.contains(first), "{}: `{first}`", c.name);
                for second in *seconds {
                    let line = format!("{} {first} {second}", c.name);
                    assert_eq!(usage_of(&line), Ok(()), "`{line}`");
                }
            }
            for w in words {
                let alone = format!("{} {w}", c.name);
                // `ai time` wants its seconds after it, `name 1` a name.
                let followed = [format!("{alone} 1"), format!("{alone} Ada")];
                assert!(
                    usage_of(&alone).is_ok() || followed.iter().any(|l| usage_of(l).is_ok()),
                    "`{alone}`: {:?}",
                    usage_of(&alone)
                );
            }
        }
    }

    /// The players `arena` completes are those it knows by name, not
    /// programs' paths.
    #[test]
    fn arena_completes_the_players_it_knows() {
        use crate::command::{Arg, Place};
        use gridrules_core::arena::Player;
        let Arg::Places(places, _) = spec("arena").unwrap().arg else {
            panic!("arena completes by place");
        };
        for place in places {
            if let Place::WordOrFile(players) = place {
                for p in *players {
                    assert!(
                        !matches!(p.parse::<Player>(), Ok(Player::Program(..)) | Err(_)),
                        "`{p}`"
                    );
                }
            }
        }
    }

    #[test]
    fn bare_moves_and_errors() {
        let text = |l: &str| parse(l).map(|i| (i.spec.name, i.text));
        assert_eq!(text("b2"), Ok(("play", "b2".into())));
        assert_eq!(text("b2-c2"), Ok(("play", "b2-c2".into())));
        assert_eq!(text("B2=o"), Ok(("play", "b2=O".into())));
        assert_eq!(text("A1-B2"), Ok(("play", "a1-b2".into())));
        assert_eq!(text("d"), Ok(("play", "d".into())));
        assert_eq!(text("STATUS"), Ok(("status", "status".into())));
        assert_eq!(text("computer hard"), Ok(("vs", "vs hard".into())));
        // A command or alias wins over a column of the same letter.
        assert_eq!(text("q"), Ok(("quit", "quit".into())));
        // A line that starts as a move is `play`'s to refuse, not an
        // unknown command (it was: `unknown command `b2``).
        assert_eq!(text("b2 a1"), Ok(("play", "b2 a1".into())));
        assert_eq!(text("c3/2*"), Ok(("play", "c3/2*".into())));
        assert_eq!(text("D3-d2xa1xa4"), Ok(("play", "d3-d2xa1xa4".into())));
        // Where the board reads an alias as a move, it is the move; a
        // command's name and an alias with words after it are not.
        let on = |l| parse_on(l, |w| w == "q").map(|i| (i.spec.name, i.text));
        assert_eq!(on("Q"), Ok(("play", "q".into())));
        assert_eq!(on("q --no-reply"), Ok(("play", "q --no-reply".into())));
        assert_eq!(on("quit"), Ok(("quit", "quit".into())));
        assert_eq!(on("exit"), Ok(("quit", "quit".into())));
        // A mode of the command line is named as one, at the prompt and
        // in `help` (`help brain` said "unknown command").
        for line in ["brain", "help brain"] {
            let said = match parse(line).and_then(|i| match i.command() {
                Ok(Command::Help(Some(t))) => super::super::help::topic(Some(&t)).map(|_| ()),
                _ => Ok(()),
            }) {
                Err(e) => e.to_string(),
                Ok(()) => String::new(),
            };
            assert!(
                said.starts_with(
                    "`brain` is run from the command line, not here: `gridrules brain"
                ),
                "{line}: {said}"
            );
        }
        let help_slip = super::super::help::topic(Some("hnt"))
            .map(|_| ())
            .unwrap_err();
        assert_eq!(
            help_slip,
            ParseError::Misspelt {
                word: "hnt".into(),
                near: "hint"
            }
        );
        // A letter outside a to z before a digit is a slip for a cell too.
        assert_eq!(text("é5"), Ok(("play", "é5".into())));
        // Words apart reach the session, which can tell the move they meant.
        assert_eq!(text("C3 1+"), Ok(("play", "c3 1+".into())));
        // `vs` alone asked "which level?"; now it names what it takes.
        assert_eq!(
            usage_of("vs"),
            Err("vs needs a level (easy, medium or hard) or off: usage: vs <easy|medium|hard|off> [X|O]".into())
        );
        assert!(usage_of("vs hard X O").is_err_and(|e| e.starts_with("too many words")));
        // A command run into its number, or a column followed by words,
        // is still an unknown command.
        assert_eq!(
            parse("solve60"),
            Err(ParseError::Misspelt {
                word: "solve60".into(),
                near: "solve"
            })
        );
        assert_eq!(parse("h play"), Err(ParseError::Unknown("h".into())));
        assert_eq!(
            parse("frobnicate"),
            Err(ParseError::Unknown("frobnicate".into()))
        );
        // A slip of a command's name is named: a player typed `hnt`.
        let said = |l: &str| parse(l).err().map(|e| e.to_string());
        assert_eq!(
            said("hnt").as_deref(),
            Some("unknown command `hnt`: did you mean `hint`? (`help` lists them)")
        );
        assert_eq!(
            said("frobnicate").as_deref(),
            Some("unknown command `frobnicate`: type `help` for the list")
        );
        // A word of one character is near every other: no suggestion (`1`
        // was answered "did you mean `?`").
        assert_eq!(
            said("1").as_deref(),
            Some("unknown command `1`: type `help` for the list")
        );
        // A cell in two words is `play`'s, which names it joined; a quoted
        // empty word is no part of a move.
        assert_eq!(text("b 2"), Ok(("play", "b 2".into())));
        // A line of invisible characters alone names no `--no-reply`.
        assert_eq!(
            said("\u{200B}").as_deref(),
            Some("unknown command ``: type `help` for the list")
        );
        // So is a cell written row first, which `play` says how to write
        // (it was an unknown command).
        assert_eq!(text("5e"), Ok(("play", "5e".into())));
        assert_eq!(text("10AB"), Ok(("play", "10ab".into())));
        assert!(usage_of("play b2 ''").is_err_and(|e| e.starts_with("an empty word is no move")));
        // A usage's question is not followed by a colon.
        assert_eq!(
            usage_of("play"),
            Err("which move? usage: play <move>".into())
        );
        for bad in [
            "perft x",
            "legal now",
            "vs expert",
            "vs hard Z",
            "vs off X",
            "draw maybe",
            "clock -1",
            "name 3 Zed",
            "name 1 Abcdefghijklmnopqrstuvwxyz",
            "resign Q",
            "bench 0",
            "bench a b",
            "pie maybe",
            "seed -1",
            "wait x",
        ] {
            assert!(usage_of(bad).is_err(), "{bad}");
        }
        for good in [
            "vs off",
            "name 2 Ada Lovelace",
            "bench classic 0.01",
            "ai",
            "clock 0",
        ] {
            assert_eq!(usage_of(good), Ok(()), "{good}");
        }
    }
}
