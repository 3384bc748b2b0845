//! Plain-text layout: prose wrapped into lines of a width, and finished
//! output fitted to the terminal's.

/// Wraps prose at `width` columns.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Finished `text` (see [`crate::edge::finish`]) with every line longer than
/// `width` wrapped at spaces, so a list of moves breaks between moves, never
/// inside one; continuation lines are indented two spaces more than the
/// line. Boards (drawn in colour) and source lines quoted under an error
/// (`12 | …`) are left as they are.
pub fn fit(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        let quoted = body
            .trim_start()
            .split_once(" | ")
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()));
        if body.chars().count() <= width || body.contains('\x1b') || quoted {
            out.push_str(line);
            continue;
        }
        // An indented line (a continuation) keeps its indent, and its own
        // continuations go two further in.
        let words = body.trim_start_matches(' ');
        let indent = body.len() - words.len();
        out.push_str(&body[..indent]);
        let mut len = indent;
        for (i, word) in words.split(' ').enumerate() {
            let w = word.chars().count();
            if i > 0 && len + 1 + w > width {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', indent + 2));
                len = indent + 2;
            } else if i > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += w;
        }
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}
