//! The brain as a program: lines in, answers out.

use super::{Brain, Options};
use std::io::{BufRead, Read, Write};

/// The longest line read from the manager: the rest of a longer one is
/// dropped, as the protocol allows.
const MAX_LINE: usize = 64 * 1024;

/// Runs the brain over `input` and `output` until `END` or the end of the
/// input, writing each answer as soon as it is made. Bytes that are not
/// UTF-8 are read as replacement characters (and refused as a command).
///
/// # Errors
/// Reading or writing failed.
pub fn run(
    mut input: impl BufRead,
    mut output: impl Write,
    options: Options,
) -> std::io::Result<()> {
    let mut brain = Brain::new(options);
    let mut line = Vec::new();
    loop {
        line.clear();
        if (&mut input)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut line)?
            == 0
        {
            return Ok(());
        }
        if line.len() == MAX_LINE && line.last() != Some(&b'\n') {
            // Past the cut, up to the end of the line, holding none of it.
            loop {
                let buf = input.fill_buf()?;
                if buf.is_empty() {
                    break;
                }
                match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => {
                        input.consume(i + 1);
                        break;
                    }
                    None => {
                        let n = buf.len();
                        input.consume(n);
                    }
                }
            }
        }
        let answer = brain.handle(&String::from_utf8_lossy(&line));
        // The one place the brain writes: each `Line` holds no control
        // character, so each is one line for the manager.
        for text in &answer.lines {
            writeln!(output, "{text}")?;
        }
        output.flush()?;
        if answer.end {
            return Ok(());
        }
    }
}

/// The brain as a program (`gridrules brain`, `pbrain-gridrules`): stdin
/// and stdout, until `END` or the end of the input.
pub fn main(rules: String) -> std::process::ExitCode {
    let options = Options {
        rules,
        ..Options::default()
    };
    match run(std::io::stdin().lock(), std::io::stdout().lock(), options) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The manager went away: nothing to say to it.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
