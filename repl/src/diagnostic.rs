//! Diagnostics: a problem in a rulebook, a script or a record, drawn as
//! compilers draw theirs — the `error:` (or `warning:`) line with
//! `path:line:col`, the source lines with carets, and a `help:`.

use crate::edge;
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet as AnnotSnippet};
use gridrules_core::{Problem, RulebookError, ScriptError, Snippet};

/// A rulebook that did not load, every problem drawn (finished plain text).
pub fn rulebook_error(e: &RulebookError) -> String {
    edge::finish(&rulebook_error_text(e), false)
}

/// [`rulebook_error`] as composed text.
pub(crate) fn rulebook_error_text(e: &RulebookError) -> String {
    e.problems
        .iter()
        .map(|p| problem(Level::ERROR, p))
        .collect()
}

/// A hook that failed, drawn at the script line where it stopped (finished
/// plain text).
pub fn script_error(e: &ScriptError) -> String {
    edge::finish(&problem(Level::ERROR, &e.to_problem()), false)
}

/// A warning about a rulebook that loads (a function one slip from a
/// hook), as finished plain text.
pub fn warning(p: &Problem) -> String {
    edge::finish(&warning_text(p), false)
}

/// [`warning`] as composed text, its lines ending in [`edge::line_end`].
pub(crate) fn warning_text(p: &Problem) -> String {
    problem(Level::WARNING, p)
}

/// [`warning`] as one entry of a reply's lines: composed text without its
/// last line end (the reply adds it).
pub(crate) fn warning_entry(p: &Problem) -> String {
    let text = warning_text(p);
    match text.strip_suffix(edge::line_end()) {
        Some(entry) => entry.to_string(),
        None => text,
    }
}

/// One problem at error level, as composed text: see [`problem`].
pub(crate) fn error_text(p: &Problem) -> String {
    problem(Level::ERROR, p)
}

/// [`error_text`], its first line after `context` (the move a hook refused).
pub(crate) fn error_text_after(context: &str, p: &Problem) -> String {
    problem_after(Level::ERROR, context, p)
}

/// One problem: `level: path:line:col: message`, then its source lines
/// with carets under the offending token, and its `help:`.
fn problem(level: Level<'_>, p: &Problem) -> String {
    problem_after(level, "", p)
}

/// [`problem`], its first line after `context` (the move a hook refused).
fn problem_after(level: Level<'_>, context: &str, p: &Problem) -> String {
    let message = crate::edge::short_quotes(&p.message);
    let title = match &p.location {
        Some(loc) => format!("{context}{loc}: {message}"),
        None => format!("{context}{message}"),
    };
    diagnostic(level, &title, p.snippet.as_deref(), p.help.as_deref())
}

/// The one place diagnostics are drawn. The title keeps `path:line:col` on
/// the first line, as compilers print it, so editors and `grep` find it;
/// annotate-snippets draws the rest. Plain text: the same in a terminal, a
/// log and a snapshot.
///
/// The renderer's own line breaks become gridrules' ([`edge::line_end`]);
/// so a line break in the title, a label or the help (a thrown message, a
/// refusal) is handed to it as [`edge::content_break`], and shows as any
/// line break in content does. The source lines are drawn by the renderer
/// each after its gutter (`12 | `), their control characters as symbols.
fn diagnostic(
    level: Level<'_>,
    title: &str,
    snippet: Option<&Snippet>,
    help: Option<&str>,
) -> String {
    let content = |text: &str| text.replace('\n', edge::content_break());
    let title = content(title);
    let help = help.map(content);
    let help = help.as_deref();
    let labels: Vec<String> = snippet
        .iter()
        .flat_map(|s| s.label.iter().chain(s.context.iter().map(|(_, l)| l)))
        .map(|l| content(l))
        .collect();
    let mut labels = labels.iter();
    let mut group = Group::with_title(level.primary_title(&title));
    if let Some(s) = snippet {
        let range = clamp(&s.source.text, s.range.clone());
        let mut primary = AnnotationKind::Primary.span(range);
        if s.label.is_some()
            && let Some(label) = labels.next()
        {
            primary = primary.label(label.as_str());
        }
        let mut shown = AnnotSnippet::source(&*s.source.text)
            .fold(true)
            .annotation(primary);
        for ((range, _), label) in s.context.iter().zip(labels) {
            shown = shown.annotation(
                AnnotationKind::Context
                    .span(clamp(&s.source.text, range.clone()))
                    .label(label.as_str()),
            );
        }
        group = group.element(shown);
    }
    // With no source lines to hang it under, the help is a line of its own.
    let mut tail = String::new();
    match (help, snippet) {
        (Some(help), Some(_)) => group = group.element(Level::HELP.message(help)),
        (Some(help), None) => tail = format!("\nhelp: {help}"),
        (None, _) => {}
    }
    let text = format!(
        "{}{tail}",
        Renderer::plain()
            .term_width(EXCERPT_COLUMNS)
            .render(&[group])
    );
    let mut out = text.trim_end().replace('\n', edge::line_end());
    out.push_str(edge::line_end());
    out
}

/// The columns a quoted source line may take with its gutter: a longer
/// one (a record's moves) is cut to the part around its carets, as
/// compilers cut theirs, rather than left for the terminal to wrap into
/// what reads as more lines of the file.
const EXCERPT_COLUMNS: usize = 80;

/// `range` within `text` and on character boundaries, so a stale or odd
/// range draws something rather than panicking; and at most a half line
/// long, so that the line can be cut around it (a 400-character word
/// under its carets was quoted whole).
fn clamp(text: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(range.start);
    let end = fix(range.end).max(start);
    let mut columns = 0;
    let most = text[start..end]
        .char_indices()
        .find(|&(_, c)| {
            columns += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            columns > EXCERPT_COLUMNS / 2
        })
        .map_or(end, |(i, _)| start + i);
    start..most
}
