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

/// The rule statement IDs of `docs/rules.md`: each list item that starts
/// with an ID (`- C3 A full board …`), in the page's order.
fn rule_ids() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/rules.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut ids: Vec<String> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(item) = line.strip_prefix("- ") else {
            continue;
        };
        let word = item.split_whitespace().next().unwrap_or("");
        if !gridrules_core::rulebook::is_rule_id(word) {
            continue;
        }
        assert!(
            !ids.iter().any(|id| id == word),
            "{}:{}: `{word}` is stated twice",
            path.display(),
            n + 1
        );
        ids.push(word.to_string());
    }
    ids
}

/// The IDs of `tests/rule-exemptions.txt` that no transcript has to cover,
/// each with its reason (`PG1  # not built yet (pentago)`).
fn exemptions() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rule-exemptions.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let (id, why) = line.split_once('#').unwrap_or((line, ""));
        let (id, why) = (id.trim(), why.trim());
        if id.is_empty() {
            continue;
        }
        assert!(
            gridrules_core::rulebook::is_rule_id(id),
            "{}:{}: `{id}` is not a rule ID",
            path.display(),
            n + 1
        );
        assert!(
            !why.is_empty(),
            "{}:{}: `{id}` needs a reason after `#`",
            path.display(),
            n + 1
        );
        out.push((id.to_string(), why.to_string()));
    }
    out
}

/// Every rule statement of `docs/rules.md` has a transcript whose
/// `# covers:` line names it, unless `tests/rule-exemptions.txt` says why
/// not; every ID a transcript names is a rule statement; and every
/// exemption names a statement that no transcript covers.
#[test]
fn every_rule_has_a_transcript() {
    let ids = rule_ids();
    assert!(
        ids.len() >= 60,
        "docs/rules.md states too few rules: {ids:?}"
    );
    let exempt = exemptions();
    for (id, why) in &exempt {
        assert!(
            ids.contains(id),
            "tests/rule-exemptions.txt exempts `{id}` ({why}), which docs/rules.md does not state"
        );
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("transcripts");
    let mut covered = BTreeSet::new();
    for rulebook in std::fs::read_dir(&dir).unwrap() {
        for file in std::fs::read_dir(rulebook.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for id in Header::parse(&text).covers {
                assert!(
                    ids.contains(&id),
                    "{}: covers `{id}`, which docs/rules.md does not state",
                    path.display()
                );
                covered.insert(id);
            }
        }
    }
    let stale: Vec<&String> = exempt
        .iter()
        .map(|(id, _)| id)
        .filter(|id| covered.contains(*id))
        .collect();
    assert!(
        stale.is_empty(),
        "transcripts cover {stale:?}: take them off tests/rule-exemptions.txt"
    );
    let missing: Vec<&String> = ids
        .iter()
        .filter(|id| !covered.contains(*id) && !exempt.iter().any(|(e, _)| e == *id))
        .collect();
    assert!(missing.is_empty(), "no transcript covers {missing:?}");
}
