//! The output edge: where composed text becomes what is written to a
//! terminal, a pipe or a log. Nothing else decides what reaches them.
//!
//! Text is composed (by `render`, `batch`, the editor) from two kinds of
//! parts: gridrules' own words, and text from outside — a rulebook's title,
//! description, roles, region names, refusals and examples, what its script
//! prints, returns or throws, the names and fields of a record, a player's
//! name, a file's name, a line as typed. Outside text may hold anything:
//! escape sequences that colour, hide or retitle, bidi controls that
//! reorder what follows, line breaks followed by a line of the batch
//! contract (`result: O wins — a1 b1 c1`).
//!
//! **The design.** Only two things in the output need gridrules' authority:
//! where its own lines end, and its own colours. Both travel through the
//! composed text as *marks*: a key of four private-use characters, drawn at
//! random for each process (64 bits from the standard library's
//! `RandomState`), then one character naming what is marked ([`line_end`],
//! [`paint`]). [`finish`] is the one place they become `\n` and `ESC [ … m`
//! — the colours only when the output is a colour terminal
//! ([`crate::render::Style::interactive`]). Everything else in the text is
//! content, and content is never trusted: every control character (C0, DEL,
//! C1, so every escape sequence, colours included) and every bidi or
//! invisible format character is shown as an escape (`\u{1b}`, `\u{202e}`),
//! and a line break in content continues the line it is in, indented two
//! spaces, so it cannot start a line of its own.
//!
//! Why marks rather than cleaning each text where it is put in, or a typed
//! tree of trusted and untrusted spans: the texts from outside reach the
//! output through dozens of places (every `format!` with a title, a name, an
//! error's message), and a new one is added with every feature; a place
//! forgotten would be a hole. With marks nothing needs remembering: outside
//! text cannot hold the key (it never leaves the process, and is new for
//! each), so it cannot end a line or set a colour, wherever it is put. The
//! failure modes are safe and visible: a line break written as a plain
//! `\n` by gridrules itself shows as an indented continuation, a colour
//! written as a raw escape shows escaped, and tests see both. A typed tree
//! would give the same guarantee only if every `format!` were replaced by
//! span-building, with the same risk at each that a title is pushed as
//! trusted; the marks keep `String` and `format!` everywhere.
//!
//! What marks cannot say is where outside text begins inside a line: so
//! gridrules never starts a line with it. Lines a script prints, and a
//! description wrapped into lines, are indented as continuations are.

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// gridrules' own styles, drawn only on a colour terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    /// Back to plain text.
    Reset,
    /// X's marks: bold red.
    X,
    /// O's marks: bold blue.
    O,
    /// Cells no move may go to now.
    Dim,
    /// The last move.
    Reverse,
    /// The winning line, with [`Paint::Underline`].
    Bold,
    /// The winning line.
    Underline,
}

/// Every escape sequence gridrules itself writes (on a colour terminal):
/// what a check of its output may find, and nothing else.
pub fn own_escapes() -> [&'static str; 7] {
    Paint::ALL.map(Paint::sgr)
}

impl Paint {
    const ALL: [Paint; 7] = [
        Paint::Reset,
        Paint::X,
        Paint::O,
        Paint::Dim,
        Paint::Reverse,
        Paint::Bold,
        Paint::Underline,
    ];

    /// The SGR sequence that draws it.
    pub fn sgr(self) -> &'static str {
        match self {
            Paint::Reset => "\x1b[0m",
            Paint::X => "\x1b[1;31m",
            Paint::O => "\x1b[1;34m",
            Paint::Dim => "\x1b[2m",
            Paint::Reverse => "\x1b[7m",
            Paint::Bold => "\x1b[1m",
            Paint::Underline => "\x1b[4m",
        }
    }
}

/// What a mark says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// The end of one of gridrules' own lines.
    Line,
    /// A line break inside content, kept from a layout engine that would
    /// otherwise take it for one of its own (see `render::diagnostic`).
    Continue,
    /// One of gridrules' own styles.
    Paint(Paint),
}

/// The first character naming a mark's [`Op`]: one of the last plane's
/// private-use characters, after the key.
const OP_BASE: u32 = 0x10_0000;

impl Op {
    fn index(self) -> u32 {
        match self {
            Op::Line => 0,
            Op::Continue => 1,
            Op::Paint(p) => 2 + Paint::ALL.iter().position(|&q| q == p).unwrap_or(0) as u32,
        }
    }

    fn from_char(c: char) -> Option<Op> {
        match (c as u32).checked_sub(OP_BASE)? {
            0 => Some(Op::Line),
            1 => Some(Op::Continue),
            n => Paint::ALL.get(n as usize - 2).map(|&p| Op::Paint(p)),
        }
    }
}

/// The process's key and its marks, made once.
struct Marks {
    key: String,
    line: String,
    cont: String,
    paints: [String; Paint::ALL.len()],
}

fn marks() -> &'static Marks {
    static MARKS: OnceLock<Marks> = OnceLock::new();
    MARKS.get_or_init(|| {
        // The standard library seeds each `RandomState` from the system's
        // random source: 64 bits no file, script or record can know.
        let random = std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish();
        // Four characters of plane 15's private use area, 16 bits each
        // (U+FFFFE and U+FFFFF, not characters, are avoided).
        let key: String = (0..4)
            .map(|i| {
                let part = (random >> (16 * i)) as u32 & 0xffff;
                char::from_u32(0xF_0000 + part % 0xFFFE).unwrap_or('\u{F0000}')
            })
            .collect();
        let mark = |op: Op| {
            let mut m = key.clone();
            m.push(char::from_u32(OP_BASE + op.index()).unwrap_or('\u{100000}'));
            m
        };
        Marks {
            line: mark(Op::Line),
            cont: mark(Op::Continue),
            paints: Paint::ALL.map(|p| mark(Op::Paint(p))),
            key,
        }
    })
}

/// The end of one of gridrules' own lines, in composed text. A plain `\n`
/// there is content: it continues the line, indented.
pub fn line_end() -> &'static str {
    &marks().line
}

/// A line break that belongs to content, for text handed to a layout
/// engine whose own line breaks are then taken as gridrules' (the
/// diagnostics): it shows as a plain `\n` in content does.
pub(crate) fn content_break() -> &'static str {
    &marks().cont
}

/// One of gridrules' own styles, in composed text: an SGR sequence on a
/// colour terminal, nothing elsewhere.
pub fn paint(p: Paint) -> &'static str {
    &marks().paints[Paint::ALL.iter().position(|&q| q == p).unwrap_or(0)]
}

/// `text` drawn in style `p`, then plain again.
pub fn painted(p: Paint, text: &str) -> String {
    format!("{}{text}{}", paint(p), paint(Paint::Reset))
}

/// `writeln!` for composed text: the line ends with gridrules' own line
/// end ([`line_end`]), not a `\n` (which would be content, and continue the
/// line). The caller brings `std::fmt::Write` into scope.
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        write!($out, $($arg)*).expect("writing to a String cannot fail");
        $out.push_str($crate::edge::line_end());
    }};
}
pub(crate) use outln;

/// How a content line break continues its line: indented, so that no text
/// from outside starts a line.
pub const CONTINUATION: &str = "  ";

/// Whether content character `c` is shown as an escape: every control
/// character but newline and tab (C0, DEL, C1: so every escape sequence),
/// and the format characters that reorder text or hide it — the bidi
/// embeddings, overrides, isolates and marks (U+202A–U+202E,
/// U+2066–U+2069, U+200E, U+200F, U+061C), the line and paragraph
/// separators, and the rest of Unicode's `Cf` (zero-width space, word
/// joiner, invisible operators, byte order mark, interlinear annotation,
/// tags, …) but for the zero-width joiner and non-joiner, which emoji and
/// several scripts need and which cannot reorder or hide anything.
pub fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{00AD}'
                | '\u{0600}'..='\u{0605}'
                | '\u{061C}'
                | '\u{06DD}'
                | '\u{070F}'
                | '\u{0890}'..='\u{0891}'
                | '\u{08E2}'
                | '\u{180E}'
                | '\u{200B}'
                | '\u{200E}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{110CD}'
                | '\u{13430}'..='\u{1343F}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
        )
}

/// Where the text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum To {
    /// Lines: a colour terminal (`true`) or anything else.
    Lines { color: bool },
    /// One line, such as the prompt: line breaks and tabs escaped too, no colour.
    Line,
}

fn finish_to(text: &str, to: To) -> String {
    let marks = marks();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let key_start = marks.key.chars().next();
    while let Some(c) = rest.chars().next() {
        if Some(c) == key_start
            && let Some(after) = rest.strip_prefix(marks.key.as_str())
            && let Some(op_char) = after.chars().next()
            && let Some(op) = Op::from_char(op_char)
        {
            match (op, to) {
                (Op::Line, To::Lines { .. }) => out.push('\n'),
                (Op::Continue, To::Lines { .. }) => {
                    out.push('\n');
                    out.push_str(CONTINUATION);
                }
                (Op::Line | Op::Continue, To::Line) => out.extend('\n'.escape_unicode()),
                (Op::Paint(p), To::Lines { color: true }) => out.push_str(p.sgr()),
                (Op::Paint(_), _) => {}
            }
            rest = &after[op_char.len_utf8()..];
            continue;
        }
        match (c, to) {
            ('\n', To::Lines { .. }) => {
                out.push('\n');
                out.push_str(CONTINUATION);
            }
            ('\t', To::Lines { .. }) => out.push('\t'),
            ('\n' | '\t', To::Line) => out.extend(c.escape_unicode()),
            (c, _) if hidden(c) => out.extend(c.escape_unicode()),
            (c, _) => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Composed `text` as it is written: gridrules' line ends as `\n`, its
/// styles as SGR sequences if `color` (a colour terminal) else nothing;
/// in content, every [`hidden`] character shown as an escape (`\u{1b}`),
/// and every line break followed by [`CONTINUATION`].
pub fn finish(text: &str, color: bool) -> String {
    finish_to(text, To::Lines { color })
}

/// Composed `text` as one line (a prompt): as [`finish`] without colour,
/// and line breaks and tabs shown as escapes too.
pub fn finish_line(text: &str) -> String {
    finish_to(text, To::Line)
}

/// Whether `text` is shown as it is by [`finish_line`]: no mark, no
/// character shown as an escape.
pub fn plain(text: &str) -> bool {
    finish_line(text) == text
}

/// Quoted text (between backquotes) longer than [`QUOTE_LIMIT`]
/// characters shortened to its start and its length: an error that quotes
/// a pasted line of 6 000 characters would fill the screen with it.
pub(crate) fn short_quotes(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let last = parts.len() - 1;
    let mut out = String::with_capacity(text.len().min(4 * QUOTE_LIMIT));
    let mut note = None;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('`');
        }
        if let Some(n) = note.take() {
            out.push_str(&format!(" ({n} characters)"));
        }
        let n = part.chars().count();
        // Odd parts are quoted, where a quote closes them.
        if i % 2 == 1 && i < last && n > QUOTE_LIMIT {
            out.extend(part.chars().take(QUOTE_LIMIT / 2));
            out.push('…');
            note = Some(n);
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The longest quote [`short_quotes`] leaves whole.
const QUOTE_LIMIT: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a closed quote over the limit is shortened, by characters (a
    /// CJK name is not cut inside a character); the rest is untouched.
    #[test]
    fn long_quotes_are_shortened_to_their_start_and_length() {
        assert_eq!(short_quotes("`b2` is taken"), "`b2` is taken");
        let long = "山".repeat(65);
        assert_eq!(
            short_quotes(&format!("no `{long}` here, `a1` is")),
            format!("no `{}…` (65 characters) here, `a1` is", "山".repeat(32))
        );
        let open = format!("an `{long}");
        assert_eq!(short_quotes(&open), open, "no closing quote: not a quote");
    }

    #[test]
    fn marks_become_line_ends_and_colours_only_at_the_edge() {
        let text = format!(
            "a {}X{}{}b",
            paint(Paint::X),
            paint(Paint::Reset),
            line_end()
        );
        assert_eq!(finish(&text, true), "a \x1b[1;31mX\x1b[0m\nb");
        assert_eq!(finish(&text, false), "a X\nb");
        assert_eq!(finish_line(&text), "a X\\u{a}b");
    }

    #[test]
    fn content_cannot_style_hide_reorder_or_start_a_line() {
        let text = "t \x1b[31mred\u{202e}\u{200d}\r\nresult: X wins\u{85}";
        assert_eq!(
            finish(text, true),
            "t \\u{1b}[31mred\\u{202e}\u{200d}\\u{d}\n  result: X wins\\u{85}"
        );
        assert_eq!(finish(&format!("a{}b", content_break()), false), "a\n  b");
    }

    #[test]
    fn a_mark_without_its_key_is_content() {
        // The key's characters, or an op character, alone are printable
        // private-use characters: shown as they are, never as a mark.
        let key = &marks().key;
        let op = char::from_u32(OP_BASE).unwrap();
        let text = format!("{key}x{op}{}", &key[..key.len() - 4]);
        assert_eq!(finish(&text, true), text);
    }
}
