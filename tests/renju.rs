//! Renju's forbidden moves (RJ2) against an enumeration written without the
//! engine: `tests/renju/forbidden.txt`, made by
//! `python3 tests/perft/derive/renju.py positions 300 1` — 21 positions built
//! by hand (a three that does not count because its straight-four point is
//! itself forbidden, a five that also makes a double four, double fours on one
//! line, threes that are blocked or split, recursion two levels deep) and 300
//! dense random ones. Each line lists, for X to move, the empty cells of each
//! verdict; every other empty cell is allowed.

use gridrules_core::Rulebook;
use gridrules_core::position::MoveList;
use gridrules_core::rules::PlayError;
use std::collections::BTreeMap;

/// The refusal key of each kind the file lists (`five` is a win, not a refusal).
const KINDS: [(&str, &str); 3] = [
    ("overline", "overline"),
    ("double-four", "double_four"),
    ("double-three", "double_three"),
];

#[test]
fn forbidden_moves_match_an_independent_enumeration() {
    let rules = Rulebook::builtin("renju").unwrap();
    let text = std::fs::read_to_string("renju/forbidden.txt").unwrap();
    let mut checked = 0;
    let mut forbidden = 0;
    for (n, line) in text.lines().enumerate() {
        let at = format!("tests/renju/forbidden.txt:{}", n + 1);
        let mut fields = line.split(" | ");
        let setup = fields.next().unwrap();
        let lists: BTreeMap<&str, Vec<&str>> = fields
            .map(|f| {
                let (kind, cells) = f.split_once(": ").unwrap();
                let cells = cells.split(' ').filter(|c| *c != "-").collect();
                (kind, cells)
            })
            .collect();
        let pos = rules
            .parse_position(setup)
            .unwrap_or_else(|e| panic!("{at}: {e}"));
        let g = rules.grid();
        let mut legal = MoveList::new();
        rules.legal_moves(&pos, &[], &mut legal).unwrap();
        let legal: Vec<String> = legal
            .iter()
            .filter_map(|m| m.to())
            .map(|c| g.name(c).to_string())
            .collect();
        let empty: Vec<String> = (0..g.len())
            .map(|i| gridrules_core::geometry::Cell(i as u16))
            .filter(|&c| pos.mark_at(c).is_none())
            .map(|c| g.name(c).to_string())
            .collect();
        let mut refused: Vec<&str> = Vec::new();
        for (kind, key) in KINDS {
            for &cell in &lists[kind] {
                let mv = rules.parse_move(&pos, &[], cell).unwrap();
                match rules.check(&pos, &[], mv) {
                    Err(PlayError::Refused { refusal, .. }) => {
                        assert_eq!(refusal.key(), key, "{at}: {cell} should be a {kind}")
                    }
                    other => panic!("{at}: {cell} should be a {kind}, got {other:?}"),
                }
                refused.push(cell);
                forbidden += 1;
            }
        }
        for &cell in &lists["five"] {
            let mv = rules.parse_move(&pos, &[], cell).unwrap();
            let after = rules
                .play(&pos, &[], mv)
                .unwrap_or_else(|e| panic!("{at}: {cell}: {e:?}"));
            assert_eq!(
                after.outcome().and_then(|o| o.winner()),
                Some(gridrules_core::position::Side::X),
                "{at}: {cell} makes exactly five"
            );
        }
        let want: Vec<&String> = empty
            .iter()
            .filter(|c| !refused.contains(&c.as_str()))
            .collect();
        let got: Vec<&String> = legal.iter().collect();
        assert_eq!(got, want, "{at}: legal moves for X");
        checked += 1;
    }
    assert_eq!(checked, 321, "every position of the file");
    assert!(
        forbidden > 1000,
        "the file exercises the patterns: {forbidden}"
    );
}

/// The refusal names each pattern's marks, a split three's far mark
/// included (`e8 g8 h8`, not `g8 h8`: it once stopped at the gap).
#[test]
fn a_refusal_lists_every_mark_of_each_three() {
    let rules = Rulebook::builtin("renju").unwrap();
    for (setup, three) in [
        (
            "15/15/15/15/15/15/15/4X1X8/7X7/7X7/15/15/15/15/O1O1O1O8 X",
            "e8 g8 h8",
        ),
        (
            "15/15/15/15/15/15/15/6X2X5/7X7/7X7/15/15/15/15/O1O1O1O8 X",
            "g8 h8 j8",
        ),
    ] {
        let pos = rules.parse_position(setup).unwrap();
        let mv = rules.parse_move(&pos, &[], "h8").unwrap();
        let Err(PlayError::Refused { reason, .. }) = rules.check(&pos, &[], mv) else {
            panic!("{setup}: h8 is a double three");
        };
        assert!(
            reason.contains(&format!("{three} and h6 h7 h8")),
            "{setup}: {reason}"
        );
    }
}
