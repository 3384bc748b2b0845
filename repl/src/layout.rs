//! Plain-text layout: prose wrapped into lines of a width, and finished
//! output fitted to the terminal's.

/// The columns `text` takes at a terminal: two for a CJK character or an
/// emoji, none for a combining mark.
pub(crate) fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// Wraps prose at `width` columns, never inside a code span (`` `help
/// play` ``) or a bracketed group (`[--time S]`) that fits a line.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in atoms(text, width) {
        if !line.is_empty() && columns(&line) + 1 + columns(&word) > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The words of `text`, those of a code span or a bracketed group joined
/// into one (where it fits `width`; else they go one by one).
pub(crate) fn atoms(text: &str, width: usize) -> Vec<String> {
    grouped(text.split_whitespace(), width)
}

/// `words`, those of a code span (`` `save <file>` ``) or a bracketed group
/// (`[easy|medium|hard]`) joined by single spaces into one where it fits
/// `width`; else, and where a span or group is never closed, one by one.
fn grouped<'a>(words: impl Iterator<Item = &'a str>, width: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut group: Vec<&str> = Vec::new();
    let (mut in_code, mut depth) = (false, 0isize);
    for word in words {
        group.push(word);
        in_code ^= word.matches('`').count() % 2 == 1;
        if !in_code {
            depth += word.matches('[').count() as isize - word.matches(']').count() as isize;
        }
        if !in_code && depth <= 0 {
            depth = 0;
            let joined = group.join(" ");
            if columns(&joined) <= width {
                out.push(joined);
            } else {
                out.extend(group.iter().map(|w| w.to_string()));
            }
            group.clear();
        }
    }
    out.extend(group.iter().map(|w| w.to_string()));
    out
}

/// The columns prose is laid out in on a terminal `width` wide: a column
/// short of the edge, as 78 of 80; at most 98, since wider prose is hard
/// to follow; at least 40, so that words do not stand alone.
pub(crate) fn prose_columns(width: usize) -> usize {
    width.min(100).saturating_sub(2).max(40)
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
        if columns(body) <= width || body.contains('\x1b') || quoted {
            out.push_str(line);
            continue;
        }
        // An indented line (a continuation) keeps its indent, and its own
        // continuations go two further in; a row of two columns (`classic
        // ␣␣ Classic tic-tac-toe…`) continues under its second column.
        let words = body.trim_start_matches(' ');
        let indent = body.len() - words.len();
        let hang = second_column(body)
            .filter(|&c| c <= width / 2)
            .unwrap_or(indent + 2);
        out.push_str(&body[..indent]);
        let rows = without_widow(
            filled(
                unbroken(words, width.saturating_sub(hang)),
                indent,
                hang,
                width,
            ),
            hang,
            width,
        );
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                out.push('\n');
                out.extend(std::iter::repeat_n(' ', hang));
            }
            out.push_str(&row.join(" "));
        }
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// `words` laid into rows greedily: the first starts at column `indent`,
/// the others at `hang`; none passes `width` unless one word alone does.
/// An empty word (two spaces in a row) never starts a row.
fn filled(words: Vec<String>, indent: usize, hang: usize, width: usize) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = vec![Vec::new()];
    let mut len = indent;
    for word in words {
        let w = columns(&word);
        let row = rows.last_mut().expect("one row at least");
        if !row.is_empty() && w > 0 && len + 1 + w > width {
            rows.push(vec![word]);
            len = hang + w;
        } else {
            len += w + usize::from(!row.is_empty());
            row.push(word);
        }
    }
    rows
}

/// `rows` with the last row's lone word joined by the one before it, where
/// the row above keeps two or more and the two fit: a title broken before
/// its last word (`… fly at` / `three`) reads as cut off.
fn without_widow(mut rows: Vec<Vec<String>>, hang: usize, width: usize) -> Vec<Vec<String>> {
    let n = rows.len();
    // Empty words (two spaces in a row) are no words here.
    let words = |row: &[String]| row.iter().filter(|w| !w.is_empty()).count();
    if n < 2 || rows[n - 1].len() != 1 || words(&rows[n - 2]) < 3 {
        return rows;
    }
    let moved = rows[n - 2].last().expect("three words").clone();
    let lone = &rows[n - 1][0];
    if hang + columns(&moved) + 1 + columns(lone) <= width && columns(&moved) > 0 {
        rows[n - 2].pop();
        rows[n - 1].insert(0, moved);
    }
    rows
}

/// The words of a line split at single spaces, those of a code span
/// (`` `save <file>` ``) or a bracketed group (`[easy|medium|hard]`)
/// joined into one where it fits `width`: a span is copied whole, so it is
/// never broken across lines.
fn unbroken(words: &str, width: usize) -> Vec<String> {
    let out = grouped(words.split(' '), width);
    // A round of moves (`12. g7 a1`) stays whole where it fits: a history
    // broken after `12.` reads as if the round had none, and one broken
    // inside a round as if its second move began the next.
    let mut kept: Vec<String> = Vec::with_capacity(out.len());
    let mut in_round = false;
    for word in out {
        let starts_round = is_move_number(&word);
        match kept.last_mut() {
            Some(last)
                if in_round && !starts_round && columns(last) + 1 + columns(&word) <= width =>
            {
                last.push(' ');
                last.push_str(&word);
            }
            _ => {
                in_round = starts_round;
                kept.push(word);
            }
        }
    }
    kept
}

/// Whether `word` numbers a round of moves: digits, then a dot.
fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Where the second column of a two-column row starts: the column after the
/// first run of two or more spaces past the line's indent (`new [rulebook]
/// ␣␣ a new game…`: the first column may hold several words).
fn second_column(line: &str) -> Option<usize> {
    let start = line.len() - line.trim_start_matches(' ').len();
    let gap = line[start..].find("  ")? + start;
    let rest = &line[gap..];
    let text = rest.trim_start_matches(' ');
    (!text.is_empty()).then(|| columns(&line[..line.len() - text.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code span moves to the next line whole (the warning before a
    /// game is replaced broke `save <file>` across two lines).
    #[test]
    fn a_code_span_is_never_broken_across_lines() {
        let line = "a game is in progress (3 moves, not saved): `new quixo` again replaces it; `save <file>` keeps it\n";
        assert_eq!(
            fit(line, 80),
            "a game is in progress (3 moves, not saved): `new quixo` again replaces it;\n  `save <file>` keeps it\n"
        );
        // So is a bracketed group (`usage: hint` / `[easy|medium|hard]`).
        assert_eq!(
            fit("error: usage: hint [easy|medium|hard]\n", 30),
            "error: usage:\n  hint [easy|medium|hard]\n"
        );
        // One longer than the line is broken at its spaces as before.
        assert_eq!(
            fit("see `a b c d` here\n", 6),
            "see `a\n  b c\n  d`\n  here\n"
        );
    }

    /// Wide characters take two columns each: a score line with a name of
    /// twenty CJK characters, 80 characters and 100 columns long, was left
    /// for the terminal to break, without the continuation's indent.
    #[test]
    fn lines_are_measured_in_the_columns_their_characters_take() {
        let name = "山田太郎".repeat(5);
        let line = format!("score: {name} (X) 1, computer (O, hard) 0 (1 game) — after 9 moves\n");
        assert_eq!(line.trim_end().chars().count(), 80);
        assert_eq!(columns(line.trim_end()), 100);
        let fitted = fit(&line, 80);
        assert!(fitted.lines().all(|l| columns(l) <= 80), "{fitted}");
        assert!(
            fitted.lines().nth(1).is_some_and(|l| l.starts_with("  ")),
            "{fitted}"
        );
        assert_eq!(columns("🎲Ana"), 5);
    }

    /// A two-column row wraps under its second column (issue 26, item 13:
    /// `variants` wrapped titles under the names); prose under its indent.
    #[test]
    fn rows_wrap_under_their_second_column_and_prose_under_its_indent() {
        let row =
            "gobblet-gobblers  Gobblet Gobblers: pieces of three sizes that gobble smaller ones\n";
        assert_eq!(
            fit(row, 60),
            "gobblet-gobblers  Gobblet Gobblers: pieces of three sizes\n                  that gobble smaller ones\n"
        );
        // `help`'s list: the first column holds a command and its words.
        let help =
            "  new [rulebook]           a new game: on a built-in rulebook or a .toml file,\n";
        assert_eq!(
            fit(help, 60),
            "  new [rulebook]           a new game: on a built-in\n                           rulebook or a .toml file,\n"
        );
        let prose = "error: b2: a mark goes on an empty cell, and this one holds X already\n";
        assert_eq!(
            fit(prose, 40),
            "error: b2: a mark goes on an empty cell,\n  and this one holds X already\n"
        );
    }

    /// A line's last word is not left alone on a row where the word
    /// before it can go down with it (a player saw nine men's morris's
    /// title end in `three` alone).
    #[test]
    fn the_last_word_does_not_stand_alone() {
        let title = "new game: nine-mens-morris — Nine men's morris: 24 points, mills remove, fly at three\n";
        assert_eq!(
            fit(title, 80),
            "new game: nine-mens-morris — Nine men's morris: 24 points, mills remove, fly\n  at three\n"
        );
        // A row above of two words keeps both; so does one that would
        // leave the pair too wide.
        assert_eq!(fit("aaaa bbbb cccc\n", 10), "aaaa bbbb\n  cccc\n");
        assert_eq!(fit("a b cccccc dddddd\n", 11), "a b cccccc\n  dddddd\n");
    }

    /// A history breaks before a move number, never after it (one broke
    /// between `9.` and `e5` at 80 columns), and not inside a round.
    #[test]
    fn a_move_number_stays_with_its_move() {
        let history = "1. b2 a1 2. c3 a3 3. a2\n";
        assert_eq!(fit(history, 12), "1. b2 a1\n  2. c3 a3\n  3. a2\n");
        // Set up with O to move: `1. …` and its move stay together too.
        assert_eq!(fit("1. … b2 2. c3 a1\n", 10), "1. … b2\n  2. c3 a1\n");
        // A round is not broken between its moves where it fits a line (a
        // player saw `17. g7` end one line and `a1 18. …` begin the next).
        assert_eq!(fit("1. b2 a1 2. c3 a3\n", 14), "1. b2 a1\n  2. c3 a3\n");
        // One too wide for a line is broken between its moves after all.
        assert_eq!(fit("1. bb22 aa11\n", 10), "1. bb22\n  aa11\n");
    }
}

#[cfg(test)]
mod wrap_tests {
    use super::wrap;

    /// A code span or a bracketed group is not broken across lines where
    /// it fits one (the `help` tour found `(see `help` / `play`)` and
    /// `[--playouts N|--time` / `S]`).
    #[test]
    fn code_spans_and_groups_stay_whole() {
        let lines = wrap("play a move; a bare move works too (see `help play`)", 44);
        assert_eq!(
            lines,
            ["play a move; a bare move works too (see", "`help play`)"]
        );
        let lines = wrap("arena [games] [--seed N] [--playouts N|--time S]", 40);
        assert_eq!(
            lines,
            ["arena [games] [--seed N]", "[--playouts N|--time S]"]
        );
        // Longer than a line: broken between its words after all, and
        // what follows the span is prose again.
        let lines = wrap("`a b c d e f` g h i j k l", 5);
        assert_eq!(lines, ["`a b", "c d e", "f` g", "h i j", "k l"]);
    }
}
