//! Commands for rulebook authors: `new-variant` writes a new variant's files.

use super::{CommandError, Reply};
use crate::scaffold::{self, ScaffoldError};
use std::path::Path;

pub(crate) fn new_variant(
    name: &str,
    from: Option<&str>,
    dir: Option<&str>,
) -> Result<Reply, CommandError> {
    let written =
        scaffold::new_variant(name, from, Path::new(dir.unwrap_or(""))).map_err(|e| match e {
            // A source that does not load is shown as any rulebook error is,
            // with its file, line and column.
            ScaffoldError::From(e) => CommandError::Rulebook(e),
            e => CommandError::Other(e.to_string()),
        })?;
    let shown: Vec<String> = written
        .files
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut lines = vec![format!("new-variant: wrote {}", shown.join(", "))];
    let r = &written.rulebook;
    for w in r.script().warnings() {
        lines.push(format!("warning: {w}"));
    }
    super::tools::checked_lines(r, &written.checked, &mut lines);
    lines.push(format!(
        "next: edit them, `gridrules check {0}` after each change; play with `gridrules --rules {0}`; replay the transcript with `gridrules --batch < {1}`",
        shown[0], shown[2]
    ));
    Ok(Reply::Lines(lines))
}
