//! `gridrules`: the REPL on a terminal, batch mode otherwise.

use gridrules::session::{Session, Setting, open_rulebook};
use gridrules::{batch, editor, render};
use std::io::IsTerminal;
use std::process::ExitCode;

const USAGE: &str = "usage: gridrules [--batch] [--rules <rulebook|file.toml>] [command...]

  --batch          read commands from stdin, one per line, plain output
                   (also the default when stdin is not a terminal)
  --rules <name>   start with a built-in rulebook or a rulebook file (default: classic)
  command...       run this one command and exit, e.g. `gridrules bench gomoku`";

fn main() -> ExitCode {
    let mut batch_mode = !std::io::stdin().is_terminal();
    let mut rules = "classic".to_string();
    let mut command: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--batch" => batch_mode = true,
            "--rules" | "-r" => match args.next() {
                Some(r) => rules = r,
                None => return usage_error("--rules needs a rulebook name or file"),
            },
            "--help" | "-h" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--version" | "-V" => {
                println!("gridrules {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            flag if flag.starts_with('-') && command.is_empty() => {
                return usage_error(&format!("unknown argument `{flag}`"));
            }
            word => command.push(word.to_string()),
        }
    }
    let rulebook = match open_rulebook(&rules) {
        Ok(r) => r,
        Err(e) => {
            eprint!("{}", render::error(&e.into()));
            return ExitCode::FAILURE;
        }
    };
    let setting = if batch_mode || !command.is_empty() {
        Setting::Batch
    } else {
        Setting::Interactive
    };
    let mut session = Session::new(rulebook, &rules, setting);
    if !command.is_empty() {
        let step = batch::step(&mut session, &command.join(" "), render::Style::BATCH);
        if step.failed {
            eprint!("{}", step.text);
            return ExitCode::FAILURE;
        }
        print!("{}", step.text);
        return ExitCode::SUCCESS;
    }
    let result = if batch_mode {
        batch::run(
            &mut session,
            std::io::stdin().lock(),
            std::io::stdout().lock(),
            batch::Options::default(),
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

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n{USAGE}");
    ExitCode::from(2)
}
