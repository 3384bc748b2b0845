//! Hostile input (issue 10): files, scripts and streams made to break the
//! program. Each case is a fixture under `tests/hostile/` or made here; the
//! program must refuse it with a clear message, keep the game, and never
//! panic, hang or leak.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A fixture's path.
fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/hostile")
        .join(name)
}

fn batch(input: &str) -> common::Run {
    common::run_in(Path::new("."), &["--batch"], input)
}

#[test]
fn control_characters_never_reach_the_terminal_raw() {
    let r = batch(&format!(
        "load {}\nrules\nname 1 \u{1b}[2Jeve\nfrobnicate\u{7}\n",
        fixture("escapes.toml").display()
    ));
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(
        !r.out
            .chars()
            .any(|c| c.is_control() && c != '\n' && c != '\t'),
        "a control character got through:\n{:?}",
        r.out
    );
    // Shown, escaped, rather than dropped: the author can see what is there.
    for shown in [
        "\\u{1b}]52;c;",
        "\\u{7}",
        "\\u{1b}[2J",
        "\\u{9b}2J",
        "frobnicate\\u{7}",
    ] {
        assert!(r.out.contains(shown), "{shown} not in:\n{}", r.out);
    }
}

#[test]
fn a_record_with_escaped_whitespace_opens_and_its_errors_point_at_the_string() {
    let good = fixture("record-escapes.toml");
    let bad = fixture("record-escapes-bad.toml");
    let r = batch(&format!(
        "open {}\nhistory\nopen {}\nhistory\n",
        good.display(),
        bad.display()
    ));
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    assert!(lines.contains(&"1. b2 a1"), "{}", r.out);
    let error = lines
        .iter()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("the bad record opened:\n{}", r.out));
    assert!(
        error.contains("record-escapes-bad.toml:4:9: move 3 `b2`"),
        "{error}"
    );
    // The game in progress survived the refusal.
    assert_eq!(lines.last(), Some(&"1. b2 a1"), "{}", r.out);
}

#[test]
fn a_reader_that_goes_away_ends_the_program_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .arg("--batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // More output than a pipe holds, to a reader that is gone.
    drop(child.stdout.take());
    use std::io::Write;
    let input = "help\n".repeat(200);
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
