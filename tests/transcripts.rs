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

/// Every table rule (G4–G8, T1–T3, U9) has a transcript that shows it.
#[test]
fn every_table_rule_has_a_transcript() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("transcripts");
    let mut covered = BTreeSet::new();
    for rulebook in std::fs::read_dir(&dir).unwrap() {
        for file in std::fs::read_dir(rulebook.unwrap().path()).unwrap() {
            let text = std::fs::read_to_string(file.unwrap().path()).unwrap();
            covered.extend(Header::parse(&text).covers);
        }
    }
    let wanted = ["G4", "G5", "G6", "G7", "G8", "T1", "T2", "T3", "U9"];
    let missing: Vec<&str> = wanted
        .iter()
        .copied()
        .filter(|id| !covered.contains(*id))
        .collect();
    assert!(missing.is_empty(), "no transcript covers {missing:?}");
}
