//! `gridrules`: the REPL on a terminal, batch mode otherwise.

use gridrules::cli::{self, Cli, USAGE};
use gridrules::session::{Session, Setting, open_rulebook};
use gridrules::{batch, edge, editor, render};
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (batch_flag, keep_going, rules, command) = match cli::parse(std::env::args().skip(1)) {
        Ok(Cli::Run {
            batch,
            keep_going,
            rules,
            command,
        }) => (batch, keep_going, rules, command),
        Ok(Cli::Watch(file)) => {
            // It ends with Ctrl-C, or when the output is gone.
            return gridrules::watch::run(&file, &mut std::io::stdout())
                .map_or(ExitCode::FAILURE, |()| ExitCode::SUCCESS);
        }
        Ok(Cli::Brain(rules)) => return gridrules::brain::main(rules),
        Ok(Cli::Help) => return emit(&format!("{USAGE}\n")),
        Ok(Cli::Version) => {
            return emit(&format!("gridrules {}\n", env!("CARGO_PKG_VERSION")));
        }
        Err(msg) => {
            // The message quotes the arguments: shown, never obeyed.
            let said = edge::finish(&format!("error: {msg}"), false);
            eprintln!("{}{USAGE}", wrapped(&format!("{said}\n")));
            return ExitCode::from(2);
        }
    };
    let rulebook = match open_rulebook(&rules) {
        Ok(r) => r,
        Err(e) => {
            eprint!("{}", wrapped(&render::error(&e.into())));
            return ExitCode::FAILURE;
        }
    };
    // On stderr: the author sees them, and batch output stays as parsed.
    for w in rulebook.warnings() {
        eprint!("{}", render::warning(w));
    }
    let batch_mode = batch_flag || command.is_some() || !std::io::stdin().is_terminal();
    let setting = if batch_mode {
        Setting::Batch
    } else {
        Setting::Interactive
    };
    let mut session = Session::new(rulebook, &rules, setting);
    if let Some(command) = command {
        // One command: its output on stdout, or on stderr with status 1 if
        // refused; Ctrl-C stops it as at the prompt.
        editor::stop_commands_on_ctrl_c(&session);
        // At a terminal, wrapped to its width as at the REPL.
        let style = render::Style {
            width: editor::stdout_width(),
            ..render::Style::BATCH
        };
        let step = batch::step(&mut session, &command, style);
        if step.failed {
            // A report that ends in its failure (`check`'s pass and FAIL
            // lines) is output all the same: `| grep FAIL` finds it.
            let (report, error) = step.text.split_at(error_start(&step.text));
            print!("{report}");
            eprint!("{error}");
            return if keep_going {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
        // A move played prints nothing, and its game ends with the run:
        // say so, and where games go on.
        if session
            .parse(&command)
            .is_ok_and(|inv| inv.spec.name == "play")
        {
            let note = edge::finish(
                &format!(
                    "note: `{command}` is legal here; a one-command run ends with its move: play at the REPL (`gridrules`) or pipe moves to batch mode (`echo {command} | gridrules --batch`)"
                ),
                false,
            );
            eprint!("{}", wrapped(&format!("{note}\n")));
        }
        return emit(&step.text);
    }
    let result = if batch_mode {
        let options = batch::Options::default();
        batch::run(
            &mut session,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            options,
        )
        // Scripts can tell that a command was refused, unless told to go
        // on; people are told where (the refusals on purpose, with
        // `--keep-going`, go unremarked).
        .map(|summary| {
            if let Some(note) = summary.refusals_note().filter(|_| !keep_going) {
                eprintln!("{}", edge::finish(&note, false));
            }
            summary.errors() == 0 || keep_going
        })
    } else {
        editor::run(session)
            .map(|()| true)
            .map_err(std::io::Error::other)
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // Whoever read the output stopped reading: nothing to say to them.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", edge::finish(&format!("error: {e}"), false));
            ExitCode::FAILURE
        }
    }
}

/// `text` (lines ending in `\n`) wrapped at the terminal's width, as the
/// REPL wraps its output, where the output is a terminal.
fn wrapped(text: &str) -> String {
    match editor::stdout_width() {
        Some(width) => gridrules::layout::fit(text, width),
        None => text.to_string(),
    }
}

/// Writes `text` to stdout. A reader that went away (a closed pipe) ends
/// the program quietly, as for any command-line tool.
fn emit(text: &str) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!(
                "{}",
                edge::finish(&format!("error: cannot write the output: {e}"), false)
            );
            ExitCode::FAILURE
        }
    }
}

/// Where the first line starting `error:` starts in `text`; where none does,
/// its start: all of it is the error.
fn error_start(text: &str) -> usize {
    let mut starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1));
    starts
        .find(|&i| text[i..].starts_with("error:"))
        .unwrap_or(0)
}
