//! All text meant for people: boards, replies and error diagnostics.

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

/// `text` made safe for a terminal: every control character but newline
/// and tab is shown as an escape (`\u{1b}`), so a rulebook's, script's or
/// record's text cannot clear the screen, retitle the window or write the
/// clipboard. gridrules' own colours (SGR sequences, `ESC [ … m`) pass.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b'
            && let Some(len) = sgr_len(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The length of the colour sequence `ESC [ digits/semicolons m` that
/// `text` starts with, if it does.
fn sgr_len(text: &str) -> Option<usize> {
    let body = text.strip_prefix("\x1b[")?;
    let params = body
        .find(|c: char| !(c.is_ascii_digit() || c == ';'))
        .filter(|&i| body[i..].starts_with('m'))?;
    Some(2 + params + 1)
}

/// `text` with every line longer than `width` wrapped at spaces, so a list
/// of moves breaks between moves, never inside one; continuation lines are
/// indented two spaces. Boards (drawn in colour) and source lines quoted
/// under an error (`12 | …`) are left as they are.
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
        let mut len = 0;
        for word in body.split(' ') {
            let w = word.chars().count();
            if len > 0 && len + 1 + w > width {
                out.push_str("\n  ");
                len = 2;
            } else if len > 0 {
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

const RESET: &str = "\x1b[0m";
const RED: &str = "\x1b[1;31m";
const BLUE: &str = "\x1b[1;34m";
const DIM: &str = "\x1b[2m";
const REVERSE: &str = "\x1b[7m";
const BOLD: &str = "\x1b[1m";
const UNDERLINE: &str = "\x1b[4m";

fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("{code}{text}{RESET}")
    } else {
        text.to_string()
    }
}

/// The line for a move the computer or the clock made (a person's own move prints nothing).
fn played_line(p: &Played) -> Option<String> {
    match p.by {
        By::Person => None,
        By::Computer => Some(format!("{} plays {}", p.side, p.mv)),
        By::Clock => Some(format!("time ran out: {} plays {}", p.side, p.mv)),
    }
}

/// Moves made, then the result line if one of them ended the game.
pub fn played(moves: &[Played]) -> String {
    played_with(moves, true)
}

/// [`played`]; `results: false` leaves out the result line, for a reply
/// whose board ends with it.
fn played_with(moves: &[Played], results: bool) -> String {
    let mut out = String::new();
    for p in moves {
        if let Some(line) = played_line(p) {
            writeln!(out, "{line}").unwrap();
        }
        if let Some(note) = &p.note {
            writeln!(out, "{note}").unwrap();
        }
        if let Some(e) = p.ending.filter(|_| results) {
            let line = p.result.clone().unwrap_or_else(|| result_line(e));
            writeln!(out, "{line}").unwrap();
        }
    }
    out
}

/// The text of a reply (may be empty), each line ending in `\n`.
pub fn reply(reply: &Reply, session: &Session, style: Style) -> String {
    let mut out = String::new();
    let board_now = |out: &mut String| {
        if style.boards {
            out.push_str(&board(session, style));
        }
    };
    match reply {
        Reply::Nothing | Reply::Quit => {}
        Reply::Lines(lines) => {
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        }
        Reply::Board => out.push_str(&board(session, style)),
        Reply::Played(lines, moves) => {
            for l in lines {
                writeln!(out, "{l}").unwrap();
            }
            // The board ends with the result: say it once.
            out.push_str(&played_with(moves, !style.boards));
            board_now(&mut out);
        }
        Reply::NewGame(moves) => {
            let r = session.rulebook();
            writeln!(out, "new game: {} — {}", r.name(), r.title()).unwrap();
            // Shown with every new game until the author fixes them, as a
            // compiler repeats its warnings.
            for w in r.warnings() {
                out.push_str(&warning(w));
            }
            let seats = session.seats();
            writeln!(
                out,
                "X: {}, O: {}; {}",
                seats.name(Side::X),
                seats.name(Side::O),
                clock_line(session.clock_limit())
            )
            .unwrap();
            out.push_str(&played(moves));
            if style.boards {
                out.push_str(&board(session, style));
            } else if session.game().is_over() && moves.iter().all(|p| p.ending.is_none()) {
                writeln!(out, "{}", session.game().status_line()).unwrap();
            }
        }
        Reply::Undone(moves) => {
            writeln!(out, "undone: {}", moves.join(", ")).unwrap();
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
            writeln!(
                out,
                "bench {rulebook}: {games} random games in {secs:.2} s, {:.1} moves each, single thread{}",
                plies as f64 / games.max(1) as f64,
                if *per_move_hooks { ", per-move hooks" } else { "" }
            )
            .unwrap();
            writeln!(
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
            )
            .unwrap();
            writeln!(out, "playouts/s: {}", speed(median)).unwrap();
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
/// rules say about the next move, then who is to move (or the result).
pub fn board(session: &Session, style: Style) -> String {
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
        writeln!(out, "{:>label$} {}", "", names.trim_end()).unwrap();
    }
    if t.has_gravity() && !game.is_over() {
        let drops = columns(&|c| {
            if rulebook.landing(pos, c).is_some() {
                "v".to_string()
            } else {
                " ".to_string()
            }
        });
        writeln!(out, "{:>label$} {drops}", "").unwrap();
    }
    for r in (0..g.height()).rev() {
        let mut line = format!("{:>label$} ", r + 1);
        for c in 0..g.width() {
            let cell = g.cell(c.into(), r.into()).expect("on the board");
            let (ch, code) = match shown(rulebook, pos, cell) {
                Shown::Mark(Side::X) => ("X", RED),
                Shown::Mark(Side::O) => ("O", BLUE),
                Shown::Big(Side::X) => ("X", RED),
                Shown::Big(Side::O) => ("O", BLUE),
                Shown::Open => (".", ""),
                Shown::Blocked => ("·", DIM),
                Shown::Blank => (" ", ""),
                Shown::Drawn => ("-", DIM),
            };
            let text = if winning.contains(&cell) && style.color {
                format!("{BOLD}{UNDERLINE}{}", paint(style, code, ch))
            } else if last == Some(cell) && style.color {
                format!("{REVERSE}{}", paint(style, code, ch))
            } else if code.is_empty() {
                ch.to_string()
            } else {
                paint(style, code, ch)
            };
            line.push_str(&text);
            line.push(' ');
            if col_break[c as usize] {
                line.push_str("| ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if row_break[r as usize] {
            let mut sep = format!("{:>label$} ", "");
            for c in 0..g.width() {
                sep.push_str("--");
                if col_break[c as usize] {
                    sep.push_str("+-");
                }
            }
            sep.pop(); // the last cell has no space after it
            writeln!(out, "{sep}").unwrap();
        }
    }
    writeln!(out, "{:>label$} {files}", "").unwrap();
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
        writeln!(out, "last move: {mover} {}{note}", rulebook.move_text(mv)).unwrap();
    }
    if t.has_captures() {
        writeln!(
            out,
            "captures: X {}, O {}",
            pos.captures(Side::X),
            pos.captures(Side::O)
        )
        .unwrap();
    }
    if let (Some(x), Some(o)) = (rulebook.role(Side::X), rulebook.role(Side::O)) {
        writeln!(out, "roles: X is {x}, O is {o}").unwrap();
    }
    if t.has_gravity() && !game.is_over() {
        writeln!(
            out,
            "drop a mark into a column marked v: type its letter (d) or the cell (d1)"
        )
        .unwrap();
    }
    if t.marks() == Marks::Either && !game.is_over() {
        writeln!(
            out,
            "a move places X or O: b2=X or b2=O (b2 alone: your own)"
        )
        .unwrap();
    }
    if let (Some(x), Some(o), false) = (pos.in_hand(Side::X), pos.in_hand(Side::O), game.is_over())
    {
        if x > 0 || o > 0 {
            writeln!(out, "placing: X has {x} in hand, O {o}").unwrap();
        } else {
            writeln!(out, "moving: all pieces placed; move one, like b2-c2").unwrap();
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
        writeln!(out, "closed boards: {}", closed.join(", ")).unwrap();
    }
    if !game.is_over() && !t.regions().is_empty() {
        match pos.target() {
            Some(r) => writeln!(out, "next move on board {}", region_name(rulebook, r)).unwrap(),
            None => writeln!(out, "next move on any open board").unwrap(),
        }
    }
    if let Some(offer) = session.offer() {
        writeln!(
            out,
            "{} offers a draw: `draw accept` or `draw decline`",
            offer.by
        )
        .unwrap();
    }
    writeln!(out, "{}", game.status_line()).unwrap();
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

/// An error as text: the `error:` line, and for a problem that kept its
/// source, the offending lines drawn as cargo draws them.
pub fn error(err: &CommandError) -> String {
    match err {
        CommandError::Rulebook(e) => rulebook_error(e),
        CommandError::Record(e) => {
            e.0.problems
                .iter()
                .map(|p| problem(Level::ERROR, p))
                .collect()
        }
        CommandError::Check(lines, _) => {
            let mut out: String = lines.iter().map(|l| format!("{l}\n")).collect();
            writeln!(out, "error: {err}").unwrap();
            out
        }
        // A hook that failed during play: the refused move's line, then
        // where in the script.
        // A hook that failed during play: the refused move, then where in
        // the script.
        CommandError::Play(mv, PlayError::Script(e)) => {
            problem_after(Level::ERROR, &format!("{mv}: "), &e.to_problem())
        }
        CommandError::Script(e) => script_error(e),
        _ => format!("error: {err}\n"),
    }
}

/// A rulebook that did not load, every problem drawn.
pub fn rulebook_error(e: &RulebookError) -> String {
    e.problems
        .iter()
        .map(|p| problem(Level::ERROR, p))
        .collect()
}

/// A hook that failed, drawn at the script line where it stopped.
pub fn script_error(e: &ScriptError) -> String {
    let p = e.to_problem();
    problem(Level::ERROR, &p)
}

/// A warning about a rulebook that loads (a function one slip from a hook).
pub fn warning(p: &Problem) -> String {
    problem(Level::WARNING, p)
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
fn diagnostic(
    level: Level<'_>,
    title: &str,
    snippet: Option<&Snippet>,
    help: Option<&str>,
) -> String {
    let mut group = Group::with_title(level.primary_title(title));
    if let Some(s) = snippet {
        let range = clamp(&s.source.text, s.range.clone());
        let mut primary = AnnotationKind::Primary.span(range);
        if let Some(label) = &s.label {
            primary = primary.label(label.as_str());
        }
        let mut shown = AnnotSnippet::source(&*s.source.text)
            .fold(true)
            .annotation(primary);
        for (range, label) in &s.context {
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
    format!("{}\n", text.trim_end())
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
