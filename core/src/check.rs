//! Running a rulebook's documented examples (`[[example]]`), as `gridrules
//! check` does: each example plays its moves and compares what follows.

use crate::game::Game;
use crate::position::MoveList;
use crate::rulebook::{Example, Rulebook};
use std::collections::BTreeSet;
use std::sync::Arc;

/// One example and how it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// The example.
    pub example: Example,
    /// `None` when it passed; else what differed.
    pub failure: Option<String>,
}

/// Runs every example of `rules`, in order.
pub fn run(rules: &Arc<Rulebook>) -> Vec<Checked> {
    rules
        .examples()
        .iter()
        .map(|e| Checked {
            example: e.clone(),
            failure: run_one(rules, e).err(),
        })
        .collect()
}

/// Plays `text`, a move or the marks of one turn joined by commas: all of
/// them, or none (the game is left as it was).
fn play_turn(game: &mut Game, text: &str) -> Result<(), String> {
    let mut trial = game.clone();
    let side = trial.position().turn();
    let marks: Vec<&str> = text.split(',').collect();
    for (n, mark) in marks.iter().enumerate() {
        if n > 0 && trial.position().turn() != side {
            return Err(format!(
                "{side}'s turn ended after {n} mark{}: the rest is the next turn's",
                if n == 1 { "" } else { "s" }
            ));
        }
        let mv = trial.parse_move(mark).map_err(|e| e.to_string())?;
        trial.play(mv).map_err(|e| e.to_string())?;
    }
    *game = trial;
    Ok(())
}

fn run_one(rules: &Arc<Rulebook>, e: &Example) -> Result<(), String> {
    let mut game = match &e.setup {
        None => Game::new(rules.clone()),
        Some(text) => {
            let pos = rules
                .parse_position(text)
                .map_err(|err| format!("setup refused: {err}"))?;
            Game::from_position(rules.clone(), pos)
        }
    };
    let wants_refusal = e.expect.strip_prefix("refused:").map(str::trim);
    // The marks of one turn may be joined by commas, as `history` writes
    // them and the prompt reads them (`k10,k11`).
    let moves: Vec<&str> = e.moves.split_whitespace().collect();
    for (i, text) in moves.iter().enumerate() {
        // A move the notation refuses (a full column, a mark that may not be
        // chosen) is refused like one the board refuses.
        let played = play_turn(&mut game, text);
        match (played, wants_refusal) {
            (Ok(_), _) => {}
            (Err(err), Some(want)) if i + 1 == moves.len() => {
                let reason = err;
                return if reason.contains(want) {
                    Ok(())
                } else {
                    Err(format!(
                        "`{text}` refused with `{reason}`, expected `{want}`"
                    ))
                };
            }
            (Err(err), _) => return Err(format!("move {} `{text}` refused: {err}", i + 1)),
        }
    }
    if wants_refusal.is_some() {
        return Err(match moves.last() {
            Some(last) => format!("`{last}` was accepted, expected it refused"),
            None => "no move to refuse".to_string(),
        });
    }
    let got = if e.expect.starts_with("legal:") {
        let mut list = MoveList::new();
        rules
            .legal_moves(game.position(), game.moves(), &mut list)
            .map_err(|err| err.to_string())?;
        let got: BTreeSet<String> = list.iter().map(|&m| rules.move_text(m)).collect();
        let want: BTreeSet<String> = e.expect["legal:".len()..]
            .split_whitespace()
            .map(str::to_string)
            .collect();
        if got == want {
            return Ok(());
        }
        // The difference, not two lists of a wide board's moves.
        let missing: Vec<&String> = want.difference(&got).collect();
        let unexpected: Vec<&String> = got.difference(&want).collect();
        let mut said = Vec::new();
        if !missing.is_empty() {
            // A slip (`zz`) is told by why the notation refuses it.
            let why = (missing.iter())
                .find_map(|m| Some((m, game.parse_move(m).err()?)))
                .map(|(m, err)| format!(" (`{m}`: {err})"))
                .or_else(|| {
                    // A legal move written otherwise than lists write it
                    // (a column `d` for its landing cell `d1`).
                    missing.iter().find_map(|m| {
                        let written = rules.move_text(game.parse_move(m).ok()?);
                        got.contains(&written)
                            .then(|| format!(" (`{m}` is legal, listed as `{written}`)"))
                    })
                })
                .unwrap_or_default();
            said.push(format!("listed but not legal: {}{why}", joined(&missing)));
        }
        if !unexpected.is_empty() {
            said.push(format!("legal but not listed: {}", joined(&unexpected)));
        }
        return Err(format!("the legal moves differ: {}", said.join("; ")));
    } else if e.expect.starts_with("position:") {
        format!("position: {}", rules.position_text(game.position()))
    } else {
        // The result as the examples write it: without the line's cells.
        game.status(false)
    };
    let want = e.expect.trim();
    // `to move: O` alone checks the side to move: what the line adds after
    // ` — ` (the turn's mark, the pie rule's `swap`) is checked where it is
    // written out. The pie rule's words came later, and rulebooks written
    // before them would have failed for them.
    let compared = match got.split_once(" — ") {
        Some((side, _)) if want.starts_with("to move:") && !want.contains(" — ") => side,
        _ => got.as_str(),
    };
    if compared.trim() == want {
        return Ok(());
    }
    // The likely slips, said: a hyphen typed for the line's dash, and a
    // result copied from the board with the cells of its line.
    let hint = if want.replace(" - ", " — ") == got.trim() {
        " (the line writes ` — `, a dash, where the example has ` - `)"
    } else if want.starts_with("result:")
        && want
            .strip_prefix(compared.trim())
            .is_some_and(|cells| cells.starts_with(" — "))
    {
        " (a result is written without the cells of its line)"
    } else {
        ""
    };
    Err(format!("expected `{}`, got `{got}`{hint}", e.expect))
}

/// Moves as a line lists them.
fn joined(moves: &[&String]) -> String {
    moves
        .iter()
        .map(|m| m.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Location;

    fn failure(expect: &str) -> Option<String> {
        failure_in("classic", "b2 a1", expect)
    }

    fn failure_in(rulebook: &str, moves: &str, expect: &str) -> Option<String> {
        failure_of(Rulebook::builtin(rulebook).unwrap(), moves, expect)
    }

    fn failure_of(rules: Rulebook, moves: &str, expect: &str) -> Option<String> {
        let rules = Arc::new(rules);
        let example = Example {
            rule: "C1".into(),
            text: "t".into(),
            setup: None,
            moves: moves.into(),
            expect: expect.into(),
            location: Location {
                path: "t.toml".into(),
                line: 1,
                col: 1,
            },
        };
        run_one(&rules, &example).err()
    }

    /// An expectation that differs by a hyphen for the dash, or by a
    /// result's cells, says so.
    #[test]
    fn an_expectation_one_slip_away_says_which() {
        let said = failure_in("connect6", "j10 k11", "to move: O - mark 2 of 2").unwrap();
        assert!(
            said.ends_with("a dash, where the example has ` - `)"),
            "{said}"
        );
        let said = failure_in("classic", "a1 b1 a2 b2 a3", "result: X wins — a1 a2 a3").unwrap();
        assert!(
            said.ends_with("(a result is written without the cells of its line)"),
            "{said}"
        );
        // A longer result is no line's cells.
        let said = failure_in("classic", "b2", "result: draw by repetition").unwrap();
        assert!(!said.contains("cells of its line"), "{said}");
    }

    /// An example's turn of several marks may be joined by commas, as
    /// `history` writes it (it was "not a move"); a group that runs past
    /// the turn is refused whole.
    #[test]
    fn marks_of_one_turn_may_be_joined_by_commas() {
        assert_eq!(
            failure_in("connect6", "j10 k11,k9", "to move: X — mark 1 of 2"),
            None
        );
        assert_eq!(
            failure_in("connect6", "j10 k11,k9 j9", "to move: X — mark 2 of 2"),
            None
        );
        assert_eq!(
            failure_in("classic", "b2,a1", "refused: X's turn ended after 1 mark"),
            None
        );
        let said = failure_in("classic", "b2,a1", "to move: X").unwrap();
        assert!(said.contains("X's turn ended after 1 mark"), "{said}");
    }

    /// A `legal:` that differs says how, and why a slip is no move; it
    /// printed both whole lists.
    #[test]
    fn a_legal_list_that_differs_names_the_difference() {
        assert_eq!(failure("legal: c1 a2 b1 c2 a3 b3 c3"), None);
        assert_eq!(
            failure("legal: c1 a2 b1 c2 a3 b3 b2 zz"),
            Some(
                "the legal moves differ: listed but not legal: b2 zz (`zz`: `zz` is not a move: moves here are written like `b1` (`legal` lists them)); legal but not listed: c3"
                    .into()
            )
        );
        assert_eq!(
            failure("legal: c1 a2 b1 c2 a3 b3 c3 b2"),
            Some("the legal moves differ: listed but not legal: b2".into())
        );
        // Columns where marks drop: legal, but lists write landing cells.
        let said = failure_in("connect-four", "d", "legal: a b c d e f g").unwrap();
        assert!(said.contains("(`a` is legal, listed as `a1`)"), "{said}");
    }

    /// `to move: O` checks the side to move; the rest of the line, where
    /// written, is checked whole.
    #[test]
    fn a_side_to_move_alone_checks_the_side() {
        let classic = Rulebook::builtin("classic").unwrap();
        let pie = || {
            classic.with_table(crate::table::TableRules {
                pie: true,
                ..classic.table().clone()
            })
        };
        assert_eq!(failure_of(pie(), "b2", "to move: O"), None);
        let said = failure_of(pie(), "b2", "to move: X").unwrap();
        assert!(said.contains("got `to move: O — may answer"), "{said}");
        let whole = "to move: O — may answer `swap` (pie rule)";
        assert_eq!(failure_of(pie(), "b2", whole), None);
        assert!(failure_of(pie(), "b2 a1", whole.replace('O', "X").as_str()).is_some());
        assert_eq!(failure_in("connect6", "j10 k10", "to move: O"), None);
        assert_eq!(
            failure_in("connect6", "j10 k10", "to move: O — mark 2 of 2"),
            None
        );
        assert!(failure_in("connect6", "j10 k10", "to move: O — mark 1 of 2").is_some());
    }
}
