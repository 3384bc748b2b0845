//! The longer argument readers: the words after a command's name, read
//! into a [`Command`] or refused with the command's usage.

use super::entry::{Args, ParseError, Place};
use super::parsed::{ArenaMatch, Command};
use gridrules_core::Side;
use gridrules_core::arena::Player;
use gridrules_core::gomocup::{self, Setting};
use gridrules_core::program;
use gridrules_core::search::{Budget, Level};
use std::time::Duration;

/// Games an `arena` match has unless told.
const ARENA_GAMES: u32 = 20;

/// `arena`'s options and what follows each: what completes them, and
/// what a misspelt one is told to be.
pub(super) const ARENA_OPTIONS: &[(&str, Place)] = &[
    ("--seed", Place::Typed),
    ("--playouts", Place::Typed),
    ("--time", Place::Typed),
    ("--openings", Place::File(Some("txt"))),
    ("--threads", Place::Typed),
    ("--save", Place::File(None)),
];

/// Games an `arena` match may play at once (`--threads`).
const MAX_ARENA_THREADS: usize = 256;

/// Seconds within `range`, written `2` or `2s`.
pub(super) fn seconds_in(text: &str, range: std::ops::RangeInclusive<f64>) -> Option<Duration> {
    let n = text.strip_suffix('s').unwrap_or(text).parse::<f64>().ok()?;
    range.contains(&n).then(|| Duration::from_secs_f64(n))
}

/// A number of playouts a tree, within what a rulebook may set.
fn playouts_of(text: &str) -> Option<u32> {
    text.parse::<u32>()
        .ok()
        .filter(|n| gridrules_core::table::AI_PLAYOUTS.contains(n))
}

/// Seconds a move an `arena` budget may give.
const ARENA_SECONDS: std::ops::RangeInclusive<f64> = 0.01..=600.0;

/// A budget as a player's suffix gives it: playouts a tree (`500000`) or
/// seconds a move by the clock (`2s`, the `s` required).
fn budget_of(text: &str) -> Option<Budget> {
    if text.ends_with('s') {
        seconds_in(text, ARENA_SECONDS).map(Budget::Time)
    } else {
        playouts_of(text).map(Budget::Playouts)
    }
}

/// Whether `item`, after a player's `@`, reads as its budget (`2s`,
/// `500000`) or a brain's setting (`MAX_DEPTH=12`).
/// A value holds no `/` (nor a backslash where that parts a path): what follows a
/// path's `@` is part of the path.
fn looks_like_budget_or_setting(item: &str) -> bool {
    budget_of(item).is_some()
        || item.split_once('=').is_some_and(|(key, value)| {
            gomocup::is_setting_key(key) && !value.contains(std::path::is_separator)
        })
}

/// The seed of an `arena` match unless told.
const ARENA_SEED: u64 = 1;

/// Seconds `solve` may take unless told.
const SOLVE_SECONDS: f64 = 10.0;

/// `X` or `O`, either case.
pub(super) fn side(a: &Args<'_>, word: &str) -> Result<Side, ParseError> {
    match word {
        "X" | "x" => Ok(Side::X),
        "O" | "o" => Ok(Side::O),
        _ => Err(a.usage(format!("`{word}`: expected X or O"))),
    }
}

pub(super) use gridrules_core::notation::normal_case as normal_move;

/// `text` as an ASCII keyboard would have typed it: the fullwidth forms
/// of an East Asian input method (`ｃ３`, `ｓｔａｔｕｓ`, the ideographic
/// space) read as their ASCII letters, and the invisible format
/// characters a paste brings along (a zero-width space, a byte order
/// mark) dropped. Only for the words a command or a move is read from:
/// a file's name keeps every character.
pub(super) fn as_typed(text: &str) -> std::borrow::Cow<'_, str> {
    let fullwidth = |c: char| ('\u{FF01}'..='\u{FF5E}').contains(&c) || c == '\u{3000}';
    if !text.chars().any(|c| fullwidth(c) || invisible(c)) {
        return text.into();
    }
    text.chars()
        .filter(|&c| !invisible(c))
        .map(|c| match c {
            '\u{3000}' => ' ',
            c if fullwidth(c) => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            c => c,
        })
        .collect::<String>()
        .into()
}

/// Whether `c` is an invisible format character ([`crate::edge::hidden`]
/// but for the controls), which [`as_typed`] drops.
pub(super) fn invisible(c: char) -> bool {
    crate::edge::hidden(c) && !c.is_control()
}

/// A level, or hard unless told (`ai`, `hint`).
pub(super) fn level(a: &Args<'_>) -> Result<Level, ParseError> {
    match a.optional("one level")? {
        Some(l) => l.parse::<Level>().map_err(|e| a.usage(e)),
        None => Ok(Level::Hard),
    }
}

/// `ai`: a level (hard unless told), or `time` and seconds or `default`.
pub(super) fn ai(a: &Args<'_>) -> Result<Command, ParseError> {
    if let ["time", rest @ ..] = &a.words()[..] {
        return match rest {
            ["default"] => Ok(Command::Think(None)),
            [t] => match seconds_in(t, 0.1..=60.0) {
                Some(d) => Ok(Command::Think(Some(d))),
                None => Err(a.usage(format!(
                    "time `{t}`: expected 0.1 to 60 seconds, or default"
                ))),
            },
            _ => Err(a.usage("ai time needs seconds (0.1 to 60) or `default`")),
        };
    }
    Ok(Command::Ai(level(a)?))
}

/// `vs`: a level or `off`, and the mark the person keeps.
pub(super) fn vs(a: &Args<'_>) -> Result<Command, ParseError> {
    let (level, mark) = match a.words()[..] {
        [l] => (l, None),
        [l, m] => (l, Some(side(a, m)?)),
        [] => return Err(a.usage("vs needs a level (easy, medium or hard) or off")),
        _ => return Err(a.usage("too many words: a level, then the mark you keep")),
    };
    match level {
        "off" if mark.is_some() => Err(a.usage("`vs off` takes no mark")),
        "off" => Ok(Command::Vs(None, None)),
        l => Ok(Command::Vs(Some(l.parse().map_err(|e| a.usage(e))?), mark)),
    }
}

/// `name`: a seat and a name that fits the score line.
pub(super) fn name(a: &Args<'_>) -> Result<Command, ParseError> {
    let Some((seat, name)) = a
        .rest("which seat (1 or 2), and what name?")?
        .split_once(' ')
    else {
        return Err(a.usage("which seat (1 or 2), and what name?"));
    };
    let seat = match seat {
        "1" => 0,
        "2" => 1,
        _ => return Err(a.usage("which seat (1 or 2), and what name?")),
    };
    let name = name.trim();
    // Quotes that hold a name together, as a shell's would, are not part
    // of it: `name 1 "Ada Lovelace"` is Ada Lovelace.
    let name = ['"', '\'']
        .iter()
        .find_map(|&q| name.strip_prefix(q)?.strip_suffix(q))
        .map_or(name, str::trim);
    if name.is_empty() {
        return Err(a.usage("which seat (1 or 2), and what name?"));
    }
    if let Some(why) = gridrules_core::record::name_problem(name) {
        return Err(a.usage(why));
    }
    if name == "1" || name == "2" {
        return Err(a.usage("`1` and `2` name the seats already"));
    }
    Ok(Command::Name(seat, name.to_string()))
}

/// `solve`: the seconds it may take, or the default.
pub(super) fn solve(a: &Args<'_>) -> Result<Command, ParseError> {
    let within = match a.optional("one number of seconds")? {
        None => Duration::from_secs_f64(SOLVE_SECONDS),
        Some(w) => match seconds_in(w, 0.1..=3600.0) {
            Some(d) => d,
            None => {
                return Err(a.usage(format!("seconds `{w}`: expected 0.1 to 3600")));
            }
        },
    };
    Ok(Command::Solve(within))
}

/// `arena`: a rulebook, two players (each perhaps with its own budget
/// after an `@`), the number of games, and the options.
pub(super) fn arena(a: &Args<'_>) -> Result<Command, ParseError> {
    let words = a.words();
    let mut plain = Vec::new();
    let mut seed = ARENA_SEED;
    let mut budget = None;
    let mut openings = None;
    let mut threads = None;
    let mut save = None;
    let mut i = 0;
    while i < words.len() {
        let value = words.get(i + 1).copied();
        match words[i] {
            "--save" => match value {
                Some(dir) if save.is_none() && !dir.starts_with("--") => {
                    save = Some(dir.to_string());
                }
                Some(dir) if !dir.starts_with("--") => {
                    return Err(a.usage("--save given twice"));
                }
                _ => {
                    return Err(a.usage("--save needs a folder (a record of each game goes there)"));
                }
            },
            "--openings" => match value {
                // `--openings --threads 1` is a missing file, not one named `--threads`.
                Some(file) if file.starts_with("--") => {
                    return Err(a.usage("--openings needs a file (one opening a line)"));
                }
                Some(file) if openings.is_none() => openings = Some(file.to_string()),
                Some(_) => return Err(a.usage("--openings given twice")),
                None => return Err(a.usage("--openings needs a file (one opening a line)")),
            },
            "--threads" if threads.is_some() => return Err(a.usage("--threads given twice")),
            "--threads" => match value.and_then(|w| w.parse::<usize>().ok()) {
                Some(n) if (1..=MAX_ARENA_THREADS).contains(&n) => threads = Some(n),
                _ => {
                    return Err(a.usage(format!(
                        "--threads needs 1 to {MAX_ARENA_THREADS} (games at once)"
                    )));
                }
            },
            "--seed" => {
                let Some(n) = value.and_then(|w| w.parse::<u64>().ok()) else {
                    return Err(a.usage("--seed needs a number"));
                };
                seed = n;
            }
            "--playouts" | "--time" if budget.is_some() => {
                return Err(a.usage("one budget: --playouts or --time"));
            }
            "--playouts" => match value.and_then(playouts_of) {
                Some(n) => budget = Some(Budget::Playouts(n)),
                None => return Err(a.usage("--playouts needs 100 to 10000000")),
            },
            "--time" => match value.and_then(|w| seconds_in(w, ARENA_SECONDS)) {
                Some(d) => budget = Some(Budget::Time(d)),
                None => return Err(a.usage("--time needs 0.01 to 600 seconds a move")),
            },
            w if w.starts_with("--") => {
                let known = ARENA_OPTIONS.iter().map(|&(o, _)| o);
                let help = gridrules_core::suggest::did_you_mean(w, known)
                    .map_or_else(String::new, |h| format!(" ({h})"));
                return Err(a.usage(format!("unknown option `{w}`{help}")));
            }
            w => {
                plain.push(w);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    let (rulebook, first, second, games) = match plain[..] {
        [r, p, q] => (r, p, q, ARENA_GAMES),
        [r, p, q, g] => match g.parse::<u32>() {
            Ok(n) if (1..=100_000).contains(&n) => (r, p, q, n),
            _ => return Err(a.usage(format!("games `{g}`: expected 1 to 100000"))),
        },
        [] => return Err(a.usage("a match needs a rulebook and two players")),
        [_] | [_, _] => return Err(a.usage("a match needs two players")),
        _ => return Err(a.usage("too many words: at most the number of games follows")),
    };
    // `hard`, or with its own budget: `hard@500000`, `hard@2s`; a Gomocup
    // brain with its settings too: `./pbrain-x@2s,MAX_DEPTH=12`.
    let player = |w: &str| {
        // A program's path may hold an `@` itself: only a suffix after a
        // level, or one that reads as budgets and settings, is one.
        let is_file = |path: &str| std::path::Path::new(path).is_file();
        let (name, suffix) = match w.rsplit_once('@') {
            // A file of that name is the program, `@` and all (a program
            // is named by its path: `hard@2s` in the folder is no program).
            _ if w.contains(std::path::is_separator) && is_file(w) => (w, None),
            // Before the `@` a level or a program that is there: what
            // follows is its budget and settings, and said wrong if wrong.
            Some((name, s))
                if is_file(name)
                    || s.split(',')
                        .all(|item| item.is_empty() || looks_like_budget_or_setting(item))
                    || matches!(name.parse(), Ok(p) if !matches!(p, Player::Program(..))) =>
            {
                (name, Some(s))
            }
            _ => (w, None),
        };
        let mut player = name.parse::<Player>().map_err(|e| a.usage(e))?;
        let mut own = None;
        for item in suffix.into_iter().flat_map(|s| s.split(',')) {
            if let Some(b) = budget_of(item) {
                if matches!((&player, b), (Player::Program(..), Budget::Playouts(_))) {
                    return Err(a.usage(format!(
                        "`{w}`: a program thinks by the clock: give it seconds, as `@2s`"
                    )));
                }
                if own.replace(b).is_some() {
                    return Err(a.usage(format!("`{w}`: one budget after the @")));
                }
                continue;
            }
            if item.is_empty() {
                let why = if suffix == Some("") {
                    "nothing after the @"
                } else {
                    "an empty item after the @ (a comma too many?)"
                };
                return Err(a.usage(format!("`{w}`: {why}")));
            }
            if !item.contains('=') {
                let expected = match &player {
                    Player::Program(path, _) if gomocup::is_brain(path) => {
                        "expected seconds, 0.01 to 600 (`2s`), or a setting KEY=VALUE"
                    }
                    Player::Program(..) => "expected seconds, 0.01 to 600 (`2s`)",
                    _ => "expected 100 to 10000000 playouts or seconds (`2s`)",
                };
                return Err(a.usage(format!("budget `{item}` of `{w}`: {expected}")));
            }
            let Player::Program(path, settings) = &mut player else {
                return Err(a.usage(format!(
                    "`{name}` takes a budget only: settings (`{item}`) go to a Gomocup brain"
                )));
            };
            if !gomocup::is_brain(path) {
                return Err(a.usage(program::no_settings(path)));
            }
            let setting = item
                .parse::<Setting>()
                .map_err(|e| a.usage(format!("{e}, in `{w}`")))?;
            if settings.iter().any(|s| s.key() == setting.key()) {
                return Err(a.usage(format!("`{w}`: {} set twice", setting.key())));
            }
            settings.push(setting);
        }
        Ok::<_, ParseError>((player, own))
    };
    Ok(Command::Arena(ArenaMatch {
        rulebook: rulebook.to_string(),
        players: [player(first)?, player(second)?],
        games,
        seed,
        budget,
        openings,
        threads,
        save,
    }))
}

/// `bench`: a rulebook and seconds, in either order, each optional.
pub(super) fn bench(a: &Args<'_>) -> Result<Command, ParseError> {
    let mut rulebook = None;
    let mut seconds = None;
    for w in a.words() {
        match w.parse::<f64>() {
            Ok(x) if seconds.is_none() && x > 0.0 && x <= 3600.0 => seconds = Some(x),
            Ok(_) => {
                return Err(a.usage(format!("seconds `{w}`: expected more than 0, at most 3600")));
            }
            Err(_) if rulebook.is_none() => rulebook = Some(w),
            Err(_) => return Err(a.usage(format!("unexpected `{w}`"))),
        }
    }
    Ok(Command::Bench {
        rulebook: rulebook.map(str::to_string),
        seconds,
    })
}

/// `new-variant`: a name, then `--from` and `--dir` in any order.
pub(super) fn new_variant(a: &Args<'_>) -> Result<Command, ParseError> {
    let words = a.words();
    let (mut name, mut from, mut dir) = (None, None, None);
    let mut i = 0;
    while i < words.len() {
        match (words[i], words.get(i + 1)) {
            ("--from", Some(&w)) if from.is_none() => from = Some(w),
            ("--dir", Some(&w)) if dir.is_none() => dir = Some(w),
            ("--from" | "--dir", None) => {
                return Err(a.usage(format!("{} needs a value", words[i])));
            }
            ("--from" | "--dir", Some(_)) => {
                return Err(a.usage(format!("{} given twice", words[i])));
            }
            (w, _) if w.starts_with("--") => {
                return Err(a.usage(format!("unknown option `{w}`")));
            }
            (w, _) if name.is_none() => {
                name = Some(w);
                i += 1;
                continue;
            }
            (w, _) => return Err(a.usage(format!("unexpected `{w}`: one name"))),
        }
        i += 2;
    }
    let name = name.ok_or_else(|| a.usage("which name?"))?;
    Ok(Command::NewVariant {
        name: name.to_string(),
        from: from.map(str::to_string),
        dir: dir.map(str::to_string),
    })
}
