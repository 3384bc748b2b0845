//! `gridrules`: the REPL on a terminal, batch mode otherwise.

use gridrules::cli::{self, Cli, USAGE};
use gridrules::session::{Session, Setting, open_rulebook};
use gridrules::{batch, editor, render};
use std::io::IsTerminal;
use std::process::ExitCode;

fn main() -> ExitCode {
    let (batch_flag, rules, command) = match cli::parse(std::env::args().skip(1)) {
        Ok(Cli::Run {
            batch,
            rules,
            command,
        }) => (batch, rules, command),
        Ok(Cli::Help) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Cli::Version) => {
            println!("gridrules {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(msg) => {
            eprintln!("error: {msg}\n{USAGE}");
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
        print!("{}", step.text);
        return ExitCode::SUCCESS;
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
        .map_err(|e| e.to_string())
    } else {
        editor::run(session).map_err(|e| e.to_string())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
