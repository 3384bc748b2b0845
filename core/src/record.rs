//! Game records: a small TOML file a person can read and edit, saved
//! atomically and checked move by move when opened.
//!
//! ```toml
//! # gridrules game record: edit it freely, then `open` it
//! rulebook = "classic"      # a built-in rulebook, or the path of a rulebook file
//! x = "Alice"               # who played X
//! o = "Bob"                 # who played O
//! clock = 15                # seconds per move; 0 for none
//! start = "3/3/3 X - -"     # optional: the position the game began from
//! moves = "b2 a1 c3"        # the moves, in order (in any case; a turn's marks may be joined: k10,k11)
//! result = "X wins"         # optional; required for a resignation, an agreed draw or a match's move limit
//! ending = "line"           # optional: line, full, no-moves, repetition, script, captures, stones, reduced, resigned, agreed, move-limit
//! ```

use crate::error::{Problem, ProblemKind, RulebookError, Source};
use crate::game::Game;
use crate::position::{Ending, Outcome, Side};
use crate::refusal::Refusal;
use crate::rulebook::Rulebook;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use toml::Spanned;

/// A record that could not be saved or opened. Opening never changes the
/// game in progress, whatever the error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError(pub RulebookError);

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RecordError {}

impl From<Problem> for RecordError {
    fn from(p: Problem) -> RecordError {
        RecordError(p.into())
    }
}

impl From<RulebookError> for RecordError {
    fn from(e: RulebookError) -> RecordError {
        RecordError(e)
    }
}

/// The terms a recorded game was played on: its players, clock and pie
/// rule (what the REPL's table held, not the rulebook's `[table]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Who played X, if the record names them.
    pub x: Option<String>,
    /// Who played O, if the record names them.
    pub o: Option<String>,
    /// Seconds per move, if the clock was on.
    pub clock: Option<u32>,
    /// The pie rule as chosen at the table, if it was (PI1).
    pub pie: Option<bool>,
}

/// A game with its terms, as read from a record.
#[derive(Debug)]
pub struct Opened {
    /// The game, replayed move by move.
    pub game: Game,
    /// Players, clock and pie rule.
    pub terms: Terms,
    /// How the rulebook was named in the file.
    pub rulebook: String,
}

/// The longest seat name: it must fit the score line on a terminal.
pub const MAX_NAME: usize = 24;

/// What is wrong with `name` as a player's name, if anything: the `name`
/// command and a record's `x` and `o` hold names to the same rule. (Any
/// character may be in one: every output escapes what is not plain text.)
pub fn name_problem(name: &str) -> Option<String> {
    (name.chars().count() > MAX_NAME).then(|| format!("a name has at most {MAX_NAME} characters"))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    rulebook: Spanned<String>,
    #[serde(default)]
    x: Option<Spanned<String>>,
    #[serde(default)]
    o: Option<Spanned<String>>,
    #[serde(default)]
    clock: Option<Spanned<i64>>,
    /// The pie rule, when the table chose it (PI1).
    #[serde(default)]
    pie: Option<bool>,
    #[serde(default)]
    start: Option<Spanned<String>>,
    #[serde(default)]
    moves: Option<Spanned<String>>,
    #[serde(default)]
    result: Option<Spanned<String>>,
    #[serde(default)]
    ending: Option<Spanned<String>>,
}

/// Every `ending` a record may name, as [`ending_name`] writes them.
const ENDINGS: &[&str] = &[
    "line",
    "full",
    "no-moves",
    "repetition",
    "script",
    "captures",
    "stones",
    "reduced",
    "resigned",
    "agreed",
    "move-limit",
];

fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Line => "line",
        Ending::NoMoves(_) => "no-moves",
        Ending::Full => "full",
        Ending::Repetition(_) => "repetition",
        Ending::Script => "script",
        Ending::Captures(_) => "captures",
        Ending::Stones(_) => "stones",
        Ending::Reduced(..) => "reduced",
        Ending::Resigned(_) => "resigned",
        Ending::Agreed => "agreed",
        Ending::MoveLimit(_) => "move-limit",
    }
}

/// A record as [`to_text`] writes it: the keys in this order, those with
/// nothing to say left out.
#[derive(Serialize)]
struct RecordText<'a> {
    rulebook: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    x: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    o: Option<&'a str>,
    clock: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pie: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    moves: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ending: Option<&'static str>,
}

/// The record of `game` as text. `rulebook` is how the file names it: a
/// built-in name, or a path (best relative to where the record is saved).
pub fn to_text(game: &Game, rulebook: &str, terms: &Terms) -> String {
    let r = game.rulebook();
    let moves: Vec<String> = game.moves().iter().map(|&m| r.move_text(m)).collect();
    let ending = game.ending();
    let record = RecordText {
        rulebook,
        x: terms.x.as_deref(),
        o: terms.o.as_deref(),
        clock: terms.clock.unwrap_or(0),
        pie: terms.pie,
        start: (*game.start() != r.initial()).then(|| r.position_text(game.start())),
        moves: moves.join(" "),
        result: ending.map(|(outcome, _)| outcome.to_string()),
        ending: ending.map(|(_, ending)| ending_name(ending)),
    };
    let body = toml::to_string(&record).expect("strings, a number and a flag are TOML");
    format!("{HEADER}: edit it freely, then `open` it\n{body}")
}

/// The first line of every record `save` writes: a record may be saved
/// over a file that starts with it.
pub const HEADER: &str = crate::files::RECORD_HEADER;

/// Writes `text` to `path` as a whole (see [`crate::files::write_replacing`]):
/// over an earlier record, or anything else with `force`.
///
/// # Errors
/// When the file cannot be written, or another kind of file is there.
pub fn write(path: &Path, text: &str, header: &str, force: bool) -> Result<(), RecordError> {
    crate::files::write_replacing(path, text, header, force).map_err(|e| {
        Problem::bare(
            ProblemKind::Io,
            format!("{}: cannot write: {e}", path.display()),
        )
        .into()
    })
}

/// Reads a record from `path` and replays it. Nothing outside is touched.
///
/// # Errors
/// A record that does not parse, names a rulebook that does not load, or
/// holds a move or result the rules refuse; located at `file:line:col`.
pub fn open(path: &Path) -> Result<Opened, RecordError> {
    let shown = path.display().to_string();
    let text = crate::files::read(path, crate::files::RECORD)
        .map_err(|e| Problem::bare(ProblemKind::Io, format!("{shown}: cannot read: {e}")))?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    parse(&text, &shown, &dir)
}

/// Parses and replays a record's text; `dir` is where relative rulebook paths start.
///
/// # Errors
/// As [`open`].
pub fn parse(text: &str, path: &str, dir: &Path) -> Result<Opened, RecordError> {
    if crate::files::toml_kind(text) == Some(crate::files::RULEBOOK) {
        return Err(Problem::bare(
            ProblemKind::Toml,
            format!("{path}: this is a rulebook, not a game record: play it with `load {path}`"),
        )
        .into());
    }
    let source = Source::new(path, text);
    let raw: RawRecord = toml::from_str(text).map_err(|e| {
        let kind = ProblemKind::of_serde(e.message());
        let problem = match e.span() {
            Some(span) => {
                Problem::spanned(kind, &source, span, ProblemKind::serde_words(e.message()))
            }
            None => Problem::bare(kind, ProblemKind::serde_words(e.message())),
        };
        problem.with_help(unknown_key_hint(e.message()))
    })?;
    let source = &source;
    let rulebook = Arc::new(rulebook(&raw, source, dir)?);
    let clock = clock(&raw, source)?;
    let mut game = match &raw.start {
        None => Game::new(rulebook.clone()),
        Some(s) => {
            let pos = rulebook.parse_position(s.get_ref()).map_err(|e| {
                Problem::spanned(ProblemKind::Setup, source, s.span(), format!("start: {e}"))
            })?;
            Game::from_position(rulebook, pos)
        }
    };
    if let Some(moves) = &raw.moves {
        replay(&mut game, moves, source)?;
    }
    settle_result(&mut game, &raw, source)?;
    for (key, name) in [("x", &raw.x), ("o", &raw.o)] {
        if let Some(name) = name
            && let Some(why) = name_problem(name.get_ref())
        {
            return Err(Problem::spanned(
                ProblemKind::BadValue,
                source,
                name.span(),
                format!("{key}: {why}"),
            )
            .into());
        }
    }
    let terms = Terms {
        x: raw.x.map(Spanned::into_inner),
        o: raw.o.map(Spanned::into_inner),
        pie: raw.pie,
        clock,
    };
    Ok(Opened {
        game,
        terms,
        rulebook: raw.rulebook.into_inner(),
    })
}

/// `did you mean `clock`?` for serde's `unknown field `clok`, expected one
/// of `rulebook`, …, `clock`, …`.
fn unknown_key_hint(message: &str) -> Option<String> {
    let (word, rest) = message.strip_prefix("unknown field `")?.split_once('`')?;
    let keys = rest.split('`').skip(1).step_by(2);
    crate::suggest::did_you_mean(word, keys)
}

/// The rulebook a record names (built-in, or a file beside the record),
/// with the pie rule chosen at the table where the rulebook does not say so.
fn rulebook(raw: &RawRecord, source: &Source, dir: &Path) -> Result<Rulebook, RecordError> {
    let name = raw.rulebook.get_ref();
    let refused = |why: &str| {
        let text = format!("rulebook `{name}`: {why}");
        Problem::spanned(ProblemKind::BadValue, source, raw.rulebook.span(), text)
    };
    let rulebook = if Rulebook::is_builtin(name) {
        Rulebook::builtin(name)?
    } else if Path::new(name).is_absolute() {
        // A record names what it needs beside it, so that a folder of games
        // can be shared: never a file anywhere on the reader's machine.
        return Err(refused(
            "a record names a built-in rulebook, or a rulebook file by its path from the record's folder",
        )
        .into());
    } else if !name.ends_with(".toml") {
        let near = crate::suggest::did_you_mean(name, Rulebook::builtin_names());
        return Err(refused(
            "no built-in rulebook has that name (`variants` lists them), and a rulebook file is named with its .toml",
        )
        .with_help(near)
        .into());
    } else {
        Rulebook::from_file(&dir.join(name)).map_err(|e| {
            let mut problems = vec![Problem::spanned(
                ProblemKind::Unloadable,
                source,
                raw.rulebook.span(),
                format!("rulebook `{name}` does not load:"),
            )];
            problems.extend(e.problems);
            RulebookError { problems }
        })?
    };
    Ok(match raw.pie {
        Some(pie) if pie != rulebook.table().pie => {
            let table = crate::table::TableRules {
                pie,
                ..rulebook.table().clone()
            };
            rulebook.with_table(table)
        }
        _ => rulebook,
    })
}

/// The clock's seconds per move, if any (0 written: none).
fn clock(raw: &RawRecord, source: &Source) -> Result<Option<u32>, RecordError> {
    let Some(c) = &raw.clock else {
        return Ok(None);
    };
    match *c.get_ref() {
        0 => Ok(None),
        s if (1..=i64::from(crate::table::MAX_CLOCK)).contains(&s) => Ok(Some(s as u32)),
        s => Err(Problem::spanned(
            ProblemKind::BadValue,
            source,
            c.span(),
            format!("clock {s}: expected seconds per move, or 0"),
        )
        .into()),
    }
}

/// Plays the record's `moves` on `game`; a refused one is located at its
/// word in the file.
fn replay(game: &mut Game, moves: &Spanned<String>, source: &Source) -> Result<(), RecordError> {
    let list = moves.get_ref();
    // Each move's own column where the string is written plainly; with
    // escapes in it (`\t`, `\u00a0`) the decoded text no longer lines up
    // with the file, so problems point at the string's start.
    let start = moves.span().start;
    let plain = source.text.get(start + 1..start + 1 + list.len()) == Some(list.as_str());
    let mut offset = 0;
    // The marks of a turn may be joined by commas, as `history` writes
    // them (`k10,k11`); each is a move.
    let words = list.split(|c: char| c.is_whitespace() || c == ',');
    for (i, word) in words.filter(|w| !w.is_empty()).enumerate() {
        let pos_in = list[offset..].find(word).map_or(offset, |p| p + offset);
        offset = pos_in + word.len();
        // Located only on error: finding a line and column reads the
        // text up to it, which for every move would be quadratic.
        let range = if plain {
            start + 1 + pos_in..start + 1 + pos_in + word.len()
        } else {
            moves.span()
        };
        let refused = |e: &dyn std::fmt::Display| {
            Problem::spanned(
                ProblemKind::Move,
                source,
                range.clone(),
                format!("move {} `{word}`: {e}", i + 1),
            )
        };
        let mv = (game.parse_move(&crate::notation::normal_case(word))).map_err(|e| refused(&e))?;
        game.play(mv).map_err(|e| refused(&e))?;
    }
    Ok(())
}

/// Applies a recorded resignation or agreement, and checks any recorded
/// result against the replayed game.
fn settle_result(game: &mut Game, raw: &RawRecord, source: &Source) -> Result<(), RecordError> {
    let Some(result) = &raw.result else {
        return match &raw.ending {
            Some(e) => Err(Problem::spanned(
                ProblemKind::MissingKey,
                source,
                e.span(),
                "`ending` needs a `result` beside it",
            )
            .into()),
            None => Ok(()),
        };
    };
    let outcome = match result.get_ref().as_str() {
        "X wins" => Outcome::Win(Side::X),
        "O wins" => Outcome::Win(Side::O),
        "draw" => Outcome::Draw,
        other => {
            return Err(Problem::spanned(
                ProblemKind::BadValue,
                source,
                result.span(),
                format!("result `{other}`: expected \"X wins\", \"O wins\" or \"draw\""),
            )
            .into());
        }
    };
    let ending = raw
        .ending
        .as_ref()
        .map(|e| (e.get_ref().as_str(), e.span()));
    // A misspelt ending would be read as none, and the result then
    // refused for the wrong reason (`for a resignation write "resigned"`).
    if let Some((name, span)) = &ending
        && !ENDINGS.contains(name)
    {
        return Err(Problem::spanned(
            ProblemKind::BadValue,
            source,
            span.clone(),
            format!("ending `{name}`: expected one of {}", ENDINGS.join(", ")),
        )
        .with_help(crate::suggest::did_you_mean(name, ENDINGS.iter().copied()))
        .into());
    }
    match (game.ending(), ending) {
        (None, Some(("resigned", _))) => match outcome {
            Outcome::Win(winner) => {
                let refused = game.resign(winner.other());
                refused.map_err(|e| mismatch(game, &e))
            }
            Outcome::Draw => Err(Problem::spanned(
                ProblemKind::BadValue,
                source,
                result.span(),
                "a resignation cannot end in a draw",
            )
            .into()),
        },
        (None, Some((name @ ("agreed" | "move-limit"), span))) => {
            if outcome != Outcome::Draw {
                return Err(Problem::spanned(
                    ProblemKind::BadValue,
                    source,
                    span,
                    format!(
                        "ending `{name}` with result `{outcome}`: {} is a draw",
                        if name == "agreed" {
                            "an agreed result"
                        } else {
                            "a game stopped at a match's move limit"
                        }
                    ),
                )
                .into());
            }
            let refused = if name == "agreed" {
                game.agree_draw()
            } else {
                game.draw_at_move_limit()
            };
            refused.map_err(|e| mismatch(game, &e))
        }
        (None, _) => Err(Problem::spanned(
            ProblemKind::ResultMismatch,
            source,
            result.span(),
            match outcome {
                // A draw off the board is agreed; a win, resigned.
                Outcome::Draw => format!("result `{outcome}`, but after these moves the game goes on (for a draw agreed write ending = \"agreed\")"),
                Outcome::Win(_) => format!("result `{outcome}`, but after these moves the game goes on (for a resignation write ending = \"resigned\")"),
            },
        )
        .into()),
        (Some((actual, _)), _) if actual != outcome => Err(Problem::spanned(
            ProblemKind::ResultMismatch,
            source,
            result.span(),
            format!("result `{outcome}`, but the moves give `{actual}`"),
        )
        .into()),
        // The moves end the game: a recorded ending must be theirs.
        (Some((_, actual)), Some((named, span))) if named != ending_name(actual) => {
            Err(Problem::spanned(
                ProblemKind::ResultMismatch,
                source,
                span,
                format!(
                    "ending `{named}`, but the moves end the game by `{}`",
                    ending_name(actual)
                ),
            )
            .into())
        }
        (Some(_), _) => Ok(()),
    }
}

/// A recorded ending the game refuses, in the rulebook's words.
fn mismatch(game: &Game, refusal: &Refusal) -> RecordError {
    Problem::bare(
        ProblemKind::ResultMismatch,
        refusal.describe(game.rulebook().grid()),
    )
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ENDINGS`, which a record's `ending` is checked against, names
    /// every ending [`ending_name`] writes, and nothing else.
    #[test]
    fn every_ending_written_is_one_a_record_may_name() {
        let mut written: Vec<&str> = (Ending::one_of_each().iter())
            .map(|&e| ending_name(e))
            .collect();
        let mut listed = ENDINGS.to_vec();
        written.sort_unstable();
        listed.sort_unstable();
        assert_eq!(written, listed);
    }
}
