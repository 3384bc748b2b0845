//! All text meant for people: boards, replies and error diagnostics.
//!
//! What is built here is composed text (see [`crate::edge`]): gridrules'
//! own lines end with [`edge::line_end`] (written with `outln!`), its
//! colours are [`edge::paint`] marks, and everything else — titles, names,
//! refusals — is content, made safe by [`edge::finish`] where the text
//! leaves the program. The public functions that return text ready to
//! print say so.

use crate::edge::{self, Paint};
use crate::session::{By, CommandError, Played, Reply, Session, clock_line};
use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet as AnnotSnippet};
use gridrules_core::game::result_line;
use gridrules_core::rulebook::Marks;
use gridrules_core::{
    Cell, PlayError, Position, Problem, Rulebook, RulebookError, ScriptError, Side, Snippet,
};
use std::fmt::Write as _;

/// How replies are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    /// Draw the board after every move (the REPL), or print only the
    /// contract's lines (batch mode).
    pub boards: bool,
    /// ANSI colour: only on a terminal, and never with `NO_COLOR` set.
    pub color: bool,
    /// Wrap long lines to this many columns (the REPL); batch mode keeps
    /// each reply on its line, as its contract says.
    pub width: Option<usize>,
}

impl Style {
    /// Batch mode: plain, no boards.
    pub const BATCH: Style = Style {
        boards: false,
        color: false,
        width: None,
    };

    /// The REPL's style; colour when stdout is a terminal and `NO_COLOR` is unset.
    pub fn interactive() -> Style {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            boards: true,
            color: !no_color && std::io::stdout().is_terminal(),
            width: Some(80),
        }
    }
}

/// `writeln!` for composed text: the line ends with gridrules' own line
/// end, not a `\n` (which would be content, and continue the line).
macro_rules! outln {
    ($out:expr, $($arg:tt)*) => {{
        write!($out, $($arg)*).expect("writing to a String cannot fail");
        $out.push_str(edge::line_end());
    }};
}

/// Finished `text` (see [`edge::finish`]) with every line longer than
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

/// The line for a move the computer or the clock made (a person's own move prints nothing).
fn played_line(p: &Played) -> Option<String> {
    match p.by {
        By::Person => None,
        By::Computer => Some(format!("{} plays {}", p.side, p.mv)),
        By::Clock => Some(format!("time ran out: {} plays {}", p.side, p.mv)),
    }
}

/// Moves made, then the result line if one of them ended the game
/// (composed text).
pub(crate) fn played(moves: &[Played]) -> String {
    played_with(moves, true)
}

/// [`played`]; `results: false` leaves out the result line, for a reply
/// whose board ends with it.
fn played_with(moves: &[Played], results: bool) -> String {
    let mut out = String::new();
    for p in moves {
        if let Some(line) = played_line(p) {
            outln!(out, "{line}");
        }
        if let Some(note) = &p.note {
            outln!(out, "{note}");
        }
        if let Some(e) = p.ending.filter(|_| results) {
            let line = p.result.clone().unwrap_or_else(|| result_line(e));
            outln!(out, "{line}");
        }
    }
    out
}

/// The text of a reply (may be empty), each line ending in
/// [`edge::line_end`] (composed text).
pub(crate) fn reply(reply: &Reply, session: &Session, style: Style) -> String {
    let mut out = String::new();
    let board_now = |out: &mut String| {
        if style.boards {
            out.push_str(&board_text(session));
        }
    };
    match reply {
        Reply::Nothing | Reply::Quit => {}
        Reply::Lines(lines) => {
            for l in lines {
                outln!(out, "{l}");
            }
        }
        Reply::Board => out.push_str(&board_text(session)),
        Reply::Played(lines, moves) => {
            for l in lines {
                outln!(out, "{l}");
            }
            // The board ends with the result: say it once.
            out.push_str(&played_with(moves, !style.boards));
            board_now(&mut out);
        }
        Reply::NewGame(moves) => {
            let r = session.rulebook();
            outln!(out, "new game: {} — {}", r.name(), r.title());
            // Shown with every new game until the author fixes them, as a
            // compiler repeats its warnings.
            for w in r.warnings() {
                out.push_str(&warning_text(w));
            }
            let seats = session.seats();
            outln!(
                out,
                "X: {}, O: {}; {}",
                seats.name(Side::X),
                seats.name(Side::O),
                clock_line(session.clock_limit())
            );
            out.push_str(&played(moves));
            if style.boards {
                out.push_str(&board_text(session));
            } else if session.game().is_over() && moves.iter().all(|p| p.ending.is_none()) {
                outln!(out, "{}", session.game().status_line());
            }
        }
        Reply::Undone(moves) => {
            outln!(out, "undone: {}", moves.join(", "));
            board_now(&mut out);
        }
        Reply::Bench {
            rulebook,
            per_move_hooks,
            rounds,
            stopped,
        } => {
            let speed =
                |r: &gridrules_core::playout::BenchResult| r.playouts_per_second().round() as u64;
            let (games, plies, secs) = rounds.iter().fold((0, 0, 0.0), |(g, p, s), r| {
                (g + r.playouts, p + r.plies, s + r.elapsed.as_secs_f64())
            });
            let median = &rounds[rounds.len() / 2];
            outln!(
                out,
                "bench {rulebook}: {games} random games in {secs:.2} s, {:.1} moves each, single thread{}",
                plies as f64 / games.max(1) as f64,
                if *per_move_hooks {
                    ", per-move hooks"
                } else {
                    ""
                }
            );
            outln!(
                out,
                "median of {} round{}{}; slowest {}, fastest {}",
                rounds.len(),
                if rounds.len() == 1 { "" } else { "s" },
                if *stopped {
                    " (Ctrl-C stopped the rest)"
                } else {
                    ""
                },
                speed(&rounds[0]),
                speed(&rounds[rounds.len() - 1])
            );
            outln!(out, "playouts/s: {}", speed(median));
        }
    }
    out
}

/// What a cell shows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shown {
    Mark(Side),
    /// Part of a won board's big mark.
    Big(Side),
    /// An empty cell a move may go to now.
    Open,
    /// An empty cell no move may go to now (another board is the target).
    Blocked,
    /// A cell of a won board outside its winner's big mark.
    Blank,
    /// A cell of a board closed without a winner.
    Drawn,
}

/// Whether `cell` of a won region belongs to the big mark drawn for `side`
/// (X: the two diagonals of the region's rectangle; O: its border). A region
/// that is not a full rectangle of at least 3×3 shows the mark everywhere.
fn in_big_mark(rules: &Rulebook, region: usize, cell: Cell, side: Side) -> bool {
    let g = rules.grid();
    let cells = rules.tables().regions()[region];
    let cols = cells.into_iter().map(|c| g.col(c));
    let rows = cells.into_iter().map(|c| g.row(c));
    let (Some(c0), Some(c1), Some(r0), Some(r1)) = (
        cols.clone().min(),
        cols.max(),
        rows.clone().min(),
        rows.max(),
    ) else {
        return true;
    };
    let (w, h) = (c1 - c0 + 1, r1 - r0 + 1);
    if w < 3 || h < 3 || cells.count() != w * h {
        return true;
    }
    let (c, r) = (g.col(cell) - c0, g.row(cell) - r0);
    match side {
        Side::X => {
            // The column each diagonal crosses row `r` at, scaled to the width.
            let along = (r * (w - 1) + (h - 1) / 2) / (h - 1);
            c == along || c == w - 1 - along
        }
        Side::O => c == 0 || r == 0 || c == w - 1 || r == h - 1,
    }
}

/// The one side that holds closed region `r`; `None` when nobody or both
/// do (a region filled without a line).
fn region_holder(pos: &Position, r: usize) -> Option<Side> {
    let held = |s: Side| pos.regions_won(s) & (1 << r) != 0;
    match (held(Side::X), held(Side::O)) {
        (true, false) => Some(Side::X),
        (false, true) => Some(Side::O),
        _ => None,
    }
}

fn shown(rules: &Rulebook, pos: &Position, cell: Cell) -> Shown {
    let t = rules.tables();
    if let Some(r) = t.region_of(cell)
        && pos.regions_closed() & (1 << r) != 0
    {
        return match region_holder(pos, r) {
            Some(s) if in_big_mark(rules, r, cell, s) => Shown::Big(s),
            Some(_) => Shown::Blank,
            None => match pos.mark_at(cell) {
                Some(s) => Shown::Mark(s),
                None => Shown::Drawn,
            },
        };
    }
    match pos.mark_at(cell) {
        Some(s) => Shown::Mark(s),
        None => match (pos.target(), t.region_of(cell)) {
            (Some(target), Some(r)) if target != r => Shown::Blocked,
            _ => Shown::Open,
        },
    }
}

/// The board with coordinates on the edges, the last move marked, what the
/// rules say about the next move, then who is to move (or the result):
/// finished text, in colour if `style` says so.
pub fn board(session: &Session, style: Style) -> String {
    edge::finish(&board_text(session), style.color)
}

/// [`board`] as composed text.
pub(crate) fn board_text(session: &Session) -> String {
    let rulebook = session.rulebook();
    let game = session.game();
    let pos = game.position();
    let g = rulebook.grid();
    let t = rulebook.tables();
    let last = game.moves().last().and_then(|m| m.to());
    // The line that won, drawn struck (underlined) where there is colour;
    // the result line names its cells either way.
    let winning = rulebook.decisive_run(pos).unwrap_or_default();
    let region = |col: u32, row: u32| g.cell(col.into(), row.into()).and_then(|c| t.region_of(c));
    // Separators go between columns (rows) whose cells lie in different regions.
    let layer_width = g.width() / rulebook.layers();
    let col_break: Vec<bool> = (0..g.width())
        .map(|c| {
            c + 1 < g.width()
                && ((c + 1) % layer_width == 0
                    || (0..g.height()).all(|r| region(c, r) != region(c + 1, r)))
        })
        .collect();
    let row_break: Vec<bool> = (0..g.height())
        .map(|r| r > 0 && (0..g.width()).all(|c| region(c, r) != region(c, r - 1)))
        .collect();
    let label = if g.height() >= 10 { 2 } else { 1 };
    let mut out = String::new();
    // One entry per column: its letter, then the gap that follows it.
    let columns = |text: &dyn Fn(u32) -> String| {
        let mut line = String::new();
        for c in 0..g.width() {
            line.push_str(&text(c));
            line.push(' ');
            if col_break[c as usize] {
                line.push_str("  ");
            }
        }
        line.trim_end().to_string()
    };
    let files = columns(&|c| char::from(b'a' + c as u8).to_string());
    if rulebook.layers() > 1 {
        let mut names = String::new();
        for l in 0..rulebook.layers() {
            // Each layer is `layer_width` columns of 2 characters plus a gap of 2.
            let name = format!("layer {}", l + 1);
            write!(
                names,
                "{name:<width$}",
                width = (layer_width * 2 + 2) as usize
            )
            .unwrap();
        }
        outln!(out, "{:>label$} {}", "", names.trim_end());
    }
    if t.has_gravity() && !game.is_over() {
        let drops = columns(&|c| {
            if rulebook.landing(pos, c).is_some() {
                "v".to_string()
            } else {
                " ".to_string()
            }
        });
        outln!(out, "{:>label$} {drops}", "");
    }
    for r in (0..g.height()).rev() {
        let mut line = format!("{:>label$} ", r + 1);
        for c in 0..g.width() {
            let cell = g.cell(c.into(), r.into()).expect("on the board");
            let (ch, code) = match shown(rulebook, pos, cell) {
                Shown::Mark(Side::X) => ("X", Some(Paint::X)),
                Shown::Mark(Side::O) => ("O", Some(Paint::O)),
                Shown::Big(Side::X) => ("X", Some(Paint::X)),
                Shown::Big(Side::O) => ("O", Some(Paint::O)),
                Shown::Open => (".", None),
                Shown::Blocked => ("·", Some(Paint::Dim)),
                Shown::Blank => (" ", None),
                Shown::Drawn => ("-", Some(Paint::Dim)),
            };
            // Marks: without colour they are nothing (`edge::finish`).
            let styled = |first: &[Paint]| {
                let mut text: String = first.iter().map(|&p| edge::paint(p)).collect();
                text.push_str(code.map_or("", edge::paint));
                text.push_str(ch);
                text.push_str(edge::paint(Paint::Reset));
                text
            };
            let text = if winning.contains(&cell) {
                styled(&[Paint::Bold, Paint::Underline])
            } else if last == Some(cell) {
                styled(&[Paint::Reverse])
            } else if code.is_some() {
                styled(&[])
            } else {
                ch.to_string()
            };
            line.push_str(&text);
            line.push(' ');
            if col_break[c as usize] {
                line.push_str("| ");
            }
        }
        outln!(out, "{}", line.trim_end());
        if row_break[r as usize] {
            let mut sep = format!("{:>label$} ", "");
            for c in 0..g.width() {
                sep.push_str("--");
                if col_break[c as usize] {
                    sep.push_str("+-");
                }
            }
            sep.pop(); // the last cell has no space after it
            outln!(out, "{sep}");
        }
    }
    outln!(out, "{:>label$} {files}", "");
    if let Some(&mv) = game.moves().last() {
        // The side that moved: within a turn of several marks, maybe the
        // side to move now.
        let positions = game.positions();
        let mover = positions[positions.len() - 2].turn();
        let note = if mv == gridrules_core::Move::Swap {
            " (the seats exchanged marks; O is still to move)"
        } else {
            ""
        };
        outln!(out, "last move: {mover} {}{note}", rulebook.move_text(mv));
    }
    if let Some(status) = t.captures().status(pos) {
        outln!(out, "{status}");
    }
    if let (Some(x), Some(o)) = (rulebook.role(Side::X), rulebook.role(Side::O)) {
        outln!(out, "roles: X is {x}, O is {o}");
    }
    if t.has_gravity() && !game.is_over() {
        outln!(
            out,
            "drop a mark into a column marked v: type its letter (d) or the cell (d1)"
        );
    }
    if t.marks() == Marks::Either && !game.is_over() {
        outln!(
            out,
            "a move places X or O: b2=X or b2=O (b2 alone: your own)"
        );
    }
    if let (Some(x), Some(o), false) = (pos.in_hand(Side::X), pos.in_hand(Side::O), game.is_over())
    {
        if x > 0 || o > 0 {
            outln!(out, "placing: X has {x} in hand, O {o}");
        } else {
            outln!(out, "moving: all pieces placed; move one, like b2-c2");
        }
    }
    let closed: Vec<String> = (0..t.regions().len())
        .filter(|r| pos.regions_closed() & (1 << r) != 0)
        .map(|r| match region_holder(pos, r) {
            Some(s) => format!("{} won by {s}", r + 1),
            None if pos.regions_won(Side::X) & (1 << r) != 0 => {
                format!("{} drawn, counts for both", r + 1)
            }
            None => format!("{} drawn", r + 1),
        })
        .collect();
    if !closed.is_empty() {
        outln!(out, "closed boards: {}", closed.join(", "));
    }
    if !game.is_over() && !t.regions().is_empty() {
        match pos.target() {
            Some(r) => outln!(out, "next move on board {}", region_name(rulebook, r)),
            None => outln!(out, "next move on any open board"),
        }
    }
    if let Some(offer) = session.offer() {
        outln!(
            out,
            "{} offers a draw: `draw accept` or `draw decline`",
            offer.by
        );
    }
    outln!(out, "{}", game.status_line());
    out
}

/// A region as `9 (g7–i9)`: its number and its first and last cells.
fn region_name(rulebook: &Rulebook, r: usize) -> String {
    let place = rulebook.region_place(r);
    match rulebook.tables().region_names().get(r) {
        Some(name) => format!("{place}, the {name} one"),
        None => place,
    }
}

/// An error as finished plain text: the `error:` line, and for a problem
/// that kept its source, the offending lines drawn as cargo draws them.
pub fn error(err: &CommandError) -> String {
    edge::finish(&error_text(err), false)
}

/// [`error`] as composed text.
pub(crate) fn error_text(err: &CommandError) -> String {
    match err {
        CommandError::Rulebook(e) => rulebook_error_text(e),
        CommandError::Record(e) => {
            e.0.problems
                .iter()
                .map(|p| problem(Level::ERROR, p))
                .collect()
        }
        CommandError::Check(lines, _) => {
            let mut out = String::new();
            for l in lines {
                outln!(out, "{l}");
            }
            outln!(out, "error: {err}");
            out
        }
        // A hook that failed during play: the refused move, then where in
        // the script.
        CommandError::Play(mv, PlayError::Script(e)) => {
            problem_after(Level::ERROR, &format!("{mv}: "), &e.to_problem())
        }
        CommandError::Script(e) => problem(Level::ERROR, &e.to_problem()),
        _ => {
            let mut out = String::new();
            outln!(out, "error: {err}");
            out
        }
    }
}

/// A rulebook that did not load, every problem drawn (finished plain text).
pub fn rulebook_error(e: &RulebookError) -> String {
    edge::finish(&rulebook_error_text(e), false)
}

fn rulebook_error_text(e: &RulebookError) -> String {
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

/// [`warning`] as one entry of [`Reply::Lines`]: composed text without its
/// last line end (the reply adds it).
pub(crate) fn warning_entry(p: &Problem) -> String {
    let text = warning_text(p);
    match text.strip_suffix(edge::line_end()) {
        Some(entry) => entry.to_string(),
        None => text,
    }
}

/// One problem: `level: path:line:col: message`, then its source lines
/// with carets under the offending token, and its `help:`.
fn problem(level: Level<'_>, p: &Problem) -> String {
    problem_after(level, "", p)
}

/// [`problem`], its first line after `context` (the move a hook refused).
fn problem_after(level: Level<'_>, context: &str, p: &Problem) -> String {
    let title = match &p.location {
        Some(loc) => format!("{context}{loc}: {}", p.message),
        None => format!("{context}{}", p.message),
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
    let text = format!("{}{tail}", Renderer::plain().render(&[group]));
    let mut out = text.trim_end().replace('\n', edge::line_end());
    out.push_str(edge::line_end());
    out
}

/// `range` within `text` and on character boundaries, so a stale or odd
/// range draws something rather than panicking.
fn clamp(text: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let start = fix(range.start);
    start..fix(range.end).max(start)
}

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
