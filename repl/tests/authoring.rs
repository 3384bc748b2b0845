//! Authoring commands: `new-variant` writes files that pass `check` at once
//! and refuses without leaving anything behind; `reload` replays the game
//! under a rulebook file edited between commands.

mod common;

use gridrules::scaffold::{ScaffoldError, new_variant};
use gridrules_core::Rulebook;
use std::fs;
use std::path::Path;

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn the_blank_template_passes_check_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let made = common::run_in(dir.path(), &["new-variant", "my-game"], "");
    assert_eq!(made.code, 0, "{}{}", made.out, made.err);
    assert!(
        made.out
            .contains("check my-game: 5 examples, 5 passed, 0 failed"),
        "{}",
        made.out
    );
    assert_eq!(
        listing(dir.path()),
        ["my-game.rhai", "my-game.toml", "my-game.txt"]
    );
    // What to do next, in lines that fit a terminal (one of 200 columns
    // was printed).
    let next: Vec<&str> = made
        .out
        .lines()
        .skip_while(|l| !l.starts_with("next:"))
        .collect();
    assert_eq!(
        next,
        [
            "next: edit them; `gridrules check --watch my-game.toml` checks each save",
            "play: `gridrules --rules my-game.toml`",
            "replay the transcript: `gridrules --rules my-game.toml --batch < my-game.txt`",
        ]
    );
    let checked = common::run_in(dir.path(), &["check", "my-game.toml"], "");
    assert_eq!(checked.code, 0, "{}{}", checked.out, checked.err);
    // The name alone is taken for a built-in's, and the file is suggested.
    let bare = common::run_in(dir.path(), &["check", "my-game"], "");
    assert_eq!(bare.code, 1);
    assert!(
        bare.err
            .contains("help: did you mean the file `my-game.toml`?"),
        "{}",
        bare.err
    );
    assert!(!checked.out.contains("warning"), "{}", checked.out);
    // The transcript replays in batch mode from that directory.
    let transcript = fs::read_to_string(dir.path().join("my-game.txt")).unwrap();
    assert!(transcript.starts_with("# rulebook: my-game\n# covers: MG2\n"));
    let replayed = common::run_in(
        dir.path(),
        &["--rules", "my-game.toml", "--batch"],
        &transcript,
    );
    assert_eq!(
        replayed.out.lines().collect::<Vec<_>>(),
        [
            "result: X wins — a1 b1 c1",
            "result: X wins — a1 b1 c1",
            "error: c3: the game is over (X wins): no move is accepted after the result (MG2)",
        ],
        "{}",
        replayed.out
    );
}

#[test]
fn the_template_lists_every_optional_hook_and_refusal_key() {
    let files = gridrules::scaffold::blank("t");
    for h in gridrules_core::script::hooks::HOOKS {
        assert!(
            files.script.contains(&format!("fn {}", h.signature())),
            "{}",
            h.name
        );
    }
    for k in gridrules_core::rules::REFUSAL_KEYS {
        assert!(files.rulebook.contains(k), "{k}");
    }
}

#[test]
fn every_builtin_can_be_the_start_and_its_copy_passes_check() {
    let dir = tempfile::tempdir().unwrap();
    for (i, source) in Rulebook::builtin_names().enumerate() {
        let name = format!("copy{i}");
        let written = new_variant(&name, Some(source), dir.path())
            .unwrap_or_else(|e| panic!("{source}: {e}"));
        assert_eq!(written.rulebook.name(), name, "{source}");
        assert!(
            written
                .rulebook
                .script()
                .path()
                .ends_with(&format!("{name}.rhai")),
            "{source}: the script is the copy beside it"
        );
        let original = Rulebook::builtin(source).unwrap();
        assert_eq!(written.checked.len(), original.examples().len(), "{source}");
        for c in &written.checked {
            assert_eq!(c.failure, None, "{source}: {}", c.example.text);
        }
        // Its transcript replays with no refusal.
        let transcript = fs::read_to_string(dir.path().join(format!("{name}.txt"))).unwrap();
        let rules = format!("{name}.toml");
        let replayed = common::run_in(dir.path(), &["--rules", &rules, "--batch"], &transcript);
        assert!(
            !replayed.out.contains("error:"),
            "{source}: {}",
            replayed.out
        );
    }
}

#[test]
fn a_rulebook_file_can_be_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let source = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/variants/moving-4x3.toml"
    );
    let written = new_variant("mine", Some(source), dir.path()).unwrap();
    assert_eq!(written.rulebook.name(), "mine");
    assert!(written.checked.iter().all(|c| c.failure.is_none()));
    let text = fs::read_to_string(dir.path().join("mine.toml")).unwrap();
    assert!(text.contains("name = \"mine\"\n") && text.contains("script = \"mine.rhai\"\n"));
}

#[test]
fn refusals_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let refused = |name: &str, from: Option<&str>| {
        new_variant(name, from, d)
            .err()
            .unwrap_or_else(|| panic!("{name} {from:?} was accepted"))
    };
    let mixed = refused("My_Game", None);
    assert!(matches!(mixed, ScaffoldError::BadName(_)));
    // Written otherwise, the name meant is suggested.
    assert!(
        mixed.to_string().ends_with(": did you mean `my-game`?"),
        "{mixed}"
    );
    assert!(matches!(refused("", None), ScaffoldError::BadName(_)));
    // A command-line word: `gridrules check -bad.toml` would read as an option.
    assert!(matches!(refused("-bad", None), ScaffoldError::BadName(_)));
    // A path where the name goes: the message says how to write both.
    let path = refused("/tmp/myrenju", Some("renju")).to_string();
    assert!(
        path.ends_with("(for files in a folder, `--dir /tmp myrenju`)"),
        "{path}"
    );
    assert!(matches!(
        refused("classic", None),
        ScaffoldError::Builtin(_)
    ));
    let unknown = refused("x", Some("clasic")).to_string();
    assert!(unknown.contains("did you mean `classic`?"), "{unknown}");
    assert!(unknown.contains("gomoku"), "the list: {unknown}");
    let broken = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/rulebooks/err_missing_field.toml"
    );
    assert!(matches!(refused("x", Some(broken)), ScaffoldError::From(_)));
    // A script that imports a module beside the original does not load as
    // a copy elsewhere: the files written are removed, and the directory made.
    let imports = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/user/nocentre.toml");
    let sub = d.join("sub");
    let e = new_variant("x", Some(imports), &sub).err().unwrap();
    assert!(matches!(e, ScaffoldError::Unloadable(_)), "{e}");
    assert!(!sub.exists());
    assert_eq!(listing(d), Vec::<String>::new());

    // One file in the way: none of the three is written, and it is intact.
    fs::write(d.join("taken.txt"), "mine").unwrap();
    let e = refused("taken", None);
    assert!(
        matches!(&e, ScaffoldError::Exists(p) if p.len() == 1),
        "{e}"
    );
    assert_eq!(listing(d), ["taken.txt"]);
    assert_eq!(fs::read_to_string(d.join("taken.txt")).unwrap(), "mine");
}

#[test]
fn a_refusal_through_the_binary_is_an_error_line_and_status_1() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("x.toml"), "keep me").unwrap();
    for args in [
        &["new-variant", "x"][..],
        &["new-variant", "y", "--from", "nowhere"],
        &["new-variant"],
        &["new-variant", "y", "--from"],
        &["new-variant", "y", "z"],
    ] {
        let r = common::run_in(dir.path(), args, "");
        assert_eq!(r.code, 1, "{args:?}");
        assert!(r.err.starts_with("error: "), "{args:?}: {}", r.err);
        assert_eq!(listing(dir.path()), ["x.toml"], "{args:?}");
    }
}

/// A session on a rulebook file in a temporary directory, which each test
/// rewrites between commands.
struct Desk {
    dir: tempfile::TempDir,
    session: gridrules::session::Session,
}

const RULEBOOK: &str = r#"name = "edited"
title = "TITLE"
script = "edited.rhai"

[board]
width = WIDTH
height = WIDTH

[params]
k = 3
"#;

const SCRIPT: &str = r#"//! Three in a row, with a slot for one more hook.
fn lines() { lines::straight(K) }
fn wins(run) { run >= K }
EXTRA
"#;

impl Desk {
    fn new() -> Desk {
        let dir = tempfile::tempdir().unwrap();
        let desk = Desk {
            session: gridrules::session::Session::new(
                Rulebook::builtin("classic").unwrap(),
                "classic",
                gridrules::session::Setting::Batch,
            ),
            dir,
        };
        desk.write("first", 3, "");
        let mut desk = desk;
        let load = format!("load {}", desk.toml().display());
        desk.run(&load);
        desk
    }

    fn toml(&self) -> std::path::PathBuf {
        self.dir.path().join("edited.toml")
    }

    /// Writes the rulebook with `title` on a `width`² board, its script
    /// with `extra` added.
    fn write(&self, title: &str, width: u32, extra: &str) {
        let toml = RULEBOOK
            .replace("TITLE", title)
            .replace("WIDTH", &width.to_string());
        fs::write(self.toml(), toml).unwrap();
        fs::write(
            self.dir.path().join("edited.rhai"),
            SCRIPT.replace("EXTRA", extra),
        )
        .unwrap();
    }

    fn run(&mut self, line: &str) -> String {
        gridrules::batch::step(&mut self.session, line, gridrules::render::Style::BATCH).text
    }

    fn play(&mut self, moves: &str) {
        for mv in moves.split_whitespace() {
            let out = self.run(mv);
            assert!(!out.contains("error:"), "{mv}: {out}");
        }
    }
}

#[test]
fn reload_unchanged_is_the_same_game() {
    let mut d = Desk::new();
    d.play("a1 b2 a2");
    d.write("second", 3, "");
    assert_eq!(d.run("reload"), "reload: same game (3 moves replayed)\n");
    assert_eq!(d.run("history"), "1. a1 b2 2. a2\n");
    assert!(d.run("rules").starts_with("edited — second\n"));
    // A finished game stays finished, and scored once.
    d.play("c3 a3");
    assert_eq!(d.run("status"), "result: X wins — a1 a2 a3\n");
    assert_eq!(d.run("reload"), "reload: same game (5 moves replayed)\n");
    assert_eq!(
        d.run("score"),
        "score: player 1 (X) 1, player 2 (O) 0 (1 game)\n"
    );
}

#[test]
fn reload_reports_a_move_no_longer_legal_and_keeps_the_moves_before_it() {
    let mut d = Desk::new();
    d.play("a1 b2 c3");
    d.write(
        "no centre",
        3,
        r#"fn refuse(state, mv) { if mv.to == cell(1, 1) { "the centre stays empty (NC1)" } }"#,
    );
    assert_eq!(
        d.run("reload"),
        "reload: move 2 (b2) is no longer legal: the centre stays empty (NC1)\n\
         reload: the game keeps move 1 under the new rules; dropped: b2 c3\n\
         reload: `redo` plays the moves dropped again, as the rules allow\n"
    );
    assert_eq!(d.run("history"), "1. a1\n");
    assert_eq!(d.run("status"), "to move: O\n");
    assert_eq!(
        d.run("b2"),
        "error: b2: the centre stays empty (NC1)\n",
        "the new rules are in force"
    );
}

/// A board of another size names other cells by the same numbers: the
/// moves dropped are not kept for `redo` (d1 on 4×4 came back as a2).
#[test]
fn reload_to_another_board_keeps_no_moves_for_redo() {
    let mut d = Desk::new();
    d.write("wide", 4, "");
    d.run("reload");
    d.play("d1 a1 b1");
    d.write("narrow", 3, "");
    let out = d.run("reload");
    assert!(out.contains("dropped: d1 a1 b1"), "{out}");
    assert!(!out.contains("redo"), "{out}");
    assert!(d.run("redo").starts_with("error: redo: nothing to redo"));
}

#[test]
fn reload_reports_a_changed_outcome() {
    let mut d = Desk::new();
    // Now ends: two in a row wins.
    d.play("a1 a2 b1 b3");
    fs::write(
        d.toml(),
        RULEBOOK
            .replace("TITLE", "two")
            .replace("WIDTH", "3")
            .replace("k = 3", "k = 2"),
    )
    .unwrap();
    assert_eq!(
        d.run("reload"),
        "reload: after move 3 the game now ends: X wins\n\
         reload: the game keeps moves 1–3 under the new rules; dropped: b3\n\
         reload: `redo` plays the moves dropped again, as the rules allow\n"
    );
    assert_eq!(
        d.run("score"),
        "score: player 1 (X) 1, player 2 (O) 0 (1 game)\n"
    );
    // The change undone in the file, the moves dropped come back with
    // `redo` (they were lost for good).
    d.write("second", 3, "");
    assert_eq!(
        d.run("reload"),
        "reload: after move 3 the game no longer ends (it was X wins): to move: O\n\
         reload: every move is kept, under the new rules\n"
    );
    assert_eq!(d.run("redo"), "redone: b3\n");
    assert_eq!(d.run("history"), "1. a1 a2 2. b1 b3\n");

    // The result changes: a line now loses for its owner.
    let mut d = Desk::new();
    d.play("a1 a2 b1 b2 c1");
    d.write("misere", 3, r#"fn line_result() { "owner loses" }"#);
    assert_eq!(
        d.run("reload"),
        "reload: after move 5 the result is now O wins (was X wins)\n\
         reload: every move is kept, under the new rules\n"
    );
    assert_eq!(
        d.run("score"),
        "score: player 1 (X) 0, player 2 (O) 1 (1 game)\n"
    );

    // No longer ends: on 4×4 with K = 4, the row is one short.
    let mut d = Desk::new();
    d.play("a1 a2 b1 b2 c1");
    let four = RULEBOOK
        .replace("TITLE", "four")
        .replace("WIDTH", "4")
        .replace("k = 3", "k = 4");
    fs::write(d.toml(), four).unwrap();
    assert_eq!(
        d.run("reload"),
        "reload: after move 5 the game no longer ends (it was X wins): to move: O\n\
         reload: every move is kept, under the new rules\n"
    );
    assert_eq!(
        d.run("score"),
        "score: player 1 (X) 0, player 2 (O) 0 (0 games)\n"
    );
    d.play("d4");
    assert_eq!(d.run("status"), "to move: X\n");
}

#[test]
fn reload_of_a_broken_file_changes_nothing() {
    let mut d = Desk::new();
    d.play("a1 b2");
    fs::write(d.toml(), "name = \"edited\"\ntitle = \"x\"\nscript = \"edited.rhai\"\n[board]\nwidht = 3\nheight = 3\n").unwrap();
    let out = d.run("reload");
    assert!(out.starts_with("error: "), "{out}");
    assert!(out.contains("did you mean `width`?"), "{out}");
    assert!(
        out.ends_with(
            "error: reload: nothing changed: the game goes on under the rules loaded before\n"
        ),
        "{out}"
    );
    d.write("first", 3, "fn wins(run) {");
    let out = d.run("reload");
    assert!(
        out.starts_with("error: ") && out.contains("edited.rhai"),
        "{out}"
    );
    assert_eq!(d.run("history"), "1. a1 b2\n");
    assert!(d.run("rules").starts_with("edited — first\n"));
    // `new <file>` reads the file again too, refused alike while it is broken.
    assert!(
        d.run(&format!("new {}", d.toml().display()))
            .starts_with("error: ")
    );
    assert_eq!(d.run("history"), "1. a1 b2\n");
    d.write("third", 3, "");
    let out = d.run(&format!("new {}", d.toml().display()));
    assert!(out.starts_with("new game: edited — third\n"), "{out}");
}

#[test]
fn reload_of_a_builtin_says_there_is_no_file() {
    let r = common::run_in(Path::new("."), &["--batch"], "b2\nreload\nhistory\n");
    assert_eq!(
        r.out,
        "error: reload: `classic` is built in, with no file to read again: `new-variant my-classic --from classic` writes a copy to edit\n1. b2\n"
    );
}

/// `load popout` where no file `popout` is: the player meant the built-in,
/// and the game before stays.
#[test]
fn load_of_a_builtin_name_points_to_new() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run_in(dir.path(), &["--batch"], "b2\nload popout\nhistory\n");
    assert_eq!(
        r.out,
        "error: load: `popout` is a built-in rulebook, not a file: `new popout` starts a game on it (`load` reads a .toml file)\n1. b2\n"
    );
}

#[test]
fn reload_replays_a_set_up_game_from_its_position() {
    let mut d = Desk::new();
    assert!(!d.run("setup X2/1O1/3 X").contains("error:"));
    d.play("a1");
    d.write("again", 3, "");
    assert_eq!(d.run("reload"), "reload: same game (1 move replayed)\n");
    assert_eq!(d.run("position"), "X2/1O1/X2 O - -\n");
}

#[test]
fn check_watch_checks_again_after_each_change() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    new_variant("w", None, dir.path()).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_gridrules"))
        .args(["check", "--watch", "w.toml"])
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // The lines up to the next `watching` line.
    let round = || {
        let mut lines = Vec::new();
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(30))
                .expect("a line within 30 s");
            if line.starts_with("watching ") {
                return (lines, line);
            }
            lines.push(line);
        }
    };
    let (first, watching) = round();
    assert!(
        first.contains(&"check w: 5 examples, 5 passed, 0 failed".to_string()),
        "{first:?}"
    );
    assert_eq!(
        watching,
        "watching w.rhai and w.toml for changes (Ctrl-C stops)"
    );
    let toml = dir.path().join("w.toml");
    let text = fs::read_to_string(&toml).unwrap();
    fs::write(&toml, text.replace("result: X wins\"", "result: O wins\"")).unwrap();
    let (second, _) = round();
    assert_eq!(second[0], "changed: checking again");
    assert!(
        second.contains(&"error: check: 1 example failed".to_string()),
        "{second:?}"
    );
    // A script deleted is reported, and its return noticed (an editor or
    // `git checkout` may delete a file and write it again).
    let script = dir.path().join("w.rhai");
    let good = fs::read_to_string(&script).unwrap();
    fs::remove_file(&script).unwrap();
    let (gone, watching) = round();
    assert!(
        gone.iter().any(|l| l.contains("script `w.rhai` not found")),
        "{gone:?}"
    );
    assert!(watching.contains("w.rhai"), "{watching}");
    fs::write(&script, &good).unwrap();
    let (back, _) = round();
    assert!(
        back.contains(&"error: check: 1 example failed".to_string()),
        "{back:?}"
    );
    // A broken script is reported, and watched for its fix.
    fs::write(&script, "fn lines( {").unwrap();
    let (third, _) = round();
    assert!(
        third
            .iter()
            .any(|l| l.starts_with("error: ") && l.contains("w.rhai")),
        "{third:?}"
    );
    // A module the script imports is watched too, and its change checked
    // (it was not: an author's edit there went unseen).
    fs::write(dir.path().join("helpers.rhai"), "fn k() { 3 }\n").unwrap();
    fs::write(&script, format!("import \"helpers\" as h;\n{good}")).unwrap();
    let (fourth, watching) = round();
    assert!(
        fourth.contains(&"error: check: 1 example failed".to_string()),
        "{fourth:?}"
    );
    assert!(watching.contains("helpers.rhai"), "{watching}");
    fs::write(dir.path().join("helpers.rhai"), "fn k( {\n").unwrap();
    let (fifth, _) = round();
    assert!(
        fifth
            .iter()
            .any(|l| l.starts_with("error: ") && l.contains("helpers.rhai")),
        "{fifth:?}"
    );
    child.kill().unwrap();
    child.wait().unwrap();
}

/// The template's off-board refusal names the board by `{grid}`: after the
/// author widens it, the refusal says the new size, not "3×3" (it did).
#[test]
fn the_templates_off_board_refusal_follows_the_board_size() {
    let dir = tempfile::tempdir().unwrap();
    let made = common::run_in(dir.path(), &["new-variant", "wide"], "");
    assert_eq!(made.code, 0, "{}{}", made.out, made.err);
    let path = dir.path().join("wide.toml");
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains("width = 3"), "{text}");
    fs::write(&path, text.replace("width = 3", "width = 4")).unwrap();
    let played = common::run_in(dir.path(), &["--rules", "wide.toml", "--batch"], "e1\n");
    assert!(
        played.out.contains("e1 is off the board: it is 4×3"),
        "{}{}",
        played.out,
        played.err
    );
}

/// A name a hook gets wrong is matched against what a script can write:
/// a method, not the engine's accessor behind a property (`get$mark`),
/// and a property against the properties (issue 26, item 11).
#[test]
fn did_you_mean_names_only_what_a_script_can_write() {
    let mut d = Desk::new();
    d.write(
        "methods",
        3,
        "fn refuse(state, mv) { if state.mrak(mv.to) == () { () } }",
    );
    d.run("reload");
    let out = d.run("b2");
    assert!(out.contains("did you mean `mark`?"), "{out}");
    assert!(!out.contains('$'), "{out}");
    // The issue's own: no `get$mark` for a setter nobody can call.
    d.write(
        "setter",
        3,
        "fn refuse(state, mv) { state.set_mark(mv.to, 1); () }",
    );
    d.run("reload");
    let out = d.run("b2");
    assert!(out.contains("set_mark"), "{out}");
    assert!(!out.contains('$'), "{out}");
    d.write(
        "fields",
        3,
        "fn refuse(state, mv) { if mv.frm == 1 { () } }",
    );
    d.run("reload");
    let out = d.run("b2");
    assert!(out.contains("did you mean `from`?"), "{out}");
    assert!(!out.contains('$'), "{out}");
    // The right name with the wrong arguments: how it is called, not
    // "did you mean `cell`?" for `cell` itself.
    d.write(
        "arguments",
        3,
        "fn refuse(state, mv) { if mv.to == cell(\"c3\") { () } }",
    );
    d.run("reload");
    let out = d.run("b2");
    assert!(out.contains("it is called as `cell(i64, i64)`"), "{out}");
    assert!(!out.contains("did you mean"), "{out}");
    // A method of the state is shown as the hooks call it, not with
    // Rust's `&mut State`.
    d.write(
        "state method",
        3,
        "fn refuse(state, mv) { if state.mark(1, 2, 3) == \"X\" { () } }",
    );
    d.run("reload");
    let out = d.run("b2");
    assert!(out.contains("it is called as `mark(state, i64)`"), "{out}");
    assert!(!out.contains("&mut"), "{out}");
}

/// A misspelt script beside a rulebook named without a folder (`check
/// my-game.toml`) is named from the files there: the folder was read as
/// "" and listed nothing. A wrong extension gets the same hint.
#[test]
fn a_misspelt_script_is_named_from_the_files_beside_the_rulebook() {
    let dir = tempfile::tempdir().unwrap();
    let made = common::run_in(dir.path(), &["new-variant", "my-game"], "");
    assert_eq!(made.code, 0, "{}{}", made.out, made.err);
    let toml = dir.path().join("my-game.toml");
    let text = fs::read_to_string(&toml).unwrap();
    for typo in ["my-gam.rhai", "my-game.rhia"] {
        let wrong = text.replace("script = \"my-game.rhai\"", &format!("script = \"{typo}\""));
        assert_ne!(wrong, text, "the template names its script");
        fs::write(&toml, wrong).unwrap();
        let checked = common::run_in(dir.path(), &["check", "my-game.toml"], "");
        assert!(
            checked.err.contains("did you mean `my-game.rhai`?"),
            "{typo}: {}",
            checked.err
        );
    }
}
