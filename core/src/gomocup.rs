//! The Gomocup protocol's words (Piskvork's), for both ends gridrules
//! plays it from: `arena` managing a brain ([`crate::program`]) and the
//! `pbrain-gridrules` brain. Here are what the protocol can describe
//! ([`lacks`]), its rule bits ([`rule`]), its coordinates ([`xy`],
//! [`cell`], [`pair`]), the lines a manager sends ([`start_text`],
//! [`board_text`]) and a brain's own settings ([`Setting`]).
//!
//! ```
//! use gridrules_core::{Rulebook, gomocup};
//!
//! let rules = Rulebook::builtin("classic").unwrap();
//! // Three in a row on 3×3 is described, overlines winning: rule 0.
//! assert_eq!(gomocup::lacks(&rules), None);
//! assert_eq!(gomocup::rule(&rules), 0);
//! // Rows count from the top: a1 is the bottom left, `0,2`.
//! let a1 = rules.grid().parse_cell("a1").unwrap();
//! assert_eq!(gomocup::xy(rules.grid(), a1), (0, 2));
//! assert_eq!(gomocup::answer_cell(rules.grid(), "0,2"), Some(a1));
//! ```

use crate::geometry::{Cell, Grid};
use crate::mechanics::LineEnds;
use crate::position::{Move, MoveList, Position, Side};
use crate::rulebook::{LineResult, Marks, Rulebook};
use std::fmt;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

/// `INFO rule`'s bit for exactly five: an overline does not win.
pub const RULE_EXACT: u32 = 1;
/// `INFO rule`'s bit for a continuous game (play on after a line).
pub const RULE_CONTINUOUS: u32 = 2;
/// `INFO rule`'s bit for renju: patterns forbidden to black (X).
pub const RULE_RENJU: u32 = 4;
/// `INFO rule`'s bit for Caro: a five blocked at both ends does not win.
pub const RULE_CARO: u32 = 8;

/// Whether the program at `path` is a Gomocup brain: its file name
/// starts with `pbrain-`, as the protocol's managers expect.
pub fn is_brain(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with("pbrain-"))
}

/// What the Gomocup protocol needs of a rulebook's game and this one
/// lacks, if anything: stones placed one a turn, each side its own,
/// nothing taken off, no swap, a line winning for its owner. The brain
/// refuses such a rulebook (after dropping the pie rule: the manager runs
/// the openings), and `arena` a brain on it.
pub fn lacks(rules: &Rulebook) -> Option<&'static str> {
    let t = rules.mechanics();
    if t.marks() != Marks::Own {
        Some("each side to place its own stone")
    } else if t.line_result() != LineResult::OwnerWins {
        Some("a line to win for its owner")
    } else if !t.turns().is_alternating() {
        Some("one stone a turn")
    } else if t.has_captures() {
        Some("no captures")
    } else if t.line_ends() == LineEnds::BothOpen {
        Some(
            "a line's ends to count as Caro's do (a run blocked at both ends does not win) or not at all",
        )
    } else if rules.table().pie {
        // The swap is a move no `x,y` can say.
        Some("no swap (the pie rule)")
    } else if !t.marks_stay_where_placed() {
        Some("stones placed on any empty cell and left there")
    } else {
        None
    }
}

/// The rulebook's `INFO rule`: [`RULE_EXACT`] where a run one longer than
/// a line does not win for X, [`RULE_RENJU`] where X has forbidden
/// patterns, [`RULE_CARO`] where a run blocked at both ends does not win.
pub fn rule(rules: &Rulebook) -> u32 {
    let t = rules.mechanics();
    let mut rule = 0;
    if t.line_ends() == LineEnds::NotBothBlocked {
        rule |= RULE_CARO;
    }
    if !t.wins_run(Side::X, t.min_run() + 1) {
        rule |= RULE_EXACT;
    }
    if t.has_patterns(Side::X) {
        rule |= RULE_RENJU;
    }
    rule
}

/// What a manager tells a brain before its first move: the board, its
/// time a move, the rule, then the brain's own settings. Refused where the
/// protocol cannot describe the rulebook.
pub fn start_text(
    rules: &Rulebook,
    within: Duration,
    settings: &[Setting],
) -> Result<String, String> {
    if let Some(what) = lacks(rules) {
        return Err(format!(
            "a Gomocup brain plays rulebooks where each side places its own stone, one a turn, and nothing is taken off: the protocol needs {what}"
        ));
    }
    let mut text = format!(
        "{}\nINFO timeout_turn {}\nINFO timeout_match 0\nINFO rule {}\n",
        size_command(rules),
        within.as_millis(),
        rule(rules)
    );
    for Setting { key, value } in settings {
        text.push_str(&format!("INFO {key} {value}\n"));
    }
    Ok(text)
}

/// The command that tells a brain the board's size: `START 15`, or
/// `RECTSTART 20,12` for a board that is not square.
pub fn size_command(rules: &Rulebook) -> String {
    let (w, h) = (rules.grid().width(), rules.grid().height());
    if w == h {
        format!("START {w}")
    } else {
        format!("RECTSTART {w},{h}")
    }
}

/// The board as a brain reads it (`BOARD`, a stone a line as `x,y,field`
/// — 1 the mover's, 2 the opponent's — `DONE`), for the side to move of
/// `pos`; refused where a legal move (of `list`) is not a stone of the
/// mover's.
pub fn board_text(rules: &Rulebook, pos: &Position, list: &MoveList) -> Result<String, String> {
    let me = pos.turn();
    if !list
        .iter()
        .all(|m| matches!(*m, Move::Place { mark, .. } if mark == me))
    {
        return Err(
            "a Gomocup brain only places its own stone: this rulebook has other moves".to_string(),
        );
    }
    let mut text = String::from("BOARD\n");
    for side in [me, me.other()] {
        let field = if side == me { 1 } else { 2 };
        for c in pos.marks(side) {
            let (x, y) = xy(rules.grid(), c);
            text.push_str(&format!("{x},{y},{field}\n"));
        }
    }
    text.push_str("DONE\n");
    Ok(text)
}

/// A cell as the protocol names it, `x,y`: the column from the left and
/// the row from the top, from 0.
pub fn xy(grid: Grid, cell: Cell) -> (u32, u32) {
    (grid.col(cell), grid.height() - 1 - grid.row(cell))
}

/// The cell at the protocol's `x,y`, if it is on the board.
pub fn cell(grid: Grid, x: u32, y: u32) -> Option<Cell> {
    grid.cell(i64::from(x), i64::from(grid.height()) - 1 - i64::from(y))
}

/// `a,b` as two numbers, as the protocol writes a pair.
pub fn pair(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.split_once(',')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// The cell a brain's answer `x,y` names, if the line is one on the board.
pub fn answer_cell(grid: Grid, line: &str) -> Option<Cell> {
    let (x, y) = pair(line)?;
    cell(grid, x, y)
}

/// The `INFO` keys the match itself sets: a brain's own setting may not
/// override them, or its time and rule would differ from the match's.
const MATCH_KEYS: [(&str, &str); 3] = [
    ("timeout_turn", "from the budget"),
    ("timeout_match", "0: no clock for the whole match"),
    ("rule", "from the rulebook"),
];

/// A setting a Gomocup brain is told before its first move, written
/// `KEY=VALUE` and sent as `INFO KEY VALUE` (`MAX_DEPTH=12`,
/// `THREAD_NUM=1`, `max_node=1000000`): what holds a brain to a depth, a
/// thread or a node count, so that a match against it repeats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    key: String,
    value: String,
}

/// Whether `key` may name a setting: letters, digits and `_`.
pub fn is_setting_key(key: &str) -> bool {
    !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Setting {
    /// The key, as written.
    pub fn key(&self) -> &str {
        &self.key
    }
}

impl FromStr for Setting {
    type Err = String;

    fn from_str(s: &str) -> Result<Setting, String> {
        let Some((key, value)) = s.split_once('=') else {
            return Err(format!(
                "setting `{s}`: expected KEY=VALUE, as MAX_DEPTH=12"
            ));
        };
        if !is_setting_key(key) {
            return Err(format!(
                "setting `{s}`: a key is letters, digits and `_`, as MAX_DEPTH"
            ));
        }
        // One word on one line: a value cannot write a second command.
        if value.is_empty()
            || !value
                .chars()
                .all(|c| c.is_ascii_graphic() && c != ',' && c != '=')
        {
            return Err(format!(
                "setting `{s}`: a value is one word of printable characters, as 12"
            ));
        }
        if let Some((_, whence)) = MATCH_KEYS.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) {
            return Err(format!(
                "setting `{s}`: the match tells a brain its {key} itself ({whence})"
            ));
        }
        Ok(Setting {
            key: key.to_string(),
            value: value.to_string(),
        })
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Five in a row on `w`×`h`, with `extra` hooks.
    fn five(w: u32, h: u32, extra: &str) -> Rulebook {
        let script = format!("fn lines() {{ lines::straight(5) }}\n{extra}");
        Rulebook::scripted(&script, w, h).unwrap()
    }

    /// A brain is told the board's size, its time and the rule: 0 where an
    /// overline wins, 1 where it does not, 4 more where X has forbidden
    /// patterns, 8 more where a run blocked at both ends does not win.
    #[test]
    fn a_brain_is_told_the_board_its_time_and_the_rule() {
        let free = five(15, 15, "fn wins(run) { run >= 5 }");
        let start = start_text(&free, Duration::from_millis(1500), &[]).unwrap();
        assert_eq!(
            start,
            "START 15\nINFO timeout_turn 1500\nINFO timeout_match 0\nINFO rule 0\n"
        );
        let exact = five(20, 12, "fn wins(run) { run == 5 }");
        let start = start_text(&exact, Duration::from_secs(2), &[]).unwrap();
        assert!(start.starts_with("RECTSTART 20,12\n"), "{start}");
        assert!(start.ends_with("INFO rule 1\n"), "{start}");
        let patterned = five(
            15,
            15,
            "fn wins(run, side) { if side == \"X\" { run == 5 } else { run >= 5 } }\n\
             fn forbidden_patterns(side) { if side == \"X\" { [\"double three\"] } else { [] } }",
        );
        let start = start_text(&patterned, Duration::from_secs(1), &[]).unwrap();
        assert!(start.ends_with("INFO rule 5\n"), "{start}");
        // Caro's rule is bit 8; a rule of ends the protocol has no bit for
        // is refused.
        let caro = five(
            15,
            15,
            "fn wins(run) { run >= 5 }\nfn line_ends() { \"not both blocked\" }",
        );
        let start = start_text(&caro, Duration::from_secs(1), &[]).unwrap();
        assert!(start.ends_with("INFO rule 8\n"), "{start}");
        let open = five(
            15,
            15,
            "fn wins(run) { run >= 5 }\nfn line_ends() { \"both open\" }",
        );
        assert!(lacks(&open).is_some_and(|l| l.contains("Caro's")));
        // A rulebook the protocol cannot describe is refused.
        let moving = five(7, 6, "fn wins(run) { run >= 5 }\nfn pieces() { 4 }");
        let refused = start_text(&moving, Duration::from_secs(1), &[]).unwrap_err();
        assert!(
            refused.ends_with("stones placed on any empty cell and left there"),
            "{refused}"
        );
        // The swap of the pie rule is a move no `x,y` can say.
        let mut table = free.table().clone();
        table.pie = true;
        let swapping = free.with_table(table);
        assert_eq!(lacks(&swapping), Some("no swap (the pie rule)"));
    }

    /// Every built-in the protocol takes (its pie rule dropped, as the
    /// brain does) plays only moves an `x,y` can say: the mover's own
    /// stone on a cell, in random games to their end. Gobblet's sized
    /// pieces were once let through.
    #[test]
    fn the_protocol_takes_only_rulebooks_whose_moves_it_can_say() {
        let mut rng = crate::rng::Rng::new(7);
        let mut taken = Vec::new();
        for name in Rulebook::builtin_names() {
            let rules = Rulebook::builtin(name).unwrap();
            let mut table = rules.table().clone();
            table.pie = false;
            let rules = rules.with_table(table);
            if lacks(&rules).is_some() {
                continue;
            }
            taken.push(name);
            let mut list = MoveList::new();
            for _ in 0..5 {
                let mut pos = rules.initial();
                while !pos.is_over() {
                    let Some(mv) = rules.random_move(&pos, &[], &mut rng, &mut list).unwrap()
                    else {
                        break;
                    };
                    assert!(
                        matches!(mv, Move::Place { mark, .. } if mark == pos.turn()),
                        "{name}: {mv:?}"
                    );
                    rules.apply(&mut pos, &[], mv).unwrap();
                }
            }
        }
        for name in [
            "gobblet-gobblers",
            "nine-mens-morris",
            "connect-four",
            "pentago",
        ] {
            assert!(!taken.contains(&name), "{name} was taken");
        }
        assert!(taken.contains(&"renju") && taken.len() >= 2, "{taken:?}");
    }

    /// A brain's own settings follow the match's `INFO` lines, one a line;
    /// a setting that is not one word, or would change the match's time or
    /// rule, is refused.
    #[test]
    fn a_brain_is_told_its_settings_after_the_match_lines() {
        let free = five(15, 15, "fn wins(run) { run >= 5 }");
        let settings: Vec<Setting> = ["MAX_DEPTH=12", "THREAD_NUM=1"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let start = start_text(&free, Duration::from_secs(2), &settings).unwrap();
        assert!(
            start.ends_with("INFO rule 0\nINFO MAX_DEPTH 12\nINFO THREAD_NUM 1\n"),
            "{start}"
        );
        assert_eq!(settings[0].to_string(), "MAX_DEPTH=12");
        for (bad, why) in [
            ("MAX_DEPTH", "expected KEY=VALUE"),
            ("=12", "a key is"),
            ("MAX DEPTH=1", "a key is"),
            ("MAX_DEPTH=", "a value is"),
            ("MAX_DEPTH=1 2", "a value is"),
            ("MAX_DEPTH=1\nBEGIN", "a value is"),
            ("MAX_DEPTH=1=2", "a value is"),
            ("Timeout_Turn=5", "tells a brain its Timeout_Turn itself"),
            ("rule=1", "tells a brain its rule itself"),
        ] {
            let e = bad.parse::<Setting>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    /// The board goes as `x,y,field` from the mover's side (1 its own, 2
    /// the opponent's), rows counted from the top; an answer `x,y` reads
    /// back as the cell it names, and one off the board as none.
    #[test]
    fn the_board_goes_from_the_top_and_answers_read_back() {
        let rules = five(15, 15, "fn wins(run) { run >= 5 }");
        let mut pos = rules.initial();
        for m in ["a1", "o15"] {
            let mv = rules.parse_move(&pos, &[], m).unwrap();
            pos = rules.play(&pos, &[], mv).unwrap();
        }
        let mut list = MoveList::new();
        rules.legal_moves(&pos, &[], &mut list).unwrap();
        assert_eq!(
            board_text(&rules, &pos, &list).unwrap(),
            "BOARD\n0,14,1\n14,0,2\nDONE\n"
        );
        let grid = rules.grid();
        let a1 = grid.parse_cell("a1").unwrap();
        assert_eq!(answer_cell(grid, "0,14"), Some(a1));
        assert_eq!(xy(grid, a1), (0, 14));
        for off in ["15,0", "0,15", "-1,3", "7", "MESSAGE 7,7"] {
            assert_eq!(answer_cell(grid, off), None, "{off}");
        }
    }
}
