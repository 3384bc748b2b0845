//! Hostile input: files, scripts and streams made to break the
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
    common::run_in(Path::new("."), &["--batch", "--keep-going"], input)
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

/// Runs batch `input` in `dir`.
fn batch_in(dir: &Path, input: &str) -> common::Run {
    common::run_in(dir, &["--batch", "--keep-going"], input)
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn only_regular_files_of_the_right_kind_are_read() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("fifo.toml"));
    std::fs::create_dir(dir.path().join("folder.toml")).unwrap();
    // Over a megabyte of rulebook.
    std::fs::write(dir.path().join("huge.toml"), "# x\n".repeat(300_000)).unwrap();
    let r = batch_in(
        dir.path(),
        &format!(
            "b2\nload fifo.toml\nopen fifo.toml\nload folder.toml\nload /dev/zero\nload huge.toml\nload {}\nopen {}\nhistory\n",
            fixture("environ.toml").display(),
            fixture("record-absolute.toml").display(),
        ),
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let errors: Vec<&str> = r.out.lines().filter(|l| l.starts_with("error:")).collect();
    let expected = [
        "fifo.toml: cannot read the rulebook: not a regular file",
        "fifo.toml: cannot read: not a regular file",
        "folder.toml: cannot read the rulebook: not a regular file",
        "/dev/zero: cannot read the rulebook: a rulebook is a .toml file",
        "huge.toml: cannot read the rulebook: too large for a rulebook (at most 1024 KiB)",
        "cannot read it: a script is a .rhai file",
        "rulebook `/etc/gridrules/classic.toml`: a record names a built-in rulebook, or a rulebook file by its path from the record's folder",
    ];
    assert_eq!(errors.len(), expected.len(), "{}", r.out);
    for (error, part) in errors.iter().zip(expected) {
        assert!(error.contains(part), "{error}\n  should say: {part}");
    }
    // Nothing of the environment was shown, and the game is still there.
    assert!(!r.out.contains("PATH="), "{}", r.out);
    assert!(r.out.ends_with("1. b2\n"), "{}", r.out);
}

#[test]
fn one_endless_line_of_input_ends_the_run_with_an_error() {
    let input = std::fs::File::open("/dev/zero").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .arg("--batch")
        .stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: line 1 is longer than 64 KiB: the rest of the input is not read\n"
    );
}

#[test]
fn saving_never_destroys_what_is_not_a_record() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    mkfifo(&at("fifo.toml"));
    std::fs::create_dir(at("folder.toml")).unwrap();
    std::fs::write(at("notes.toml"), "my notes\n").unwrap();
    // A victim behind a link planted where the old temporary file went.
    std::fs::write(at("victim"), "precious\n").unwrap();
    let pid_guess = ".game.toml.tmp";
    for pid in 0..64 {
        let _ = symlink(at("victim"), at(&format!("{pid_guess}{pid}")));
    }
    // An earlier record, readable by its owner only: it keeps its mode.
    std::fs::write(
        at("game.toml"),
        "# gridrules game record\nrulebook = \"classic\"\n",
    )
    .unwrap();
    std::fs::set_permissions(at("game.toml"), std::fs::Permissions::from_mode(0o600)).unwrap();
    let r = batch_in(
        dir.path(),
        "b2\nsave fifo.toml\nsave folder.toml\nsave notes.toml\nsave /dev/null\nrecord notes.toml\nrecord game.toml\nsave game.toml\nsave --force game.toml\nsave --force notes.toml\n",
    );
    let errors: Vec<&str> = r.out.lines().filter(|l| l.starts_with("error:")).collect();
    let expected = [
        "fifo.toml: cannot write: not a regular file",
        "folder.toml: cannot write: not a regular file",
        "notes.toml: cannot write: the file exists and gridrules did not write it",
        "save: /dev/null: a record is a .toml file",
        "notes.toml: cannot write: the file exists and gridrules did not write it",
        // A kind of file gridrules writes, named as such.
        "game.toml: cannot write: the file holds a gridrules game record, not a session transcript",
        // Another game's record: replaced only when forced.
        "save: game.toml holds the record of another game",
    ];
    assert_eq!(errors.len(), expected.len(), "{}", r.out);
    for (error, part) in errors.iter().zip(expected) {
        assert!(error.contains(part), "{error}\n  should say: {part}");
    }
    assert_eq!(std::fs::read_to_string(at("victim")).unwrap(), "precious\n");
    let game = std::fs::read_to_string(at("game.toml")).unwrap();
    assert!(game.contains("moves = \"b2\""), "{game}");
    let mode = std::fs::metadata(at("game.toml"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // Forced, the notes were replaced; and no temporary file is left.
    let notes = std::fs::read_to_string(at("notes.toml")).unwrap();
    assert!(notes.starts_with("# gridrules game record"), "{notes}");
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A script that fails on the clock's move does not block the table: the
/// failure is said once, the clock pauses, and every command still works.
#[test]
fn a_failing_hook_on_the_clocks_move_leaves_the_table_usable() {
    let r = batch(&format!(
        "load {}\nb2\nwait 16\nstatus\nnew classic\nstatus\nquit\n",
        fixture("clock-failing.toml").display()
    ));
    assert_eq!(r.code, 0, "{}", r.err);
    let lines: Vec<&str> = r.out.lines().collect();
    let failed = lines
        .iter()
        .filter(|l| l.starts_with("error: the clock could not move"))
        .count();
    assert_eq!(failed, 1, "{}", r.out);
    assert!(
        lines.contains(&"the clock is paused; `resume` runs it again"),
        "{}",
        r.out
    );
    assert!(lines.contains(&"to move: O"), "{}", r.out);
    assert!(r.out.contains("new game: classic"), "{}", r.out);
    assert_eq!(lines.last(), Some(&"to move: X"), "{}", r.out);
}

/// A hook that fails in the computer's search is the computer's failure,
/// said as such: the person's move, which the rules allowed, stands and is
/// not reported as refused (issue 26, item 11: the script's error was
/// printed under the move as if the move had been refused).
#[test]
fn a_failing_hook_in_the_computers_reply_is_the_replys_failure() {
    let r = common::run_in(
        Path::new("."),
        &["--batch"],
        &format!(
            "load {}\nclock off\nvs medium\nb2\nhistory\nstatus\n",
            fixture("clock-failing.toml").display()
        ),
    );
    let lines: Vec<&str> = r.out.lines().collect();
    let failed: Vec<&&str> = lines.iter().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(failed.len(), 1, "{}", r.out);
    assert!(
        failed[0].starts_with("error: O's reply (medium) failed: ")
            && failed[0].contains("clock-failing.rhai:")
            && failed[0].ends_with("O's moves cannot be judged"),
        "{}",
        r.out
    );
    assert!(
        lines.contains(&"O's move is still the computer's (medium); `ai medium` tries again"),
        "{}",
        r.out
    );
    assert!(lines.contains(&"1. b2"), "{}", r.out);
    assert!(lines.contains(&"to move: O"), "{}", r.out);
    // Something failed: a script can tell.
    assert_eq!(r.code, 1, "{}", r.out);
}

/// A rulebook file named like a built-in is saved under its own path, so
/// the record opens that file again, not the built-in.
#[test]
fn a_rulebook_file_named_like_a_built_in_stays_that_file() {
    let dir = tempfile::tempdir().unwrap();
    let classic = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rules/classic.toml");
    let text = std::fs::read_to_string(classic)
        .unwrap()
        .replace("script = \"k_in_a_row.rhai\"", "script = \"k_in_a_row\"");
    std::fs::write(dir.path().join("classic.toml"), text).unwrap();
    let r = batch_in(dir.path(), "load classic.toml\nb2\nsave g.toml\n");
    assert_eq!(r.code, 0, "{}{}", r.out, r.err);
    let record = std::fs::read_to_string(dir.path().join("g.toml")).unwrap();
    assert!(record.contains("rulebook = \"classic.toml\""), "{record}");
}

/// A script's top-level code runs once, at load, however many load-time
/// hook calls follow (one per cell here), and the modules it imports are
/// there for the per-move hooks too.
#[test]
fn top_level_code_runs_once_and_its_imports_serve_every_hook() {
    let r = batch(&format!(
        "load {}\nb2\nlegal\n",
        fixture("top-level.toml").display()
    ));
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.out.matches("top-level code ran").count(), 1, "{}", r.out);
    assert!(!r.out.contains("error"), "{}", r.out);
    assert!(r.out.ends_with("a1 b1 c1 a2 c2 a3 b3 c3\n"), "{}", r.out);
}

/// Characters that would style, hide or reorder text on a terminal: every
/// control character but newline and tab (C0, DEL, C1, so every escape
/// sequence), and the bidi and invisible format controls.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c,
            '\u{200b}'
            | '\u{200e}'..='\u{200f}'
            | '\u{2028}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{061c}'
            | '\u{feff}')
}

/// The batch commands that show every text `forge.toml`, its script and
/// `record-forge.toml` hold, and a player's name typed with escapes.
fn forge_input() -> String {
    format!(
        "load {}\nrules\nshow\nb2\nb2\nc3\nc2\nname 1 \u{1b}[8mhidden\u{202e}eve\nscore\ncheck {}\nopen {}\nscore\n",
        fixture("forge.toml").display(),
        fixture("forge.toml").display(),
        fixture("record-forge.toml").display(),
    )
}

/// Colour sequences (SGR) from a rulebook, a script, a
/// record or a player's name passed as gridrules' own colours did, and
/// bidi overrides passed as text: in batch mode and pipes no escape at all
/// reaches the output, and what was there is shown escaped.
#[test]
fn no_escape_and_no_bidi_control_from_outside_reaches_batch_output() {
    let r = batch(&forge_input());
    let raw: Vec<char> = r.out.chars().filter(|&c| hidden(c)).collect();
    assert!(raw.is_empty(), "{raw:?} got through:\n{}", r.out);
    for shown in [
        "Forge \\u{1b}[8mhidden\\u{1b}[0m \\u{202e}evil",
        "Chaos \\u{1b}[31mred\\u{1b}[0m \\u{2066}isolated\\u{2069}",
        "FORGED print \\u{1b}[31mred",
        "FORGED refusal \\u{1b}[8m",
        "\\u{1b}[8mhidden\\u{202e}eve (X)",
        "Ada \\u{1b}[8mhidden\\u{1b}[0m \\u{202e}eve",
        "Bob\\u{d}",
    ] {
        assert!(r.out.contains(shown), "{shown} not in:\n{}", r.out);
    }
    // One command run from the command line, on stdout and (refused) on stderr.
    let forge = fixture("forge.toml");
    let forge = forge.to_str().unwrap();
    for args in [
        vec!["--rules", forge, "rules"],
        vec!["check", forge],
        vec!["--rules", forge, "c3"],
    ] {
        let r = common::run_in(Path::new("."), &args, "");
        let text = format!("{}{}", r.out, r.err);
        let raw: Vec<char> = text.chars().filter(|&c| hidden(c)).collect();
        assert!(raw.is_empty(), "{args:?}: {raw:?} got through:\n{text}");
        assert!(text.contains("FORGED"), "{args:?}:\n{text}");
    }
}

/// At a colour terminal: the board keeps gridrules'
/// colours, and an escape from outside is still shown escaped, even a
/// colour one.
#[test]
fn at_a_colour_terminal_only_gridrules_own_colours_are_escapes() {
    use gridrules::batch::step;
    use gridrules::render::Style;
    use gridrules::session::{Session, Setting};
    let forge = gridrules_core::Rulebook::from_file(&fixture("forge.toml")).unwrap();
    let mut session = Session::new(forge, "forge", Setting::Batch);
    let color = Style {
        boards: true,
        color: true,
        width: Some(80),
    };
    let mut out = String::new();
    for line in [
        "b2",
        "b2",
        "rules",
        "name 2 \u{1b}[8mhidden\u{202e}eve",
        "score",
    ] {
        out.push_str(&step(&mut session, line, color).text);
    }
    // The last move, X on b2, drawn in reverse video and red.
    assert!(out.contains("\x1b[7m\x1b[1;31mX\x1b[0m"), "{out:?}");
    // (Lines are wrapped at 80 columns here, between words.)
    for shown in [
        "\\u{1b}[31mred\\u{1b}[0m",
        "\\u{2066}isolated\\u{2069}",
        "FORGED refusal \\u{1b}[8m",
        "\\u{1b}[8mhidden\\u{202e}eve (O)",
    ] {
        assert!(out.contains(shown), "{shown} not in:\n{out:?}");
    }
    // Every escape left is one of gridrules' own colours.
    let own = gridrules::edge::own_escapes();
    let mut rest = out.as_str();
    while let Some(i) = rest.find('\x1b') {
        rest = &rest[i..];
        let sgr = own
            .iter()
            .find(|s| rest.starts_with(**s))
            .unwrap_or_else(|| panic!("a foreign escape: {:?}", &rest[..rest.len().min(20)]));
        rest = &rest[sgr.len()..];
    }
    let raw: Vec<char> = out.chars().filter(|&c| c != '\x1b' && hidden(c)).collect();
    assert!(raw.is_empty(), "{raw:?} got through:\n{out:?}");
}

/// A refusal (from `[refusals]` or the `refuse` hook),
/// printed output, a thrown message, a title, a description, a role, an
/// example's text and the names in a record could each print a line of
/// their own, such as `result: O wins — a1 b1 c1`, that a script reading
/// the batch output takes for gridrules'. Every forged line of the
/// fixtures says FORGED: each is shown indented, never at the start of a line.
#[test]
fn no_text_from_outside_starts_a_line_of_output() {
    let r = batch(&forge_input());
    let forged: Vec<&str> = r.out.lines().filter(|l| l.contains("FORGED")).collect();
    // Every source above shows up: the test is not passing vacuously.
    for source in [
        "title",
        "description",
        "role",
        "print",
        "whole printed line",
        "debug",
        "refusal",
        "refuse hook",
        "throw",
        "example",
        "record",
    ] {
        assert!(
            forged
                .iter()
                .any(|l| l.contains(&format!("FORGED {source}"))),
            "FORGED {source} not shown:\n{}",
            r.out
        );
    }
    // Indented, or quoted after a gutter under an error (`23 | `).
    let gutter = |l: &str| {
        l.split_once(" | ")
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
    };
    let starting: Vec<&&str> = forged
        .iter()
        .filter(|l| !l.starts_with(' ') && !gutter(l))
        .collect();
    assert!(
        starting.is_empty(),
        "lines from outside start a line: {starting:#?}\n{}",
        r.out
    );
    // The only stable lines are gridrules' own.
    for line in r.out.lines() {
        assert!(!line.starts_with("result:"), "{line}\n{}", r.out);
        if let Some(side) = line.strip_prefix("to move: ") {
            assert!(side == "X" || side == "O", "{line}\n{}", r.out);
        }
    }
}

/// The transcript `new-variant --from` writes quotes the copied
/// rulebook's example in a comment; an example's text of several lines
/// put its later lines there as commands, which the replay would run.
#[test]
fn a_copied_examples_text_stays_in_the_transcripts_comment() {
    let dir = tempfile::tempdir().unwrap();
    let r = batch_in(
        dir.path(),
        &format!(
            "new-variant copy --from {}\n",
            fixture("forge.toml").display()
        ),
    );
    assert!(r.out.starts_with("new-variant: wrote"), "{}", r.out);
    let transcript = std::fs::read_to_string(dir.path().join("copy.txt")).unwrap();
    assert!(
        transcript.contains("# an example\n#   result: X wins — FORGED example\n"),
        "{transcript}"
    );
    let commands: Vec<&str> = transcript.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(commands, ["b2", "status"], "{transcript}");
}
