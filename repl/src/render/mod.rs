//! All text meant for people: boards, replies and error diagnostics.
//!
//! What is built here is composed text (see [`crate::edge`]): gridrules'
//! own lines end with [`edge::line_end`] (written with `outln!`), its
//! colours are [`edge::paint`] marks, and everything else — titles, names,
//! refusals — is content, made safe by [`edge::finish`] where the text
//! leaves the program. The public functions that return text ready to
//! print say so.

use crate::diagnostic;
use crate::edge::{self, Paint, outln};
use crate::error::CommandError;
use crate::reply::{By, Played, Reply};
use crate::session::{Session, clock_line};
use gridrules_core::game::result_line;
use gridrules_core::rulebook::Marks;
use gridrules_core::{Cell, PlayError, Position, Rulebook, Side};
use std::fmt::Write as _;

// The diagnostics' public names, where the conformance suite calls them.
pub use crate::diagnostic::{rulebook_error, script_error, warning};

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
                out.push_str(&diagnostic::warning_text(w));
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
    if t.has_captures() {
        outln!(
            out,
            "captures: X {}, O {}",
            pos.captures(Side::X),
            pos.captures(Side::O)
        );
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
        CommandError::Rulebook(e) => diagnostic::rulebook_error_text(e),
        CommandError::Record(e) => diagnostic::rulebook_error_text(&e.0),
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
            diagnostic::error_text_after(&format!("{mv}: "), &e.to_problem())
        }
        CommandError::Script(e) => diagnostic::error_text(&e.to_problem()),
        _ => {
            let mut out = String::new();
            outln!(out, "error: {err}");
            out
        }
    }
}
