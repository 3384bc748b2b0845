//! `help`, written from the registry: there is no other list of commands.

use super::entry::ParseError;
use super::registry::{COMMANDS, spec};
use crate::layout::wrap;

/// What `help` prints: every command with its usage and summary, or one
/// command's page (usage, aliases, what surprises, an example).
///
/// # Errors
/// `topic` names no command.
pub fn help(topic: Option<&str>) -> Result<Vec<String>, ParseError> {
    let Some(topic) = topic else {
        // Two columns within 80: the usage, then the summary wrapped beside
        // it (a usage too wide for the column gets a line of its own).
        const COLUMN: usize = 24;
        let mut lines =
            vec!["commands (a bare move such as `b2` or `b2-c2` plays it):".to_string()];
        for c in COMMANDS {
            let usage = c.usage();
            let mut summary = wrap(c.summary, 78 - COLUMN - 1).into_iter();
            if usage.chars().count() > COLUMN {
                lines.push(format!("  {usage}"));
            } else {
                let first = summary.next().unwrap_or_default();
                lines.push(format!("  {usage:<COLUMN$} {first}"));
            }
            lines.extend(summary.map(|part| format!("  {:COLUMN$} {part}", "")));
        }
        lines.push("`help <command>` shows an example; `#` starts a comment.".into());
        return Ok(lines);
    };
    let Some(c) = spec(topic) else {
        return Err(ParseError::Unknown(topic.to_string()));
    };
    // The summary's pointer to this very page is left out here.
    let summary = c.summary.split(" (see `help").next().unwrap_or(c.summary);
    let mut lines = wrap(&format!("{} — {summary}", c.usage()), 78);
    if !c.aliases.is_empty() {
        lines.push(format!("also: {}", c.aliases.join(", ")));
    }
    lines.extend(c.more.iter().map(|l| l.to_string()));
    lines.push(format!("example: {}", c.example));
    Ok(lines)
}
