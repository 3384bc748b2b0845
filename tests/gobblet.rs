//! Gobblet Gobblers' moves (GB1–GB2) against an enumeration written
//! without the engine: `tests/gobblet/moves.txt`, made by
//! `tests/perft/derive/gobblet_gobblers.py` (see `tests/gobblet/README.md`).
//! For each position it lists every legal move, the position text it leads
//! to and the result: the engine must list exactly those moves, in its
//! notation, and reach exactly those positions and results.

use gridrules_core::Rulebook;
use gridrules_core::position::MoveList;

/// One position of the file: its text and each move's line.
struct Case {
    at: String,
    position: String,
    moves: Vec<(String, String, String)>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string("gobblet/moves.txt").unwrap();
    let mut out: Vec<Case> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = format!("tests/gobblet/moves.txt:{}", n + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if let Some(position) = line.strip_prefix("position ") {
            out.push(Case {
                at,
                position: position.to_string(),
                moves: Vec::new(),
            });
            continue;
        }
        let (mv, rest) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{at}: {line}"));
        let (after, result) = rest
            .split_once(" | ")
            .unwrap_or_else(|| panic!("{at}: {line}"));
        let case = out
            .last_mut()
            .unwrap_or_else(|| panic!("{at}: a move before a position"));
        case.moves
            .push((mv.to_string(), after.to_string(), result.to_string()));
    }
    out
}

#[test]
fn moves_positions_and_results_match_an_independent_enumeration() {
    let rules = Rulebook::builtin("gobblet-gobblers").unwrap();
    let cases = cases();
    assert!(cases.len() >= 100, "only {} positions", cases.len());
    let mut moves = 0;
    for case in &cases {
        let at = &case.at;
        let pos = rules
            .parse_position(&case.position)
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(
            rules.position_text(&pos),
            case.position,
            "{at}: the text read back"
        );
        let mut legal = MoveList::new();
        rules.legal_moves(&pos, &[], &mut legal).unwrap();
        let mut listed: Vec<String> = legal.iter().map(|&m| rules.move_text(m)).collect();
        listed.sort();
        let want: Vec<&str> = case.moves.iter().map(|(m, _, _)| m.as_str()).collect();
        assert_eq!(listed, want, "{at}: the legal moves");
        for (text, after, result) in &case.moves {
            let mv = rules.parse_move(&pos, &[], text).unwrap();
            let next = rules
                .play(&pos, &[], mv)
                .unwrap_or_else(|e| panic!("{at}: {text}: {e}"));
            assert_eq!(&rules.position_text(&next), after, "{at}: after {text}");
            let got = next.outcome().map_or("-".to_string(), |o| o.to_string());
            assert_eq!(&got, result, "{at}: the result after {text}");
            // The text of the position it leads to reads back to it.
            if !next.is_over() {
                let read = rules.parse_position(after).unwrap();
                assert!(read.same_state(&next), "{at}: {after} read back");
            }
            moves += 1;
        }
    }
    assert!(moves > 1000, "only {moves} moves compared");
}
