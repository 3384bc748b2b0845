//! The rulebook file as written: a serde mirror of the TOML, never used after
//! validation (cargo's `TomlManifest` split).

use crate::error::{Problem, ProblemKind, Source};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;
use toml::Spanned;
use toml::de::{DeTable, DeValue, Deserializer};

/// A rulebook's TOML as read, wrong items taken out.
pub(crate) struct Parsed {
    /// What could be read; `None` when the TOML itself does not parse.
    pub raw: Option<RawRulebook>,
    /// Every syntax error, unknown key and wrong type, in file order.
    pub problems: Vec<Problem>,
    /// Dotted paths (`board.height`) already reported: taken out for a
    /// wrong type, or suggested for a misspelt key. A missing key among
    /// them is not reported again.
    pub reported: Vec<String>,
}

/// Reads a rulebook's TOML, reporting every problem of the file in one run.
///
/// serde stops at the first wrong key or value; this takes it out and reads
/// again, so a file with three slips gets three problems. Every field is
/// optional here: a missing required key is the validator's to report.
pub(crate) fn parse(source: &Source) -> Parsed {
    let (mut root, errors) = DeTable::parse_recoverable(&source.text);
    let mut parsed = Parsed {
        raw: None,
        problems: Vec::new(),
        reported: Vec::new(),
    };
    if !errors.is_empty() {
        parsed.problems = errors
            .iter()
            .map(|e| toml_problem(source, e, &[]).0)
            .collect();
        return parsed;
    }
    // Each round takes one item out; a file has fewer items than its bytes.
    for _ in 0..=source.text.len() {
        match RawRulebook::deserialize(Deserializer::from(root.clone())) {
            Ok(raw) => {
                parsed.raw = Some(raw);
                break;
            }
            Err(e) => {
                let Some(span) = e.span() else {
                    parsed.problems.push(toml_problem(source, &e, &[]).0);
                    break;
                };
                let path = take_out(root.get_mut(), &span);
                let (problem, meant) = toml_problem(source, &e, &path);
                parsed.problems.push(problem);
                if path.is_empty() {
                    break;
                }
                let mut at = path.clone();
                if let Some(meant) = meant {
                    at.pop();
                    at.push(meant);
                }
                parsed.reported.push(at.join("."));
            }
        }
    }
    parsed
}

/// Takes the item at `span` out of `table`, so that the next read gets past
/// it; returns its dotted path (empty when nothing held it).
fn take_out(table: &mut DeTable<'_>, span: &Range<usize>) -> Vec<String> {
    let inside = |outer: Range<usize>| outer.start <= span.start && span.end <= outer.end;
    let mut found = None;
    for (key, value) in table.iter_mut() {
        if inside(key.span()) {
            found = Some((key.get_ref().to_string(), Vec::new()));
            break;
        }
        // A `[section]`'s span is its header, not its keys: look inside
        // every table, and every table of an array of tables (`[[example]]`).
        let whole = inside(value.span());
        let deeper = match value.get_mut() {
            DeValue::Table(t) => take_out(t, span),
            DeValue::Array(items) => items
                .iter_mut()
                .find_map(|item| match item.get_mut() {
                    DeValue::Table(t) => Some(take_out(t, span)).filter(|p| !p.is_empty()),
                    _ => None,
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        if whole || !deeper.is_empty() {
            found = Some((key.get_ref().to_string(), deeper));
            break;
        }
    }
    let Some((key, deeper)) = found else {
        return Vec::new();
    };
    if deeper.is_empty() {
        table.remove(key.as_str());
    }
    std::iter::once(key).chain(deeper).collect()
}

/// A TOML or schema error as a problem: at its span, in the file's terms
/// (serde names Rust types), with the nearest valid name for a slip.
fn toml_problem(
    source: &Source,
    e: &toml::de::Error,
    path: &[String],
) -> (Problem, Option<String>) {
    let message = ProblemKind::serde_words(e.message());
    let range = e.span().unwrap_or(0..0);
    let kind = ProblemKind::of_serde(e.message());
    let quoted = |text: &str| -> Vec<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let (head, expected) = message
        .split_once(", expected ")
        .unwrap_or((message.as_str(), ""));
    let names = quoted(expected);
    let word = quoted(head).into_iter().next().unwrap_or_default();
    let list = || {
        Some(format!(
            "expected one of {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    };
    let table = match &path[..path.len().saturating_sub(1)] {
        [] => String::new(),
        [one] if one == "example" => "[[example]]".to_string(),
        table => format!("[{}]", table.join(".")),
    };
    let within = if table.is_empty() {
        String::new()
    } else {
        format!(" in `{table}`")
    };
    if head.starts_with("unknown field") {
        let is_section = source.text[..range.start].ends_with('[');
        let near = crate::suggest::nearest(&word, names.iter().map(String::as_str));
        let (message, label, help) = if is_section {
            (
                format!("unknown section `[{word}]`"),
                "not a section of a rulebook".to_string(),
                near.map(|n| format!("did you mean `[{n}]`?")),
            )
        } else {
            let of = if table.is_empty() {
                "of a rulebook".to_string()
            } else {
                format!("of `{table}`")
            };
            (
                format!("unknown key `{word}`{within}"),
                format!("not a key {of}"),
                near.map(|n| format!("did you mean `{n}`?"))
                    .or_else(|| misplaced(&word, &table)),
            )
        };
        // A script's param under `[board]` is the likeliest slip there.
        let listed = || {
            list().map(|l| match table.as_str() {
                "[board]" => format!(
                    "{l}; a param of the script goes under [params] ({word} there is {} in the script)",
                    word.to_uppercase()
                ),
                _ => l,
            })
        };
        let problem = Problem::spanned(kind, source, range, message)
            .with_label(label)
            .with_help(help.or_else(listed));
        (problem, near.map(str::to_string))
    } else if head.starts_with("unknown variant") {
        let help = crate::suggest::did_you_mean(&word, names.iter().map(String::as_str));
        let problem = Problem::spanned(kind, source, range, format!("{head}{within}"))
            .with_help(help.or_else(list));
        (problem, None)
    } else if path.is_empty() {
        // `width = 4x`: TOML reads a bare word as an unquoted string; where
        // it starts as a number, a number was most likely meant.
        let written = source.text.get(range.clone()).unwrap_or_default();
        let digits: String = written.chars().take_while(char::is_ascii_digit).collect();
        let help = (message.starts_with("string values must be quoted") && !digits.is_empty())
            .then(|| {
                format!("a number is digits alone, like `{digits}`; text goes in quotes, like `\"{written}\"`")
            });
        (
            Problem::spanned(kind, source, range, message).with_help(help),
            None,
        )
    } else {
        let at = path.join(".");
        // `height = "3"`: the number is right, the quotes are not.
        let written = &source.text[range.clone()];
        let unquoted = written.trim_matches('"');
        let help = (message.ends_with("expected an integer")
            && written.starts_with('"')
            && unquoted.parse::<i64>().is_ok())
        .then(|| format!("write it without quotes: `{unquoted}`"));
        let problem =
            Problem::spanned(kind, source, range, format!("`{at}`: {message}")).with_help(help);
        (problem, None)
    }
}

/// The keys of a rulebook's top level, before its first `[section]`.
pub(crate) const TOP_KEYS: &[&str] = &["name", "title", "description", "script", "roles"];

/// Where a key that `table` does not have belongs, if it is a top-level
/// key written after a section (TOML gives it to that section).
pub(crate) fn misplaced(word: &str, table: &str) -> Option<String> {
    (!table.is_empty() && TOP_KEYS.contains(&word)).then(|| {
        format!(
            "`{word}` is a key of the rulebook's top level, and every key after a `[section]` line belongs to that section: move it above the first section"
        )
    })
}

/// A rulebook file, parsed but not yet checked.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRulebook {
    pub name: Option<Spanned<String>>,
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    pub script: Option<Spanned<String>>,
    #[serde(default)]
    pub roles: Option<Spanned<Vec<String>>>,
    pub board: Option<Spanned<RawBoard>>,
    #[serde(default)]
    pub params: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    #[serde(default)]
    pub table: RawTable,
    #[serde(default)]
    pub refusals: BTreeMap<Spanned<String>, Spanned<String>>,
    #[serde(default, rename = "example")]
    pub examples: Vec<Spanned<RawExample>>,
}

/// `[[example]]`: a documented example, run by `gridrules check`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExample {
    pub rule: Option<Spanned<String>>,
    pub text: Option<String>,
    #[serde(default)]
    pub setup: Option<String>,
    #[serde(default)]
    pub moves: String,
    pub expect: Option<Spanned<String>>,
}

/// `[table]`: how people play the variant at a table (clock, rematches).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTable {
    pub clock: Option<Spanned<i64>>,
    pub clock_options: Option<Spanned<Vec<i64>>>,
    pub alternate: Option<bool>,
    pub pie: Option<bool>,
    pub timeout_move: Option<Spanned<String>>,
    pub ai_playouts: Option<Spanned<i64>>,
}

/// `[board]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBoard {
    pub width: Option<Spanned<i64>>,
    pub height: Option<Spanned<i64>>,
    #[serde(default)]
    pub layers: Option<Spanned<i64>>,
    /// The position games start from, as a position text.
    #[serde(default)]
    pub start: Option<Spanned<String>>,
}
