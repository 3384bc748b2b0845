//! Perft tables (`tests/perft/*.perft`), in shakmaty's style: each line is
//! printed before it is checked, and lines above a node limit are left to the
//! `--ignored` run.

use gridrules_core::Rulebook;
use gridrules_core::perft::{count_games, perft};
use std::path::Path;

/// Above this count a line is skipped unless the test is run with `--ignored`.
const QUICK_LIMIT: u64 = 20_000_000;

fn run_perft_file(path: &Path, min: u64, max: u64) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut rules = None;
    let mut pos = None;
    let mut checked = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = format!("{}:{}", path.display(), n + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "rulebook" => rules = Some(Rulebook::builtin(rest).unwrap()),
            "position" => {
                let r = rules.as_ref().expect("rulebook before position");
                pos = Some(
                    r.parse_position(rest)
                        .unwrap_or_else(|e| panic!("{at}: {e}")),
                );
            }
            "perft" => {
                let (depth, want) = rest.split_once(' ').unwrap();
                let (depth, want): (u32, u64) = (depth.parse().unwrap(), want.parse().unwrap());
                if want < min || want > max {
                    continue;
                }
                println!("{at}: {line}");
                let got = perft(rules.as_ref().unwrap(), pos.as_ref().unwrap(), depth).unwrap();
                assert_eq!(got, want, "{at}: perft {depth}");
                checked += 1;
            }
            "games" => {
                let want: Vec<u64> = rest.split(' ').map(|v| v.parse().unwrap()).collect();
                if want[0] > max {
                    continue;
                }
                println!("{at}: {line}");
                let g = count_games(rules.as_ref().unwrap(), pos.as_ref().unwrap()).unwrap();
                assert_eq!(
                    [g.total(), g.x_wins, g.o_wins, g.draws],
                    want[..],
                    "{at}: games"
                );
                checked += 1;
            }
            other => panic!("{at}: unknown key `{other}`"),
        }
    }
    checked
}

fn quick(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("perft")
        .join(format!("{name}.perft"));
    assert!(
        run_perft_file(&path, 0, QUICK_LIMIT) > 0,
        "{name}: nothing checked"
    );
}

#[test]
fn perft_classic() {
    quick("classic");
}

#[test]
fn perft_four() {
    quick("four");
}

#[test]
fn perft_gomoku() {
    quick("gomoku");
}

#[test]
fn perft_ultimate() {
    quick("ultimate");
}

#[test]
#[ignore = "deep perft lines take minutes; run with --ignored"]
fn perft_deep() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft");
    for entry in std::fs::read_dir(dir).unwrap() {
        run_perft_file(&entry.unwrap().path(), QUICK_LIMIT + 1, u64::MAX);
    }
}
