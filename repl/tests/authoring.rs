//! Authoring commands: `new-variant` writes files that pass `check` at once
//! and refuses without leaving anything behind.

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
    let checked = common::run_in(dir.path(), &["check", "my-game.toml"], "");
    assert_eq!(checked.code, 0, "{}{}", checked.out, checked.err);
    assert!(!checked.out.contains("warning"), "{}", checked.out);
    // The transcript replays in batch mode from that directory.
    let transcript = fs::read_to_string(dir.path().join("my-game.txt")).unwrap();
    assert!(transcript.starts_with("# rulebook: my-game\n# covers: MG2\n"));
    let replayed = common::run_in(dir.path(), &["--batch"], &transcript);
    assert_eq!(
        replayed.out.lines().skip(2).collect::<Vec<_>>(),
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
        let replayed = common::run_in(dir.path(), &["--batch"], &transcript);
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
    assert!(matches!(
        refused("My_Game", None),
        ScaffoldError::BadName(_)
    ));
    assert!(matches!(refused("", None), ScaffoldError::BadName(_)));
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
