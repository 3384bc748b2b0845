//! `gridrules`: the REPL on a terminal, batch mode otherwise.

use gridrules::cli::{self, Cli, USAGE};
use gridrules::session::{Session, Setting, open_rulebook};
use gridrules::{batch, edge, editor, render};
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (batch_flag, rules, command) = match cli::parse(std::env::args().skip(1)) {
        Ok(Cli::Run {
            batch,
            rules,
            command,
        }) => (batch, rules, command),
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
            eprintln!("{}\n{USAGE}", edge::finish(&format!("error: {msg}"), false));
            return ExitCode::from(2);
        }
    };
    let rulebook = match open_rulebook(&rules) {
        Ok(r) => r,
        Err(e) => {
            eprint!("{}", render::error(&e.into()));
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
        // One command: its output on stdout, or on stderr with status 1 if refused.
        let step = batch::step(&mut session, &command, render::Style::BATCH);
        if step.failed {
            eprint!("{}", step.text);
            return ExitCode::FAILURE;
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
        .map(|_| ())
    } else {
        editor::run(session).map_err(std::io::Error::other)
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read the output stopped reading: nothing to say to them.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", edge::finish(&format!("error: {e}"), false));
            ExitCode::FAILURE
        }
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
