//! `check`: a rulebook's documented examples, run and reported.

use super::{Session, open_rulebook};
use crate::diagnostic::warning_entry;
use crate::error::CommandError;
use crate::reply::Reply;
use gridrules_core::Rulebook;
use std::sync::Arc;

impl Session {
    /// Runs the documented examples of one rulebook, or of every built-in.
    pub(super) fn check(&self, name: Option<&str>) -> Result<Reply, CommandError> {
        let rulebooks = match name {
            None => vec![self.rulebook().clone()],
            Some("all") => Rulebook::builtin_names()
                .map(|n| Rulebook::builtin(n).map(Arc::new))
                .collect::<Result<Vec<_>, _>>()?,
            Some(n) => vec![Arc::new(open_rulebook(n)?)],
        };
        let mut lines = Vec::new();
        let (mut total, mut failed) = (0, 0);
        for r in &rulebooks {
            for w in r.warnings() {
                lines.push(warning_entry(w));
            }
            let results = gridrules_core::check::run(r);
            // Ctrl-C stops the examples' hooks: what they then say is no
            // verdict on the rulebook.
            if self.interrupt.is_raised() {
                return Err(CommandError::CheckStopped);
            }
            total += results.len();
            failed += checked_lines(r, &results, &mut lines);
        }
        if rulebooks.len() > 1 {
            lines.push(format!(
                "check: {total} examples, {} passed, {failed} failed",
                total - failed
            ));
        }
        if failed > 0 {
            return Err(CommandError::Check(lines, failed));
        }
        Ok(Reply::Lines(lines))
    }
}

/// A line per example of `r` that ran, and the summary line; returns how
/// many failed.
pub(super) fn checked_lines(
    r: &Rulebook,
    results: &[gridrules_core::check::Checked],
    lines: &mut Vec<String>,
) -> usize {
    let bad = results.iter().filter(|c| c.failure.is_some()).count();
    for c in results {
        let e = &c.example;
        match &c.failure {
            None => lines.push(format!("pass {:<4} {}: {}", e.rule, r.name(), e.text)),
            Some(why) => lines.push(format!(
                "FAIL {:<4} {}: {} — {why} ({})",
                e.rule,
                r.name(),
                e.text,
                e.location
            )),
        }
    }
    let n = results.len();
    lines.push(format!(
        "check {}: {n} example{}, {} passed, {bad} failed",
        r.name(),
        if n == 1 { "" } else { "s" },
        n - bad
    ));
    bad
}
