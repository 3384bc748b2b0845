//! The command line: `gridrules [--batch] [--rules <name|file>] [command…]`.

use crate::brain::DEFAULT_RULES;

/// The usage text for `--help` and mistakes.
pub const USAGE: &str = "usage: gridrules [--batch] [--keep-going] [--rules <rulebook|file.toml>]
                 [command...]

  --batch          read commands from stdin, one per line, plain output
                   (also the default when stdin is not a terminal); the exit
                   status is 1 if any command was refused
  --keep-going     exit 0 even if commands were refused (batch mode or
                   one command)
  --rules <name>   start with a built-in rulebook or a rulebook file
                   (default: classic)
  --help, -h       print this and exit
  --version, -V    print the version and exit
  command...       run this one command and exit, e.g. `gridrules bench gomoku`;
                   `gridrules check --watch my.toml` checks again after each
                   change; `gridrules brain [--rules <rulebook>]` speaks the
                   Gomocup (Piskvork) brain protocol on stdin/stdout (gomoku
                   unless told)";

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cli {
    /// Run: the REPL, batch mode, or one command.
    Run {
        /// Batch mode even on a terminal.
        batch: bool,
        /// Batch mode exits 0 even when commands were refused.
        keep_going: bool,
        /// The rulebook to start with.
        rules: String,
        /// One command to run instead of reading commands, if given.
        command: Option<String>,
    },
    /// `check --watch <file>`: check the rulebook file again after each change.
    Watch(std::path::PathBuf),
    /// `brain`: speak the Gomocup brain protocol, with this rulebook.
    Brain(String),
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
}

/// Parses the arguments (without the program name).
///
/// # Errors
/// A message for a flag that is unknown or lacks its value.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let mut batch = false;
    let mut keep_going = false;
    let mut rules = "classic".to_string();
    let mut rules_given = false;
    let mut command: Vec<String> = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--batch" if command.is_empty() => batch = true,
            "--keep-going" | "-k" if command.is_empty() => keep_going = true,
            "--rules" | "-r" if command.is_empty() => {
                rules = args.next().ok_or("--rules needs a rulebook name or file")?;
                rules_given = true;
            }
            "--help" | "-h" if command.is_empty() => return Ok(Cli::Help),
            "--version" | "-V" if command.is_empty() => return Ok(Cli::Version),
            flag if flag.starts_with('-') && command.is_empty() => {
                return Err(format!("unknown argument `{flag}`"));
            }
            word => command.push(word.to_string()),
        }
    }
    // Only the command line can watch: it runs until Ctrl-C, printing as
    // it goes, which a REPL command cannot.
    if let ["check", "--watch", rest @ ..] =
        &command.iter().map(String::as_str).collect::<Vec<_>>()[..]
    {
        return match rest {
            [file] if file.ends_with(".toml") => Ok(Cli::Watch(file.into())),
            _ => Err(
                "check --watch needs one rulebook file (.toml): a built-in never changes"
                    .to_string(),
            ),
        };
    }
    // Like watching, the brain owns stdin and stdout until the manager ends it.
    if command.first().is_some_and(|c| c == "brain") {
        return match &command[1..] {
            [] if rules_given => Ok(Cli::Brain(rules)),
            [] => Ok(Cli::Brain(DEFAULT_RULES.to_string())),
            [flag, name] if flag == "--rules" || flag == "-r" => Ok(Cli::Brain(name.clone())),
            _ => Err("usage: gridrules brain [--rules <rulebook|file.toml>]".to_string()),
        };
    }
    // Batch mode reads its commands from stdin: one given here as well
    // would be run alone and stdin never read.
    if batch && !command.is_empty() {
        let line = command.join(" ");
        return Err(format!(
            "--batch reads commands from stdin, and `{line}` was given as well: drop --batch to run it alone, or pipe it (`echo {line} | gridrules --batch`)"
        ));
    }
    Ok(Cli::Run {
        batch,
        keep_going,
        rules,
        command: (!command.is_empty()).then(|| command_line(&command)),
    })
}

/// The command line the shell's words make, each word that holds a space
/// or a quote quoted, so that the command reads it back as one word
/// (`gridrules check "my games/five.toml"`). The first is taken as it
/// stands: no command's name holds a space, so a first word that does is
/// a whole line quoted (`gridrules "solve 30"`).
fn command_line(words: &[String]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if i > 0
                && (w.is_empty()
                    || w.contains(|c: char| c.is_whitespace() || c == '"' || c == '\''))
            {
                format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\""))
            } else {
                w.clone()
            }
        })
        .collect();
    quoted.join(" ")
}

#[cfg(test)]
mod tests {
    use crate::command::split_words;

    #[test]
    fn a_word_with_a_space_stays_one_word() {
        let words: Vec<String> = ["check", "my games/five.toml", r#"say "hi""#, r"C:\g"]
            .map(String::from)
            .to_vec();
        assert_eq!(split_words(&super::command_line(&words)), words);
    }

    /// A whole command quoted as one word is that command (it read as the
    /// unknown command `"solve`), and a position quoted as one word is
    /// the position (`setup` read the quote as a cell).
    /// `--help` fits 80 columns (it wrapped mid-word).
    #[test]
    fn the_usage_fits_80_columns() {
        for line in super::USAGE.lines() {
            assert!(line.chars().count() <= 80, "{line}");
        }
    }

    #[test]
    fn a_quoted_command_or_position_reads_as_typed() {
        let line = super::command_line(&["solve 30".to_string()]);
        assert_eq!(line, "solve 30");
        let words = ["setup", "3/1X1/3 O"].map(String::from);
        let inv = crate::command::parse(&super::command_line(&words)).unwrap();
        assert_eq!(
            inv.command().unwrap(),
            crate::command::Command::Setup("3/1X1/3 O".into())
        );
    }

    use super::*;

    fn args(line: &str) -> Result<Cli, String> {
        parse(line.split_whitespace().map(str::to_string))
    }

    #[test]
    fn flags_and_one_command() {
        assert_eq!(
            args("--batch --rules gomoku"),
            Ok(Cli::Run {
                batch: true,
                keep_going: false,
                rules: "gomoku".into(),
                command: None
            })
        );
        assert_eq!(
            args("--keep-going"),
            Ok(Cli::Run {
                batch: false,
                keep_going: true,
                rules: "classic".into(),
                command: None
            })
        );
        assert_eq!(
            args("-r ultimate perft 2"),
            Ok(Cli::Run {
                batch: false,
                keep_going: false,
                rules: "ultimate".into(),
                command: Some("perft 2".into())
            })
        );
        // After the command starts, dashes belong to it (`b2-c2` never starts with one, but be safe).
        assert_eq!(
            args("bench -x"),
            Ok(Cli::Run {
                batch: false,
                keep_going: false,
                rules: "classic".into(),
                command: Some("bench -x".into())
            })
        );
        assert_eq!(
            args("check --watch my.toml"),
            Ok(Cli::Watch("my.toml".into()))
        );
        assert!(args("check --watch").is_err());
        assert!(args("check --watch classic").is_err());
        assert_eq!(args("brain"), Ok(Cli::Brain("gomoku".into())));
        assert_eq!(
            args("brain --rules my.toml"),
            Ok(Cli::Brain("my.toml".into()))
        );
        assert_eq!(args("-r pente brain"), Ok(Cli::Brain("pente".into())));
        assert!(args("brain gomoku").is_err());
        assert_eq!(args("--help"), Ok(Cli::Help));
        assert!(args("--rules").is_err());
        assert!(args("--frobnicate").is_err());
        // `--batch b2` ran `b2` alone and never read stdin.
        assert!(args("--batch b2").is_err_and(|e| e.contains("echo b2 | gridrules --batch")));
    }
}
