//! The checked forms of a rulebook's optional sections: `[table]`,
//! `[refusals]` and `[[example]]`. Each validator records every problem at the
//! offending value and returns what it could read.

use super::schema;
use crate::error::{Location, Problem};
use crate::table::{MAX_CLOCK, TableRules, TimeoutMove};
use std::collections::BTreeMap;
use toml::Spanned;

/// A documented example: a rule, a position and moves, and what must follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The rule statement's ID (`C3`).
    pub rule: String,
    /// The rule in words.
    pub text: String,
    /// The position to start from (position text), or the initial one.
    pub setup: Option<String>,
    /// The moves, separated by spaces.
    pub moves: String,
    /// What must follow: `result: …`, `to move: …`, `refused: …` (the last
    /// move is refused with a reason containing this), `legal: …` or `position: …`.
    pub expect: String,
    /// Where it is written.
    pub location: Location,
}

/// Whether `text` is a rule statement ID: one to three capital letters,
/// then a number (`C3`, `CF2`, `U10`).
pub fn is_rule_id(text: &str) -> bool {
    let letters = text.chars().take_while(char::is_ascii_uppercase).count();
    let digits = &text[letters..];
    (1..=3).contains(&letters) && !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// What an example's `expect` may start with.
pub const EXPECT_KINDS: &[&str] = &["result:", "to move:", "refused:", "legal:", "position:"];

pub(super) fn examples(
    raw: &[Spanned<schema::RawExample>],
    at: &dyn Fn(usize) -> Location,
    problems: &mut Vec<Problem>,
) -> Vec<Example> {
    let mut out = Vec::new();
    for e in raw {
        let r = e.get_ref();
        let rule = r.rule.get_ref();
        if !is_rule_id(rule) {
            problems.push(Problem::at(
                at(r.rule.span().start),
                format!("example rule `{rule}`: expected an ID like `C3` or `CF2`"),
            ));
        }
        let expect = r.expect.get_ref();
        if !EXPECT_KINDS.iter().any(|k| expect.starts_with(k)) {
            problems.push(Problem::at(
                at(r.expect.span().start),
                format!(
                    "example expect `{expect}`: expected it to start with one of {}",
                    EXPECT_KINDS.join(" ")
                ),
            ));
        }
        out.push(Example {
            rule: rule.clone(),
            text: r.text.clone(),
            setup: r.setup.clone(),
            moves: r.moves.clone(),
            expect: expect.clone(),
            location: at(e.span().start),
        });
    }
    out
}

/// Validates `[refusals]`: known keys, known placeholders.
pub(super) fn refusal_texts(
    raw: &BTreeMap<Spanned<String>, Spanned<String>>,
    at: &dyn Fn(usize) -> Location,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, String> {
    use crate::rules::{REFUSAL_KEYS, REFUSAL_PLACEHOLDERS};
    let mut out = BTreeMap::new();
    for (key, text) in raw {
        if !REFUSAL_KEYS.contains(&key.get_ref().as_str()) {
            problems.push(Problem::at(
                at(key.span().start),
                crate::suggest::with_hint(
                    format!(
                        "unknown refusal `{}`, expected one of {}",
                        key.get_ref(),
                        REFUSAL_KEYS.join(", ")
                    ),
                    key.get_ref(),
                    REFUSAL_KEYS.iter().copied(),
                ),
            ));
            continue;
        }
        let mut rest = text.get_ref().as_str();
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
            let placeholder = &rest[open..close];
            if !REFUSAL_PLACEHOLDERS.contains(&placeholder) {
                problems.push(Problem::at(
                    at(text.span().start),
                    crate::suggest::with_hint(
                        format!(
                            "refusal `{}`: unknown placeholder `{placeholder}`, expected one of {}",
                            key.get_ref(),
                            REFUSAL_PLACEHOLDERS.join(" ")
                        ),
                        placeholder,
                        REFUSAL_PLACEHOLDERS.iter().copied(),
                    ),
                ));
            }
            rest = &rest[close..];
        }
        out.insert(key.get_ref().clone(), text.get_ref().clone());
    }
    out
}

/// Validates `[table]`, recording problems at the offending values.
pub(super) fn table_rules(
    raw: &schema::RawTable,
    at: &dyn Fn(usize) -> Location,
    problems: &mut Vec<Problem>,
) -> TableRules {
    let mut table = TableRules::default();
    let seconds = |v: i64| u32::try_from(v).ok().filter(|&s| s <= MAX_CLOCK);
    if let Some(c) = &raw.clock {
        match seconds(*c.get_ref()) {
            Some(0) => table.clock = None,
            Some(s) => table.clock = Some(s),
            None => problems.push(Problem::at(
                at(c.span().start),
                format!(
                    "clock {}: expected seconds per move, 0 (no clock) to {MAX_CLOCK}",
                    c.get_ref()
                ),
            )),
        }
    }
    if let Some(options) = &raw.clock_options {
        for &o in options.get_ref() {
            match seconds(o) {
                Some(s) if s > 0 => table.clock_options.push(s),
                _ => problems.push(Problem::at(
                    at(options.span().start),
                    format!("clock_options: {o} is not a number of seconds from 1 to {MAX_CLOCK}"),
                )),
            }
        }
    }
    if let Some(a) = raw.alternate {
        table.alternate = a;
    }
    if let Some(p) = raw.pie {
        table.pie = p;
    }
    if let Some(n) = &raw.ai_playouts {
        match u32::try_from(*n.get_ref()) {
            Ok(v) if crate::table::AI_PLAYOUTS.contains(&v) => table.ai_playouts = v,
            _ => problems.push(Problem::at(
                at(n.span().start),
                format!(
                    "ai_playouts {}: expected playouts a search tree, {} to {}",
                    n.get_ref(),
                    crate::table::AI_PLAYOUTS.start(),
                    crate::table::AI_PLAYOUTS.end()
                ),
            )),
        }
    }
    if let Some(t) = &raw.timeout_move {
        match t.get_ref().as_str() {
            "random" => table.timeout_move = TimeoutMove::Random,
            "near" => table.timeout_move = TimeoutMove::Near,
            other => problems.push(Problem::at(
                at(t.span().start),
                format!("timeout_move `{other}`: expected \"random\" or \"near\""),
            )),
        }
    }
    table
}
