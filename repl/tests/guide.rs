//! The author's guide (`docs/authoring.md`) runs: its worked example is
//! extracted into a temporary directory and every command it shows is run,
//! in the order the guide shows them, its output compared with the guide's.
//! The README's tour runs the same way.
//!
//! A page marks what the test reads with the info string of a fence:
//!
//! - ```` ```toml file=cornerless.toml ```` (any language): write the
//!   block to that file; a later block of the same name replaces it;
//! - ```` ```diff file=broken.toml from=cornerless.toml ````: a copy of
//!   `from` with each `-` line replaced by the `+` lines after it;
//! - ```` ```console ````: `$ gridrules …` lines (`< file` feeds stdin) and
//!   the output each prints, stdout and stderr together as a terminal
//!   shows them, diagnostics drawn in full (source line, carets, `help:`).
//!
//! Blocks in other languages (`sh`, `text`, `rhai` without `file=`) are
//! prose, not run.

use std::path::Path;
use std::process::{Command, Stdio};

/// A page of the repository, by its path from the root.
fn page(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A fenced block: its info string, the line it starts on, its text.
struct Block {
    info: String,
    line: usize,
    text: String,
}

fn blocks(doc: &str, name: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (n, line) in doc.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    info: info.trim().to_string(),
                    line: n + 1,
                    text: String::new(),
                });
            }
            (Some(_), Some("")) => out.push(open.take().unwrap()),
            (Some(b), _) => {
                b.text.push_str(line);
                b.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{name}: a fence is not closed");
    out
}

/// `key=value` from an info string.
fn attr<'a>(info: &'a str, key: &str) -> Option<&'a str> {
    info.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// `from` with each `-` line of `diff` replaced by the `+` lines after it.
fn patch(from: &str, diff: &str, at: usize) -> String {
    let mut lines: Vec<String> = from.lines().map(str::to_string).collect();
    let mut cursor: Option<usize> = None;
    for d in diff.lines() {
        if let Some(old) = d.strip_prefix('-') {
            let i = lines
                .iter()
                .position(|l| l == old)
                .unwrap_or_else(|| panic!("page line {at}: no line `{old}` to replace"));
            lines.remove(i);
            cursor = Some(i);
        } else if let Some(new) = d.strip_prefix('+') {
            let i = cursor.unwrap_or_else(|| panic!("page line {at}: `+` before any `-`"));
            lines.insert(i, new.to_string());
            cursor = Some(i + 1);
        } else {
            panic!("page line {at}: a diff line that is neither `-` nor `+`: `{d}`");
        }
    }
    lines.join("\n") + "\n"
}

/// Runs `$ gridrules …` in `dir`: the output, both streams in the order
/// written, and whether it succeeded.
fn run(dir: &Path, command: &str, at: usize) -> (String, bool) {
    let mut words = command.split_whitespace();
    assert_eq!(
        words.next(),
        Some("gridrules"),
        "page line {at}: a console block runs only gridrules"
    );
    let mut args = Vec::new();
    let mut stdin = None;
    while let Some(w) = words.next() {
        if w == "<" {
            stdin = Some(words.next().expect("a file after `<`"));
        } else {
            args.push(w);
        }
    }
    // One file for both streams keeps their order, as on a terminal.
    let out_path = dir.join(".output");
    let out = std::fs::File::create(&out_path).unwrap();
    let input = match stdin {
        Some(f) => Stdio::from(std::fs::File::open(dir.join(f)).unwrap()),
        None => Stdio::null(),
    };
    let status = Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .args(&args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_DATA_HOME", dir)
        .stdin(input)
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .status()
        .unwrap();
    let text = std::fs::read_to_string(&out_path).unwrap();
    std::fs::remove_file(&out_path).unwrap();
    (text, status.success())
}

/// Writes `doc`'s files into a temporary directory and runs its `console`
/// blocks there, in order, each output compared with the page's: the
/// commands run, and whether each succeeded.
fn run_page(doc: &str, name: &str) -> Vec<(String, bool)> {
    let dir = tempfile::tempdir().unwrap();
    let mut ran = Vec::new();
    for b in blocks(doc, name) {
        if let Some(file) = attr(&b.info, "file") {
            let text = match attr(&b.info, "from") {
                Some(from) => {
                    let source = std::fs::read_to_string(dir.path().join(from))
                        .unwrap_or_else(|e| panic!("{name} line {}: {from}: {e}", b.line));
                    patch(&source, &b.text, b.line)
                }
                None => b.text.clone(),
            };
            std::fs::write(dir.path().join(file), text).unwrap();
        } else if b.info == "console" {
            let mut steps: Vec<(String, String)> = Vec::new();
            for line in b.text.lines() {
                match line.strip_prefix("$ ") {
                    Some(cmd) => steps.push((cmd.to_string(), String::new())),
                    None => {
                        let (_, want) = steps.last_mut().unwrap_or_else(|| {
                            panic!("{name} line {}: output before a `$` line", b.line)
                        });
                        want.push_str(line);
                        want.push('\n');
                    }
                }
            }
            for (cmd, want) in steps {
                let (got, ok) = run(dir.path(), &cmd, b.line);
                assert_eq!(
                    got, want,
                    "{name} line {}: `{cmd}` printed other than the page shows",
                    b.line
                );
                // `check` fails exactly when it says so.
                if cmd.split_whitespace().any(|w| w == "check") {
                    let says_error = want.lines().any(|l| l.starts_with("error:"));
                    assert_eq!(ok, !says_error, "{name} line {}: `{cmd}` status", b.line);
                }
                ran.push((cmd, ok));
            }
        }
    }
    ran
}

#[test]
fn the_worked_example_runs_as_the_guide_shows_it() {
    let ran = run_page(&page("docs/authoring.md"), "docs/authoring.md");
    // The steps the guide promises are all there.
    let has = |cmd: &str, success: bool| ran.iter().any(|(c, ok)| c == cmd && *ok == success);
    assert!(has("gridrules check cornerless.toml", true), "{ran:?}");
    assert!(
        has(
            "gridrules --rules cornerless.toml --batch --keep-going < cornerless.txt",
            true
        ),
        "{ran:?}"
    );
    assert!(has("gridrules check broken.toml", false), "{ran:?}");
    assert!(
        has(
            "gridrules --rules broken.toml --batch --keep-going < cornerless.txt",
            true
        ),
        "{ran:?}"
    );
    // The primitive shown at work: marks that vanish.
    assert!(has("gridrules check fading.toml", true), "{ran:?}");
    assert!(
        has("gridrules --rules fading.toml --batch < fading.txt", true),
        "{ran:?}"
    );
}

#[test]
fn the_readme_tour_runs_as_the_readme_shows_it() {
    let ran = run_page(&page("README.md"), "README.md");
    let has = |cmd: &str| ran.iter().any(|(c, ok)| c == cmd && *ok);
    assert!(has("gridrules --batch < game.txt"), "{ran:?}");
    assert!(has("gridrules check exact5.toml"), "{ran:?}");
    assert!(has("gridrules check classic"), "{ran:?}");
}

#[test]
fn a_diff_block_replaces_its_lines() {
    assert_eq!(
        patch("a\nb = 1\nc\n", "-b = 1\n+b = 2\n+d\n", 0),
        "a\nb = 2\nd\nc\n"
    );
}
