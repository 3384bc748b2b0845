//! Bad input: rulebooks and scripts that must be refused with a clear, located
//! message (minijinja's `err_*.txt` suite).
//!
//! * `rulebooks/err_*.toml` (+ `.rhai`): one broken input per file, refused at
//!   load. The snapshot is the error as the REPL draws it: per problem, the
//!   `path:line:col: message` line, the source line with carets under the
//!   offending token, and the `help:` with the nearest valid name.
//!   `rulebooks/kinds.txt` lists the kinds of its problems, in order
//!   (`err_x.toml: UnknownKey MissingKey`).
//! * `rulebooks/run_*.toml` (+ `.rhai`): rulebooks that load, but whose
//!   per-move hook (`refuse` or `outcome`) fails during play. The header says
//!   which moves play fine and which move fails, how, and in which hook:
//!   ```text
//!   # play: a1 b1
//!   # then: a2 fails with Limit in outcome
//!   ```
//!
//! Paths are given relative to this package (cargo runs tests from the
//! package root), so messages and snapshots read `rulebooks/err_….toml`.

use gridrules_core::{Game, Location, MoveList, PlayError, ProblemKind, Rulebook, ScriptErrorKind};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `path` relative to this package, as it appears in messages.
fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or_else(|_| panic!("{} is not inside the tests package", path.display()))
        .to_path_buf()
}

/// The first line of a rulebook: `# what is wrong`.
fn summary(text: &str, path: &Path) -> String {
    let first = text.lines().next().unwrap_or_default();
    first
        .strip_prefix("# ")
        .unwrap_or_else(|| {
            panic!(
                "{}: the first line must be `# what is wrong`",
                path.display()
            )
        })
        .to_string()
}

/// Checks that a location points into a file that exists, at a line and
/// column that exist in it. Built-in scripts (`scripts/…`) are read from the
/// workspace root.
fn assert_points_into_file(loc: &Location, context: &str) {
    let file = if loc.path.starts_with("scripts/") || loc.path.starts_with("rules/") {
        Path::new("..").join(&loc.path)
    } else {
        PathBuf::from(&loc.path)
    };
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!("{context}: location {loc} names a file that cannot be read: {e}")
    });
    let line = text
        .lines()
        .nth(
            loc.line
                .checked_sub(1)
                .unwrap_or_else(|| panic!("{context}: line 0 in {loc}")),
        )
        .unwrap_or_else(|| panic!("{context}: {loc} is past the end of the file"));
    assert!(
        loc.col >= 1 && loc.col <= line.chars().count() + 1,
        "{context}: column of {loc} is outside line {:?}",
        line
    );
}

/// `rulebooks/kinds.txt`: each bad rulebook's file name and the kinds of
/// its problems, as `ProblemKind`'s Debug form names them.
fn expected_kinds() -> BTreeMap<String, Vec<String>> {
    let text = std::fs::read_to_string("rulebooks/kinds.txt").unwrap();
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, kinds) = l
                .split_once(':')
                .unwrap_or_else(|| panic!("kinds.txt: `{l}`: expected `<file>: <kind>…`"));
            let kinds = kinds.split_whitespace().map(str::to_string).collect();
            (name.to_string(), kinds)
        })
        .collect()
}

#[test]
fn bad_rulebooks() {
    let mut kinds = expected_kinds();
    insta::glob!("rulebooks/err_*.toml", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let rel = relative(path);
        let what = summary(&text, &rel);
        let err = match Rulebook::from_file(&rel) {
            Ok(_) => panic!(
                "{}: loaded, but it should be refused ({what})",
                rel.display()
            ),
            Err(e) => e,
        };
        assert!(
            !err.problems.is_empty(),
            "{}: an error with no problem",
            rel.display()
        );
        let name = rel.file_name().unwrap().to_string_lossy().to_string();
        let found: Vec<String> = err
            .problems
            .iter()
            .map(|p| format!("{:?}", p.kind))
            .collect();
        let expected = kinds
            .remove(&name)
            .unwrap_or_else(|| panic!("{name}: not in kinds.txt (its kinds: {found:?})"));
        assert_eq!(found, expected, "{name}: the kinds of its problems:\n{err}");
        for p in &err.problems {
            // Every input here exists, so every problem has a place to point at.
            let loc = p
                .location
                .as_ref()
                .unwrap_or_else(|| panic!("{}: problem without a location: {p}", rel.display()));
            assert_points_into_file(loc, &rel.display().to_string());
            assert!(
                !p.message.ends_with('.') && !p.message.is_empty(),
                "{}: message should be non-empty, without a trailing period: {p}",
                rel.display()
            );
        }
        insta::with_settings!({ description => what, omit_expression => true }, {
            insta::assert_snapshot!(gridrules::render::rulebook_error(&err));
        });
    });
    // A filter (`INSTA_GLOB_FILTER`) runs some files only; else none is left.
    if std::env::var_os("INSTA_GLOB_FILTER").is_none() {
        let stale: Vec<&String> = kinds.keys().collect();
        assert!(stale.is_empty(), "kinds.txt names no such file: {stale:?}");
    }
}

#[test]
fn missing_rulebook_file_has_no_location() {
    let err = Rulebook::from_file(Path::new("rulebooks/no_such_rulebook.toml")).unwrap_err();
    assert_eq!(err.problems.len(), 1);
    assert_eq!(err.problems[0].kind, ProblemKind::Io);
    assert_eq!(err.problems[0].location, None);
    insta::assert_snapshot!(err.to_string(), @"rulebooks/no_such_rulebook.toml: cannot read the rulebook: no such file");
}

/// The `# play:` and `# then:` lines of a `run_*.toml` file.
struct RunHeader {
    play: Vec<String>,
    fails: String,
    kind: ScriptErrorKind,
    hook: &'static str,
}

impl RunHeader {
    fn parse(text: &str, path: &Path) -> RunHeader {
        let field = |key: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("# {key}:")))
                .unwrap_or_else(|| panic!("{}: no `# {key}:` line", path.display()))
                .trim()
                .to_string()
        };
        let then = field("then");
        let words: Vec<&str> = then.split_whitespace().collect();
        let [fails, "fails", "with", kind, "in", hook] = words[..] else {
            panic!(
                "{}: expected `# then: <move> fails with <kind> in <hook>`",
                path.display()
            );
        };
        let kind = match kind {
            "Syntax" => ScriptErrorKind::Syntax,
            "Runtime" => ScriptErrorKind::Runtime,
            "Limit" => ScriptErrorKind::Limit,
            "BadValue" => ScriptErrorKind::BadValue,
            other => panic!("{}: unknown kind `{other}`", path.display()),
        };
        let hook = match hook {
            "refuse" => "refuse",
            "outcome" => "outcome",
            other => panic!("{}: `{other}` is not a per-move hook", path.display()),
        };
        RunHeader {
            play: field("play")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            fails: fails.to_string(),
            kind,
            hook,
        }
    }
}

#[test]
fn failing_per_move_hooks() {
    insta::glob!("rulebooks/run_*.toml", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let rel = relative(path);
        let at = rel.display().to_string();
        let what = summary(&text, &rel);
        let header = RunHeader::parse(&text, &rel);
        let rules = Arc::new(
            Rulebook::from_file(&rel).unwrap_or_else(|e| panic!("{at}: should load:\n{e}")),
        );
        assert!(rules.has_per_move_hooks(), "{at}: no per-move hook");

        let mut game = Game::new(rules.clone());
        for text in &header.play {
            let mv = game.parse_move(text).unwrap();
            game.play(mv)
                .unwrap_or_else(|e| panic!("{at}: {text} should be played: {e}"));
        }
        let before = *game.position();
        let moves_before = game.moves().to_vec();

        let mv = game.parse_move(&header.fails).unwrap();
        let err = match game.play(mv) {
            Err(PlayError::Script(e)) => e,
            Err(other) => panic!(
                "{at}: {} refused, but not by a script error: {other}",
                header.fails
            ),
            Ok(_) => panic!(
                "{at}: {} was played, but the hook should fail",
                header.fails
            ),
        };
        assert_eq!(err.kind, header.kind, "{at}: kind of {err}");
        assert_eq!(err.hook, Some(header.hook), "{at}: hook of {err}");
        // Every failure points into the script: a bad return value at the
        // hook's definition, anything else where Rhai stopped.
        let loc = err
            .location
            .as_ref()
            .unwrap_or_else(|| panic!("{at}: no location in {err}"));
        assert_eq!(
            Path::new(&loc.path),
            rel.with_extension("rhai"),
            "{at}: {err}"
        );
        assert_points_into_file(loc, &at);

        // The failed move changed nothing.
        assert_eq!(*game.position(), before, "{at}: position changed");
        assert_eq!(game.moves(), &moves_before[..], "{at}: move list changed");

        // The game is still usable: the same move fails the same way again,
        // listing moves does not panic, and undo/replay work.
        match game.play(mv) {
            Err(PlayError::Script(again)) => assert_eq!(again, err, "{at}: second failure differs"),
            other => panic!("{at}: second try gave {other:?}"),
        }
        let mut list = MoveList::new();
        let listed = rules.legal_moves(game.position(), game.moves(), &mut list);
        if header.hook == "outcome" {
            assert!(
                listed.is_ok(),
                "{at}: legal moves fail without a `refuse` hook"
            );
            assert!(
                list.contains(&mv),
                "{at}: {} should be listed",
                header.fails
            );
        }
        if let Some(last) = moves_before.last() {
            assert_eq!(game.undo(), Some(*last), "{at}: undo");
            game.play(*last)
                .unwrap_or_else(|e| panic!("{at}: replaying after undo: {e}"));
            assert_eq!(
                *game.position(),
                before,
                "{at}: replay reached another position"
            );
        }
        assert_eq!(
            game.moves(),
            &moves_before[..],
            "{at}: move list after undo and replay"
        );

        insta::with_settings!({ description => what, omit_expression => true }, {
            insta::assert_snapshot!(gridrules::render::script_error(&err));
        });
    });
}

/// Listing the moves stops at the first failing `refuse`, instead
/// of running every candidate to the operations limit.
#[test]
fn listing_moves_stops_at_the_first_failing_refuse() {
    let rules = Rulebook::from_file(Path::new("rulebooks/run_loop_refuse_wide.toml")).unwrap();
    let mut list = MoveList::new();
    let listed = rules.legal_moves(&rules.initial(), &[], &mut list);
    assert!(listed.is_err(), "the looping hook must fail");
    assert!(list.is_empty(), "a failed listing lists nothing");
    let calls = rules.script().take_output();
    assert_eq!(calls, ["refuse called"], "one candidate tried");
}

/// What a script prints is bounded, however long it loops.
#[test]
fn a_flood_of_prints_is_cut_short() {
    let rules = Rulebook::from_file(Path::new("rulebooks/run_print_each_move.toml")).unwrap();
    let mut game = Game::new(Arc::new(rules));
    let mv = game.parse_move("a1").unwrap();
    assert!(game.play(mv).is_err());
    let printed = game.rulebook().script().take_output();
    assert_eq!(printed.len(), 201, "200 lines and a note");
    assert!(
        printed[0].ends_with(" …"),
        "long lines are cut: {}",
        printed[0]
    );
    assert!(
        printed[200].contains("more than 200 lines"),
        "{}",
        printed[200]
    );
}

/// A diagnostic draws the source as it was loaded. The script is
/// changed on disk after the load; the error still shows the line that ran
/// (the renderer used to read the file again, and showed the new text).
#[test]
fn a_hook_error_draws_the_script_as_loaded_not_as_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["toml", "rhai"] {
        std::fs::copy(
            format!("rulebooks/run_runtime_outcome.{ext}"),
            dir.path().join(format!("run_runtime_outcome.{ext}")),
        )
        .unwrap();
    }
    let rules =
        Arc::new(Rulebook::from_file(&dir.path().join("run_runtime_outcome.toml")).unwrap());
    std::fs::write(
        dir.path().join("run_runtime_outcome.rhai"),
        "// edited after the load\n".repeat(40),
    )
    .unwrap();
    let mut game = Game::new(rules);
    for text in ["a1", "b1"] {
        let mv = game.parse_move(text).unwrap();
        game.play(mv).unwrap();
    }
    let mv = game.parse_move("a2").unwrap();
    let Err(PlayError::Script(err)) = game.play(mv) else {
        panic!("a2 should fail in the hook");
    };
    let drawn = gridrules::render::script_error(&err);
    assert!(
        drawn.contains("return no_such_function(state);") && !drawn.contains("edited"),
        "{drawn}"
    );
}
