//! `help`, written from the registry: there is no other list of commands.

use super::entry::{CommandSpec, ParseError};
use super::registry::{COMMANDS, spec};
use crate::layout::{prose_columns, wrap};

/// The command `help <topic>` is about; `None` for the list.
///
/// # Errors
/// `topic` names no command.
pub fn topic(topic: Option<&str>) -> Result<Option<&'static CommandSpec>, ParseError> {
    topic
        .map(|t| spec(&t.to_lowercase()).ok_or_else(|| super::line::unknown(t)))
        .transpose()
}

/// What `help` prints: every command with its usage and summary, or one
/// command's page (usage, aliases, what surprises, an example), laid out
/// for a terminal `width` columns wide (see `layout::prose_columns`).
pub fn help(topic: Option<&CommandSpec>, width: usize) -> Vec<String> {
    let width = prose_columns(width);
    let Some(c) = topic else {
        // Two columns: the usage, then the summary wrapped beside it (a
        // usage too wide for the column gets a line of its own). On a
        // terminal narrower than 72 the summaries would be a few words a
        // line: each goes under its usage instead.
        const COLUMN: usize = 24;
        let column = if width >= 70 { COLUMN } else { 4 };
        let mut lines = wrap(
            "commands (a bare move such as `b2` or `b2-c2` plays it):",
            width,
        );
        for c in COMMANDS {
            let usage = c.usage();
            let mut summary = wrap(c.summary, width - column - 3).into_iter();
            if usage.chars().count() >= column {
                for (i, part) in wrap(&usage, width - 4).into_iter().enumerate() {
                    lines.push(format!("{:1$}{part}", "", if i == 0 { 2 } else { 4 }));
                }
            } else {
                let first = summary.next().unwrap_or_default();
                lines.push(format!("  {usage:<column$} {first}"));
            }
            lines.extend(summary.map(|part| format!("  {:column$} {part}", "")));
        }
        lines.extend(wrap(
            "`help <command>` shows an example; `#` starts a comment. An ID in parentheses, like (G5), is a rule's number in docs/rules.md.",
            width,
        ));
        return lines;
    };
    // The summary's pointer to this very page is left out here.
    let summary = c.summary.split(" (see `help").next().unwrap_or(c.summary);
    let mut lines = wrap(&format!("{} — {summary}", c.usage()), width);
    if !c.aliases.is_empty() {
        lines.push(format!("also: {}", c.aliases.join(", ")));
    }
    // A long page comes in paragraphs, a blank line between (and before
    // its example).
    let paragraphs: Vec<&str> = c.more.split("\n\n").collect();
    for (i, paragraph) in paragraphs.iter().enumerate() {
        if i > 0 {
            lines.push(String::new());
        }
        lines.extend(wrap(paragraph, width));
    }
    if paragraphs.len() > 1 {
        lines.push(String::new());
    }
    // An example is a line to copy: whole, under its label if need be.
    let example = format!("example: {}", c.example);
    if example.chars().count() <= width {
        lines.push(example);
    } else {
        lines.extend(["example:".to_string(), format!("  {}", c.example)]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every rule ID that `help` names, like (G5), is a rule of
    /// docs/rules.md, and the list says where to find them: a player
    /// met them unexplained.
    #[test]
    fn rule_ids_in_help_are_explained() {
        let rules = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md"),
        )
        .unwrap();
        let list = help(None, 200).join("\n");
        assert!(list.contains("docs/rules.md"), "{list}");
        let mut pages = list.clone();
        for c in COMMANDS {
            pages.push_str(&help(Some(c), 200).join("\n"));
        }
        let mut named = 0;
        for (i, _) in pages.match_indices('(') {
            let id: String = pages[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let is_id = id.len() >= 2
                && id.starts_with(|c: char| c.is_ascii_uppercase())
                && id.ends_with(|c: char| c.is_ascii_digit())
                && pages[i + 1 + id.len()..].starts_with(')');
            if is_id {
                named += 1;
                assert!(
                    rules.contains(&format!("\n- {id} ")),
                    "({id}) is not in docs/rules.md"
                );
            }
        }
        assert!(named >= 2, "help names rule IDs such as (G5) and (PI1)");
    }

    /// At any width, every line of `help` and of every command's page fits,
    /// and prose is filled: no line could have taken the next line's first
    /// word (issue 26, item 12: pages were broken by hand for 80 columns).
    #[test]
    fn help_is_laid_out_for_the_width() {
        for width in [40, 60, 80, 120, 200] {
            let fits = |lines: &[String]| {
                for l in lines {
                    assert!(l.chars().count() <= width, "{width}: {l:?}");
                }
            };
            fits(&help(None, width));
            for c in COMMANDS {
                let page = help(Some(c), width);
                fits(&page);
                let first = c.more.split("\n\n").next().unwrap_or_default();
                let prose: Vec<&String> = page
                    .iter()
                    .skip_while(|l| !wrap(first, prose_columns(width)).contains(l))
                    .take_while(|l| !l.starts_with("example:"))
                    .collect();
                // Within a paragraph: a blank line ends one.
                for pair in prose
                    .windows(2)
                    .filter(|p| !p[0].is_empty() && !p[1].is_empty())
                {
                    // What could have moved up: a word, or a whole code span.
                    let next = crate::layout::atoms(pair[1], prose_columns(width))
                        .into_iter()
                        .next()
                        .unwrap_or_default();
                    assert!(
                        pair[0].chars().count() + 1 + next.chars().count() > prose_columns(width),
                        "{width} {}: {pair:?}",
                        c.name
                    );
                }
            }
        }
    }
}
