//! The checked forms of a rulebook's optional sections: `[table]`,
//! `[refusals]` and `[[example]]`. Each validator records every problem at the
//! offending value and returns what it could read.

use super::schema;
use crate::error::{Location, Problem, ProblemKind, Source};
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
    source: &Source,
    reported: &[String],
    problems: &mut Vec<Problem>,
) -> Vec<Example> {
    let mut out = Vec::new();
    for e in raw {
        let r = e.get_ref();
        let mut missing = |key: &str| {
            if reported.contains(&format!("example.{key}")) {
                return;
            }
            problems.push(
                Problem::spanned(
                    ProblemKind::MissingKey,
                    source,
                    e.span(),
                    format!("missing key `{key}`: every `[[example]]` sets it"),
                )
                .with_label(format!("this example has no `{key}`")),
            );
        };
        for (key, absent) in [
            ("rule", r.rule.is_none()),
            ("text", r.text.is_none()),
            ("expect", r.expect.is_none()),
        ] {
            if absent {
                missing(key);
            }
        }
        if let Some(rule) = &r.rule
            && !is_rule_id(rule.get_ref())
        {
            // Lower case for upper (`e1`): the ID meant.
            let upper = rule.get_ref().to_ascii_uppercase();
            let help = is_rule_id(&upper).then(|| format!("did you mean `{upper}`?"));
            problems.push(
                Problem::spanned(
                    ProblemKind::BadValue,
                    source,
                    rule.span(),
                    format!(
                        "example rule `{}`: expected an ID like `C3` or `CF2`",
                        rule.get_ref()
                    ),
                )
                .with_label("one to three capital letters, then a number")
                .with_help(help),
            );
        }
        if let Some(expect) = &r.expect
            && !EXPECT_KINDS.iter().any(|k| expect.get_ref().starts_with(k))
        {
            let word = expect.get_ref().split(':').next().unwrap_or_default();
            problems.push(
                Problem::spanned(
                    ProblemKind::BadValue,
                    source,
                    expect.span(),
                    format!(
                        "example expect `{}`: expected it to start with one of {}",
                        expect.get_ref(),
                        EXPECT_KINDS.join(" ")
                    ),
                )
                .with_help(
                    crate::suggest::nearest(
                        word,
                        EXPECT_KINDS.iter().map(|k| k.trim_end_matches(':')),
                    )
                    .map(|k| format!("did you mean `{k}:`?")),
                ),
            );
        }
        // Every refusal text contains the empty text: such an example
        // would pass whatever the refusal said.
        if let Some(expect) = &r.expect
            && expect
                .get_ref()
                .strip_prefix("refused:")
                .is_some_and(|w| w.trim().is_empty())
        {
            problems.push(
                Problem::spanned(
                    ProblemKind::BadValue,
                    source,
                    expect.span(),
                    "example expect `refused:` names no refusal, so any would pass".to_string(),
                )
                .with_help(Some(
                    "write the refusal, or a part of it that tells it apart: `refused: b2 is taken`"
                        .to_string(),
                )),
            );
        }
        let (Some(rule), Some(text), Some(expect)) = (&r.rule, &r.text, &r.expect) else {
            continue;
        };
        out.push(Example {
            rule: rule.get_ref().clone(),
            text: text.clone(),
            setup: r.setup.clone(),
            moves: r.moves.clone(),
            expect: expect.get_ref().clone(),
            location: source.location(e.span().start),
        });
    }
    out
}

/// Validates `[refusals]`: known keys, known placeholders.
pub(super) fn refusal_texts(
    raw: &BTreeMap<Spanned<String>, Spanned<String>>,
    source: &Source,
    problems: &mut Vec<Problem>,
) -> BTreeMap<String, String> {
    use crate::refusal::{REFUSAL_KEYS, REFUSAL_PLACEHOLDERS};
    let mut out = BTreeMap::new();
    for (key, text) in raw {
        if !REFUSAL_KEYS.contains(&key.get_ref().as_str()) {
            let help = crate::suggest::did_you_mean(key.get_ref(), REFUSAL_KEYS.iter().copied())
                .or_else(|| super::schema::misplaced(key.get_ref(), "[refusals]"))
                .unwrap_or_else(|| format!("expected one of {}", REFUSAL_KEYS.join(", ")));
            problems.push(
                Problem::spanned(
                    ProblemKind::UnknownKey,
                    source,
                    key.span(),
                    format!("unknown refusal `{}`", key.get_ref()),
                )
                .with_label("not a refusal key")
                .with_help(Some(help)),
            );
            continue;
        }
        let mut rest = text.get_ref().as_str();
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
            let placeholder = &rest[open..close];
            let allowed = crate::refusal::refusal_placeholders(key.get_ref());
            if !allowed.contains(&placeholder) {
                // Point at the placeholder itself where the string holds it
                // as written (no escapes before it).
                let span = text.span();
                let range = source.text[span.clone()]
                    .find(placeholder)
                    .map_or(span.clone(), |i| {
                        span.start + i..span.start + i + placeholder.len()
                    });
                let known = REFUSAL_PLACEHOLDERS.contains(&placeholder);
                let expected = format!("expected {}", allowed.join(" "));
                let message = if known {
                    format!(
                        "refusal `{}`: `{placeholder}` is not filled in for this refusal: {expected}",
                        key.get_ref()
                    )
                } else {
                    format!(
                        "refusal `{}`: unknown placeholder `{placeholder}`: {expected}",
                        key.get_ref()
                    )
                };
                problems.push(
                    Problem::spanned(ProblemKind::BadValue, source, range, message)
                        .with_label(if known {
                            "would print empty"
                        } else {
                            "not a placeholder"
                        })
                        .with_help(crate::suggest::did_you_mean(
                            placeholder,
                            allowed.iter().copied(),
                        )),
                );
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
    source: &Source,
    problems: &mut Vec<Problem>,
) -> TableRules {
    let mut table = TableRules::default();
    let seconds = |v: i64| u32::try_from(v).ok().filter(|&s| s <= MAX_CLOCK);
    if let Some(c) = &raw.clock {
        match seconds(*c.get_ref()) {
            Some(0) => table.clock = None,
            Some(s) => table.clock = Some(s),
            None => problems.push(Problem::spanned(
                ProblemKind::BadValue,
                source,
                c.span(),
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
                _ => problems.push(Problem::spanned(
                    ProblemKind::BadValue,
                    source,
                    options.span(),
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
            _ => problems.push(Problem::spanned(
                ProblemKind::BadValue,
                source,
                n.span(),
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
            other => problems.push(Problem::spanned(
                ProblemKind::BadValue,
                source,
                t.span(),
                format!("timeout_move `{other}`: expected \"random\" or \"near\""),
            )),
        }
    }
    table
}
