//! The rulebooks' documented examples (`[[example]]`, run by `gridrules
//! check`), and the proof that the suite catches broken rules: every broken
//! copy listed in `tests/broken.txt` must fail both its examples and its
//! transcripts.

use gridrules_core::{Rulebook, builtin, check};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every example of every built-in rulebook passes.
#[test]
fn builtin_examples_pass() {
    for name in Rulebook::builtin_names() {
        let rules = Arc::new(Rulebook::builtin(name).unwrap());
        for c in check::run(&rules) {
            assert!(
                c.failure.is_none(),
                "{name} {} ({}): {}",
                c.example.rule,
                c.example.location,
                c.failure.unwrap()
            );
        }
    }
}

/// The rule IDs a text names, like `(C3)`, `(M4, M8)` or `(CF2)`.
fn ids_in(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| gridrules_core::rulebook::is_rule_id(w))
        .map(str::to_string)
        .collect()
}

/// Every rule a built-in rulebook's description names has an example,
/// except those listed (with the reason) in `tests/example-exemptions.txt`.
#[test]
fn every_documented_rule_has_an_example() {
    let exemptions = std::fs::read_to_string(tests_dir().join("example-exemptions.txt")).unwrap();
    let exempt: BTreeSet<(String, String)> = exemptions
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            (
                words.next().unwrap().to_string(),
                words.next().unwrap().to_string(),
            )
        })
        .collect();
    let mut missing = Vec::new();
    for name in Rulebook::builtin_names() {
        let rules = Rulebook::builtin(name).unwrap();
        let shown: BTreeSet<String> = rules.examples().iter().map(|e| e.rule.clone()).collect();
        for id in ids_in(rules.description().unwrap_or_default()) {
            if !shown.contains(&id) && !exempt.contains(&(name.to_string(), id.clone())) {
                missing.push(format!("{name} {id}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "documented rules without an example: {missing:?}"
    );
}

/// One line of `tests/broken.txt`.
struct Broken {
    rulebook: String,
    in_script: bool,
    find: String,
    replace: String,
    what: String,
    line: usize,
}

fn broken_list() -> Vec<Broken> {
    let text = std::fs::read_to_string(tests_dir().join("broken.txt")).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(" | ").map(str::trim).collect();
            assert_eq!(f.len(), 5, "broken.txt:{}: five fields", i + 1);
            Broken {
                rulebook: f[0].to_string(),
                in_script: match f[1] {
                    "toml" => false,
                    "script" => true,
                    other => panic!("broken.txt:{}: `{other}`: toml or script", i + 1),
                },
                find: f[2].to_string(),
                replace: f[3].to_string(),
                what: f[4].to_string(),
                line: i + 1,
            }
        })
        .collect()
}

fn replace_once(text: &str, b: &Broken) -> String {
    assert_eq!(
        text.matches(&b.find).count(),
        1,
        "broken.txt:{}: `{}` must occur exactly once in the {} of {}",
        b.line,
        b.find,
        if b.in_script { "script" } else { "rulebook" },
        b.rulebook
    );
    text.replacen(&b.find, &b.replace, 1)
}

/// Writes the broken copy into `dir` and returns its rulebook path. The script
/// is written beside it under the name the rulebook uses, which takes
/// precedence over a built-in of that name.
fn write_broken(b: &Broken, dir: &Path) -> (PathBuf, String) {
    let (toml, script_dir, name) = if b.rulebook.ends_with(".toml") {
        let path = tests_dir().join(&b.rulebook);
        let toml = std::fs::read_to_string(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        (toml, path.parent().map(Path::to_path_buf), stem)
    } else {
        (
            builtin::rulebook(&b.rulebook).unwrap().to_string(),
            None,
            b.rulebook.clone(),
        )
    };
    let script_line = toml.lines().find(|l| l.starts_with("script")).unwrap();
    let script_name = script_line.split('"').nth(1).unwrap().to_string();
    let script = script_dir
        .and_then(|d| std::fs::read_to_string(d.join(&script_name)).ok())
        .or_else(|| builtin::script(&script_name).map(str::to_string))
        .unwrap();
    let (toml, script) = if b.in_script {
        (toml, replace_once(&script, b))
    } else {
        (replace_once(&toml, b), script)
    };
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, toml).unwrap();
    std::fs::write(dir.join(&script_name), script).unwrap();
    (path, name)
}

/// A transcript's output without the lines that name how the rulebook was
/// loaded (the broken copy is loaded from a file, the original by name).
fn normalized(output: &str) -> String {
    output
        .lines()
        .filter(|l| {
            !(l.starts_with("> new ")
                || l.starts_with("> load ")
                || l.starts_with("new game:")
                || l.starts_with("X: "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The stored snapshot of a transcript (insta's file, without its header).
fn snapshot_of(rulebook_dir: &str, file: &str) -> String {
    let path = tests_dir().join("snapshots").join(format!(
        "transcripts__transcripts@{rulebook_dir}__{file}.snap"
    ));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let body = text.splitn(3, "---\n").nth(2).unwrap_or_default();
    body.to_string()
}

/// Whether the rulebook written at `path` fails its examples, and whether it
/// fails its transcripts (replayed with it loaded in place of the original).
fn caught(path: &Path, name: &str, line: usize) -> (bool, bool) {
    let rules = Rulebook::from_file(path)
        .unwrap_or_else(|e| panic!("broken.txt:{line}: the copy must still load: {e}"));
    let examples_fail = check::run(&Arc::new(rules))
        .iter()
        .any(|c| c.failure.is_some());
    let transcripts = tests_dir().join("transcripts").join(name);
    let mut transcripts_fail = false;
    for entry in
        std::fs::read_dir(&transcripts).unwrap_or_else(|e| panic!("{}: {e}", transcripts.display()))
    {
        let file = entry.unwrap().path();
        let text = std::fs::read_to_string(&file).unwrap();
        let load = format!("load {}", path.display());
        let body: Vec<String> = text
            .lines()
            .map(|l| {
                let loads_it = l == format!("new {name}")
                    || (l.starts_with("load ") && l.ends_with(&format!("{name}.toml")));
                if loads_it {
                    load.clone()
                } else {
                    l.to_string()
                }
            })
            .collect();
        let output = gridrules::batch::replay(&format!("{load}\n{}\n", body.join("\n")));
        let file_name = file.file_name().unwrap().to_string_lossy().to_string();
        if normalized(&output) != normalized(&snapshot_of(name, &file_name)) {
            transcripts_fail = true;
        }
    }
    (examples_fail, transcripts_fail)
}

#[test]
fn every_broken_rulebook_fails_its_examples_and_transcripts() {
    let scratch = tempfile::tempdir().unwrap();
    let mut uncaught = Vec::new();
    for (i, b) in broken_list().iter().enumerate() {
        let (path, name) = write_broken(b, &scratch.path().join(i.to_string()));
        let (examples_fail, transcripts_fail) = caught(&path, &name, b.line);
        if !examples_fail || !transcripts_fail {
            uncaught.push(format!(
                "broken.txt:{} ({}: {}): examples {}, transcripts {}",
                b.line,
                b.rulebook,
                b.what,
                if examples_fail { "fail" } else { "PASS" },
                if transcripts_fail { "fail" } else { "PASS" }
            ));
        }
    }
    assert!(
        uncaught.is_empty(),
        "broken rules the suite does not catch:\n{}",
        uncaught.join("\n")
    );
}

/// The control: the same copies with the replacement undone pass both, so a
/// failure above comes from the broken rule, not from the harness.
#[test]
fn unbroken_copies_pass_their_examples_and_transcripts() {
    let scratch = tempfile::tempdir().unwrap();
    for (i, mut b) in broken_list().into_iter().enumerate() {
        b.replace = b.find.clone();
        let (path, name) = write_broken(&b, &scratch.path().join(i.to_string()));
        assert_eq!(
            caught(&path, &name, b.line),
            (false, false),
            "broken.txt:{}: the unbroken copy",
            b.line
        );
    }
}
