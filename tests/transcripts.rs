//! Batch-mode transcripts (`tests/transcripts/<rulebook>/*.txt`), replayed
//! and snapshotted with insta. Each transcript's `# covers:` header names the
//! rule statements it shows; `cargo insta review` accepts a deliberate change.

use std::collections::BTreeSet;
use std::path::Path;

/// The `# rulebook:` and `# covers:` header of a transcript.
#[derive(Debug)]
struct Header {
    rulebook: String,
    covers: Vec<String>,
    summary: String,
}

impl Header {
    fn parse(text: &str) -> Header {
        let mut header = Header {
            rulebook: String::new(),
            covers: Vec::new(),
            summary: String::new(),
        };
        for line in text.lines().take_while(|l| l.starts_with('#')) {
            let line = line.trim_start_matches('#').trim();
            if let Some(r) = line.strip_prefix("rulebook:") {
                header.rulebook = r.trim().to_string();
            } else if let Some(c) = line.strip_prefix("covers:") {
                header.covers = c.split_whitespace().map(str::to_string).collect();
            } else {
                if !header.summary.is_empty() {
                    header.summary.push(' ');
                }
                header.summary.push_str(line);
            }
        }
        header
    }
}

#[test]
fn transcripts() {
    insta::glob!("transcripts/**/*.txt", |path| {
        let input = std::fs::read_to_string(path).unwrap();
        let header = Header::parse(&input);
        assert!(
            !header.rulebook.is_empty(),
            "{}: no `# rulebook:` line",
            path.display()
        );
        assert!(
            !header.covers.is_empty(),
            "{}: no `# covers:` line",
            path.display()
        );
        let dir = path
            .parent()
            .and_then(Path::file_name)
            .unwrap()
            .to_string_lossy();
        assert_eq!(
            dir,
            header.rulebook,
            "{}: filed under the wrong rulebook",
            path.display()
        );
        let output = gridrules::batch::replay(&input);
        insta::with_settings!({
            description => format!("covers {}: {}", header.covers.join(" "), header.summary),
            omit_expression => true,
        }, {
            insta::assert_snapshot!(output);
        });
    });
}

/// The rule statement IDs listed in `tests/rule-ids.txt` (RULES.md's IDs:
/// the shared digest is not in the repository), with those marked
/// `# exempt: <why>` apart.
fn rule_ids() -> (Vec<String>, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rule-ids.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut wanted, mut exempt) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let (id, comment) = line.split_once('#').unwrap_or((line, ""));
        let id = id.trim();
        if id.is_empty() {
            continue;
        }
        assert!(
            id.chars().all(|c| c.is_ascii_alphanumeric()),
            "{}:{}: `{id}` is not a rule ID",
            path.display(),
            n + 1
        );
        if comment.trim_start().starts_with("exempt:") {
            exempt.push(id.to_string());
        } else {
            wanted.push(id.to_string());
        }
    }
    (wanted, exempt)
}

/// Every rule statement (each ID in `tests/rule-ids.txt` not marked exempt)
/// has a transcript whose `# covers:` line names it, and every ID a
/// transcript names is a rule statement.
#[test]
fn every_rule_has_a_transcript() {
    let (wanted, exempt) = rule_ids();
    assert!(wanted.len() >= 40, "tests/rule-ids.txt lists too few IDs");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("transcripts");
    let mut covered = BTreeSet::new();
    for rulebook in std::fs::read_dir(&dir).unwrap() {
        for file in std::fs::read_dir(rulebook.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for id in Header::parse(&text).covers {
                assert!(
                    wanted.contains(&id) || exempt.contains(&id),
                    "{}: covers `{id}`, which tests/rule-ids.txt does not list",
                    path.display()
                );
                covered.insert(id);
            }
        }
    }
    let missing: Vec<&String> = wanted.iter().filter(|id| !covered.contains(*id)).collect();
    assert!(missing.is_empty(), "no transcript covers {missing:?}");
}
