//! All text meant for people: boards, replies and error diagnostics.

use crate::session::{CommandError, Reply, Session, result_line, status_line};
use gridrules_core::{Location, Position, Rulebook, Side, builtin};
use std::fmt::Write as _;

/// How replies are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// At a terminal: the board after every move.
    Interactive,
    /// `--batch`: only the contract's lines.
    Batch,
}

/// The text of a reply (may be empty), each line ending in `\n`.
pub fn reply(reply: &Reply, session: &Session, mode: Mode) -> String {
    let mut out = String::new();
    let rulebook = session.rulebook();
    let pos = session.game().position();
    match reply {
        Reply::Nothing | Reply::Quit => {}
        Reply::Lines(lines) => {
            for l in lines {
                out.push_str(l);
                out.push('\n');
            }
        }
        Reply::Board => out.push_str(&board(rulebook, pos)),
        Reply::Moved { ending, .. } => {
            if mode == Mode::Interactive {
                out.push_str(&board(rulebook, pos));
            } else if let Some(e) = ending {
                writeln!(out, "{}", result_line(*e)).unwrap();
            }
        }
        Reply::NewGame => {
            writeln!(out, "new game: {} — {}", rulebook.name(), rulebook.title()).unwrap();
            if mode == Mode::Interactive {
                out.push_str(&board(rulebook, pos));
            } else if pos.is_over() {
                writeln!(out, "{}", status_line(pos)).unwrap();
            }
        }
        Reply::Undone(mv) => {
            writeln!(out, "undone: {mv}").unwrap();
            if mode == Mode::Interactive {
                out.push_str(&board(rulebook, pos));
            }
        }
        Reply::Bench {
            rulebook,
            per_move_hooks,
            rounds,
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
                "median of {} rounds; slowest {}, fastest {}",
                rounds.len(),
                speed(&rounds[0]),
                speed(&rounds[rounds.len() - 1])
            )
            .unwrap();
            writeln!(out, "playouts/s: {}", speed(median)).unwrap();
        }
    }
    out
}

/// The board with coordinates on the edges, then who is to move (or the result).
pub fn board(rulebook: &Rulebook, pos: &Position) -> String {
    let g = rulebook.grid();
    let t = rulebook.tables();
    let region = |col: u32, row: u32| g.cell(col.into(), row.into()).and_then(|c| t.region_of(c));
    // Separators go between columns (rows) whose cells lie in different regions.
    let col_break: Vec<bool> = (0..g.width())
        .map(|c| c + 1 < g.width() && (0..g.height()).all(|r| region(c, r) != region(c + 1, r)))
        .collect();
    let row_break: Vec<bool> = (0..g.height())
        .map(|r| r > 0 && (0..g.width()).all(|c| region(c, r) != region(c, r - 1)))
        .collect();
    let label = if g.height() >= 10 { 2 } else { 1 };
    let mut out = String::new();
    let mut files = String::new();
    for c in 0..g.width() {
        files.push((b'a' + c as u8) as char);
        files.push(' ');
        if col_break[c as usize] {
            files.push_str("  ");
        }
    }
    for r in (0..g.height()).rev() {
        write!(out, "{:>label$} ", r + 1).unwrap();
        for c in 0..g.width() {
            let cell = g.cell(c.into(), r.into()).expect("on the board");
            let ch = match pos.mark_at(cell) {
                Some(s) => s.to_char(),
                None if pos.closed_cells().contains(cell) => ' ',
                None => '.',
            };
            out.push(ch);
            out.push(' ');
            if col_break[c as usize] {
                out.push_str("| ");
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        if row_break[r as usize] {
            write!(out, "{:>label$} ", "").unwrap();
            for c in 0..g.width() {
                out.push_str("--");
                if col_break[c as usize] {
                    out.push_str("+-");
                }
            }
            out.pop(); // the last cell has no space after it
            out.push('\n');
        }
    }
    writeln!(out, "{:>label$} {}", "", files.trim_end()).unwrap();
    if let (Some(x), Some(o)) = (pos.in_hand(Side::X), pos.in_hand(Side::O)) {
        if x > 0 || o > 0 {
            writeln!(out, "in hand: X {x}, O {o}").unwrap();
        } else {
            writeln!(out, "all pieces placed: moves move a piece, like b2-c2").unwrap();
        }
    }
    let won: Vec<String> = Side::ALL
        .iter()
        .flat_map(|&s| {
            (0..t.regions().len())
                .filter(move |r| pos.regions_won(s) & (1 << r) != 0)
                .map(move |r| format!("{} {s}", r + 1))
        })
        .collect();
    if !won.is_empty() {
        writeln!(out, "boards won: {}", won.join(", ")).unwrap();
    }
    if !pos.is_over() && !t.regions().is_empty() {
        match pos.target() {
            Some(r) => writeln!(out, "next move on board {}", region_name(rulebook, r)).unwrap(),
            None => writeln!(out, "next move on any open board").unwrap(),
        }
    }
    writeln!(out, "{}", status_line(pos)).unwrap();
    out
}

/// A region as `9 (g7–i9)`: its number and its first and last cells.
fn region_name(rulebook: &Rulebook, r: usize) -> String {
    let cells = rulebook.tables().regions()[r];
    let g = rulebook.grid();
    match (cells.first(), cells.into_iter().last()) {
        (Some(a), Some(b)) => format!("{} ({}–{})", r + 1, g.name(a), g.name(b)),
        _ => (r + 1).to_string(),
    }
}

/// An error as text: the `error:` line, and for located problems the source
/// line with a caret under the column (toml's format).
pub fn error(err: &CommandError) -> String {
    let CommandError::Rulebook(e) = err else {
        return format!("error: {err}\n");
    };
    let mut out = String::new();
    for p in &e.problems {
        writeln!(out, "error: {p}").unwrap();
        if let Some(loc) = &p.location {
            out.push_str(&snippet(loc));
        }
    }
    out
}

/// The lines of `loc`'s file around it, with a caret, or nothing if unreadable.
pub fn snippet(loc: &Location) -> String {
    let source = builtin_source(&loc.path)
        .map(str::to_string)
        .or_else(|| std::fs::read_to_string(&loc.path).ok());
    let Some(line) = source
        .as_deref()
        .and_then(|s| s.lines().nth(loc.line.saturating_sub(1)))
    else {
        return String::new();
    };
    let n = loc.line.to_string();
    let pad = " ".repeat(n.len());
    let caret = " ".repeat(loc.col.saturating_sub(1));
    format!("{pad} |\n{n} | {line}\n{pad} | {caret}^\n")
}

fn builtin_source(path: &str) -> Option<&'static str> {
    if let Some(name) = path
        .strip_prefix("rules/")
        .and_then(|p| p.strip_suffix(".toml"))
    {
        return builtin::rulebook(name);
    }
    path.strip_prefix("scripts/").and_then(builtin::script)
}
