//! Batch mode: commands from a reader, plain replies to a writer. The tests,
//! `--batch` and piped stdin all come through here.

use crate::edge;
use crate::error::CommandError;
use crate::layout;
use crate::render::{self, Style};
use crate::reply::Reply;
use crate::session::{DEFAULT_WIDTH, Session, Setting};
use std::io::{self, BufRead, Read, Write};

/// How a batch run shows its input.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Write each command, after `> `, before its output (for transcripts).
    pub echo: bool,
}

/// What a batch run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    /// Commands run.
    pub commands: usize,
    /// The input lines (from 1) of the refused commands (each printed an
    /// `error:` line).
    pub refused: Vec<usize>,
}

impl Summary {
    /// Commands refused.
    pub fn errors(&self) -> usize {
        self.refused.len()
    }

    /// Where the refused commands were, for standard error at the end of
    /// the run: the output's `error:` lines say why, not which input line
    /// (`note: 2 of 9 commands were refused, on input lines 3 and 7`).
    /// `None` when none was.
    pub fn refusals_note(&self) -> Option<String> {
        const SHOWN: usize = 10;
        let (&last, rest) = self.refused.split_last()?;
        let lines = match rest {
            [] => format!("on input line {last}"),
            _ if self.refused.len() <= SHOWN => {
                let rest: Vec<String> = rest.iter().map(ToString::to_string).collect();
                format!("on input lines {} and {last}", rest.join(", "))
            }
            _ => {
                let first: Vec<String> = self.refused[..SHOWN]
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                format!("on input lines {}, …", first.join(", "))
            }
        };
        let commands = if self.commands == 1 {
            "command"
        } else {
            "commands"
        };
        let were = if self.errors() == 1 { "was" } else { "were" };
        Some(format!(
            "note: {} of {} {commands} {were} refused, {lines}",
            self.errors(),
            self.commands
        ))
    }
}

/// The command part of a line: everything before `#`, trimmed.
pub fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(code, _)| code).trim()
}

/// What one line did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// Everything to print, finished for the style ([`edge::finish`]):
    /// script output, moves the clock made, the reply.
    pub text: String,
    /// The line asked to leave.
    pub quit: bool,
    /// The command was refused (the text has its `error:` line).
    pub failed: bool,
}

/// Runs one line against the session.
pub fn step(session: &mut Session, line: &str, style: Style) -> Step {
    session.set_width(style.width.unwrap_or(DEFAULT_WIDTH));
    let (result, held) = match session.parse(line) {
        Ok(inv) => (session.execute(&inv), inv.hold),
        Err(e) => {
            session.note_unparsed(line);
            (Err(CommandError::Parse(e)), false)
        }
    };
    // Composed text (see `edge`): gridrules' own line ends are marks.
    let mut text = String::new();
    // What the script printed is its text alone on a line: indented, as a
    // continuation is, so that it cannot pass for a line of gridrules'.
    for printed in session.take_script_output() {
        text.push_str(edge::CONTINUATION);
        text.push_str(&printed);
        text.push_str(edge::line_end());
    }
    let pending = session.take_pending();
    text.push_str(&render::played(&pending));
    for notice in session.take_notices() {
        text.push_str(&notice);
        text.push_str(edge::line_end());
    }
    // A move the clock made shows on the board even when the command that
    // noticed it drew none (it was refused as too late, or only printed).
    let redraw = !pending.is_empty() && !result.as_ref().is_ok_and(Reply::draws_board);
    let board = |session: &Session| {
        if redraw && style.boards {
            render::board_text(session)
        } else {
            String::new()
        }
    };
    // The computer's reply failed: the command itself stands, but the
    // run has failed all the same.
    let reply_failure = session.take_reply_failure();
    let failure_text = |session: &Session| {
        reply_failure
            .as_ref()
            .map(|f| render::reply_failure_text(f, session))
            .unwrap_or_default()
    };
    match result {
        Ok(reply) => {
            text.push_str(&render::reply(&reply, session, style));
            text.push_str(&board(session));
            text.push_str(&failure_text(session));
            // Ctrl-C stopped the computer's reply, or the line held it:
            // the game waits for it.
            if let Some((side, level)) = session.computer_to_move() {
                let waits = if session.interrupt().is_raised() {
                    Some(format!("stopped: {side}'s move is still the computer's"))
                } else {
                    held.then(|| format!("held: {side}'s move is the computer's"))
                };
                if let Some(waits) = waits {
                    text.push_str(&format!("{waits} ({level}); `ai {level}` plays it"));
                    text.push_str(edge::line_end());
                }
            }
            let quit = matches!(reply, Reply::Quit);
            Step {
                text: fitted(text, style),
                quit,
                failed: reply_failure.is_some(),
            }
        }
        Err(e) => {
            text.push_str(&failure_text(session));
            text.push_str(&render::error_text(&e));
            text.push_str(&board(session));
            Step {
                text: fitted(text, style),
                quit: false,
                failed: true,
            }
        }
    }
}

/// The text as it goes out: finished at the edge (colour only where the
/// style says, everything from outside made harmless), and wrapped where
/// the style says.
fn fitted(text: String, style: Style) -> String {
    let text = edge::finish(&text, style.color);
    match style.width {
        Some(w) => layout::fit(&text, w),
        None => text,
    }
}

/// The `error:` line for input line `n` that is not UTF-8: where, and its
/// first bytes, so the culprit can be found.
fn not_text(n: usize, bytes: &[u8]) -> String {
    let invalid = std::str::from_utf8(bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let shown: Vec<String> = bytes[invalid..]
        .iter()
        .take(2)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!(
        "error: line {n} is not UTF-8 text (bytes {} …): nothing was done",
        shown.join(" ")
    )
}

/// The longest input line batch mode reads; a position text for the
/// largest board is a few KiB.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads commands from `input` until it ends or `quit`, writing replies to `output`.
///
/// # Errors
/// Failures to read or write, and a line longer than [`MAX_LINE`].
pub fn run(
    session: &mut Session,
    input: impl BufRead,
    mut output: impl Write,
    options: Options,
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let mut input = input;
    let mut buf = Vec::new();
    for n in 0.. {
        buf.clear();
        // Bounded: one endless line (`< /dev/zero`) must not take the memory.
        let read = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)?;
        if read == 0 {
            break;
        }
        if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
            output.flush()?;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {} is longer than {} KiB: the rest of the input is not read",
                    n + 1,
                    MAX_LINE / 1024
                ),
            ));
        }
        let bytes = buf.strip_suffix(b"\n").unwrap_or(&buf);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
        // A line that is not text is refused like any bad command.
        let Ok(line) = std::str::from_utf8(bytes) else {
            writeln!(output, "{}", edge::finish(&not_text(n + 1, bytes), false))?;
            summary.commands += 1;
            summary.refused.push(n + 1);
            continue;
        };
        let code = strip_comment(line);
        if code.is_empty() {
            continue;
        }
        if options.echo {
            // The line as typed is content: shown, never obeyed.
            writeln!(output, "{}", edge::finish(&format!("> {code}"), false))?;
        }
        let step = step(session, code, Style::BATCH);
        output.write_all(step.text.as_bytes())?;
        summary.commands += 1;
        if step.failed {
            summary.refused.push(n + 1);
        }
        if step.quit {
            break;
        }
    }
    output.flush()?;
    Ok(summary)
}

/// Replays a transcript from a fresh classic session, echoing each command:
/// the text the conformance snapshots hold.
pub fn replay(transcript: &str) -> String {
    let rulebook =
        gridrules_core::Rulebook::builtin("classic").expect("the classic rulebook loads");
    let mut session = Session::new(rulebook, "classic", Setting::Batch);
    let mut out = Vec::new();
    run(
        &mut session,
        transcript.as_bytes(),
        &mut out,
        Options { echo: true },
    )
    .expect("writing to memory cannot fail");
    String::from_utf8(out).expect("replies are UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridrules_core::Rulebook;
    use std::time::Duration;

    /// A move the clock made just before a command is drawn on one board,
    /// whether the command draws the board itself (`undo` drew it twice)
    /// or not (`status`).
    #[test]
    fn a_move_the_clock_made_before_a_command_is_drawn_on_one_board() {
        let style = Style {
            boards: true,
            color: false,
            width: None,
        };
        for command in ["undo", "show", "status", "b1"] {
            let rules = Rulebook::builtin("classic").unwrap();
            let mut session = Session::new(rules, "classic", Setting::Batch);
            for line in ["clock 15", "b2"] {
                assert!(!step(&mut session, line, style).failed, "{line}");
            }
            session.let_time_pass(Duration::from_secs(16));
            let text = step(&mut session, command, style).text;
            assert!(text.contains("time ran out: O plays"), "{command}: {text}");
            // The board's column letters, once.
            assert_eq!(text.matches("  a b c").count(), 1, "{command}: {text}");
        }
    }

    /// `resign` and `draw offer` typed by the side whose time ran out
    /// come too late, as a move does: the clock moved for that side, and
    /// they resigned or offered for the other (a player lost so).
    #[test]
    fn resign_and_draw_after_the_time_ran_out_are_too_late() {
        for command in ["resign", "draw offer"] {
            let rules = Rulebook::builtin("classic").unwrap();
            let mut session = Session::new(rules, "classic", Setting::Batch);
            for line in ["clock 15", "b2"] {
                assert!(!step(&mut session, line, Style::BATCH).failed, "{line}");
            }
            session.let_time_pass(Duration::from_secs(16));
            let step = step(&mut session, command, Style::BATCH);
            assert!(step.failed, "{command}: {}", step.text);
            assert!(
                step.text
                    .contains("too late: the time for the move ran out"),
                "{command}: {}",
                step.text
            );
            assert!(!session.game().is_over(), "{command}");
            assert!(session.offer().is_none(), "{command}");
        }
    }
}
