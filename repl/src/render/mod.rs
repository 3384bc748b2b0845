//! All text meant for people: replies, results and refusals; the board
//! ([`board()`]) in its own file, problems in [`crate::diagnostic`].
//!
//! What is built here is composed text (see [`crate::edge`]): gridrules'
//! own lines end with [`edge::line_end`] (written with `outln!`), its
//! colours are [`edge::paint`] marks, and everything else — titles, names,
//! refusals — is content, made safe by [`edge::finish`] where the text
//! leaves the program. The public functions that return text ready to
//! print say so.

mod board;
mod stacks;

pub(crate) use board::board_text;

use crate::command::help;
use crate::diagnostic;
use crate::edge::{self, outln};
use crate::error::CommandError;
use crate::reply::{By, Played, Reply};
use crate::session::{ReplyFailure, Session, clock_line};
use gridrules_core::arena::MatchError;
use gridrules_core::game::result_line;
use gridrules_core::{PlayError, Side};
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
        Reply::Help(topic) => {
            for l in help(*topic, style.width.unwrap_or(crate::session::DEFAULT_WIDTH)) {
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
        Reply::NewGame {
            opened,
            played: moves,
        } => {
            let r = session.rulebook();
            match opened {
                Some((path, n)) => outln!(
                    out,
                    "opened: {path}, {n} move{} of {} — {}",
                    if *n == 1 { "" } else { "s" },
                    r.name(),
                    r.title()
                ),
                None => outln!(out, "new game: {} — {}", r.name(), r.title()),
            }
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
            over_time,
            all_cores,
        } => {
            let speed = |r: &gridrules_core::playout::BenchResult| rate(r.playouts_per_second());
            let (games, plies, secs) = rounds.iter().fold((0, 0, 0.0), |(g, p, s), r| {
                (g + r.playouts, p + r.plies, s + r.elapsed.as_secs_f64())
            });
            // The middle round's speed, or the mean of the middle two.
            let n = rounds.len();
            let median = (rounds[(n - 1) / 2].playouts_per_second()
                + rounds[n / 2].playouts_per_second())
                / 2.0;
            outln!(
                out,
                "bench {rulebook}: {games} random game{} in {secs:.2} s, {:.1} moves each, single thread{}",
                if games == 1 { "" } else { "s" },
                plies as f64 / games.max(1) as f64,
                if *per_move_hooks {
                    ", per-move hooks"
                } else {
                    ""
                }
            );
            outln!(
                out,
                "median of {} round{}{}; slowest {}, fastest {} playouts/s",
                rounds.len(),
                if rounds.len() == 1 { "" } else { "s" },
                if *stopped {
                    " (Ctrl-C stopped the rest)"
                } else if *over_time {
                    " (a game outlasted a round: the time ran out before the rest)"
                } else {
                    ""
                },
                speed(&rounds[0]),
                speed(&rounds[rounds.len() - 1])
            );
            if let Some((cores, all)) = all_cores {
                outln!(
                    out,
                    "on all {cores} cores at once: {} playouts/s, {:.2}× the single thread's median",
                    speed(all),
                    all.playouts_per_second() / median.max(1e-9)
                );
            }
            outln!(out, "playouts/s: {}", rate(median));
        }
    }
    out
}

/// A rate of games a second: whole from 10 up, else with one or two
/// decimals, so that a slow rulebook's 0.12 a second does not read as 0.
fn rate(per_second: f64) -> String {
    match per_second {
        r if r >= 100.0 => format!("{}", r.round() as u64),
        r if r >= 10.0 => format!("{r:.0}"),
        r if r >= 1.0 => format!("{r:.1}"),
        r => format!("{r:.2}"),
    }
}

/// The board with coordinates on the edges, the last move marked, what the
/// rules say about the next move, then who is to move (or the result):
/// finished text, in colour if `style` says so.
pub fn board(session: &Session, style: Style) -> String {
    edge::finish(&board_text(session), style.color)
}

/// An error as finished plain text: the `error:` line, and for a problem
/// that kept its source, the offending lines drawn as cargo draws them.
pub fn error(err: &CommandError) -> String {
    edge::finish(&error_text(err), false)
}

/// The computer's failed reply: whose and at which level, then why (a
/// script's error with its place), then how to try again.
pub(crate) fn reply_failure_text(f: &ReplyFailure, session: &Session) -> String {
    let ReplyFailure { side, level, error } = f;
    let context = format!("{side}'s reply ({level}) failed: ");
    let script = match error {
        CommandError::Script(e) => Some(e),
        CommandError::Play(_, PlayError::Script(e)) => Some(&**e),
        _ => None,
    };
    let mut out = match script {
        Some(e) => diagnostic::error_text_after(&context, &e.to_problem()),
        None => {
            let mut out = String::new();
            outln!(out, "error: {context}{error}");
            out
        }
    };
    if session.computer_to_move().is_some() {
        outln!(
            out,
            "{side}'s move is still the computer's ({level}); `ai {level}` tries again"
        );
    }
    out
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
        // A player or a script that failed in a match (a script's place
        // drawn), then what became of the games finished before it.
        CommandError::Arena(failed, saved) => {
            let mut out = match &**failed {
                MatchError::Script { game, error } => {
                    let context = format!("arena: game {game}: ");
                    diagnostic::error_text_after(&context, &error.to_problem())
                }
                MatchError::Program { .. } => {
                    let mut out = String::new();
                    outln!(
                        out,
                        "error: arena: {}",
                        edge::short_quotes(&failed.to_string())
                    );
                    out
                }
            };
            if let Some(saved) = saved {
                outln!(out, "note: {}", edge::short_quotes(saved));
            }
            out
        }
        _ => one_line_error(err),
    }
}

/// An error that holds no source to draw: its `error:` line.
fn one_line_error(err: &CommandError) -> String {
    let mut out = String::new();
    outln!(out, "error: {}", edge::short_quotes(&err.to_string()));
    out
}
