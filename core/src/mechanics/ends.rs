//! What lies beyond a winning run (`line_ends()`): Caro's five wins unless
//! an opponent mark stands beyond each end. Read after every other
//! mechanic, so that it can refuse those that judge lines another way, and
//! turn the lines' tables into ones that read the cells beyond a run.

use super::lines::{LineEnds, WinCheck};
use super::load::Load;
use super::{Mechanic, Mechanics, Primitive};
use crate::error::RulebookError;
use crate::position::Side;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "ends",
    hooks: &[HookId::LineEnds],
    build,
};

/// Reads `line_ends()`; where it is not `"any"`, refuses what cannot go
/// with it and rebuilds each side's table with the ends.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let ends = load.word::<LineEnds>(HookId::LineEnds)?;
    if ends == LineEnds::Any {
        return Ok(());
    }
    let clash = t
        .first_in_use(&[
            Primitive::ChosenMarks,
            Primitive::Regions,
            Primitive::Slides,
            Primitive::Twists,
        ])
        .or_else(|| t.removes().then_some("removes()"))
        .or_else(|| t.has_stacks().then_some("sizes()"))
        .or_else(|| {
            (t.has_patterns(Side::X) || t.has_patterns(Side::O)).then_some("forbidden_patterns()")
        });
    if let Some(what) = clash {
        return Err(load.bad(
            HookId::LineEnds,
            format!("line_ends() cannot go with {what}: the ends of a run are read where each side places its own marks and a line ends the game through the cell a move fills"),
        ));
    }
    if t.lines_are_windows() {
        let k = t.min_run;
        return Err(load.bad(
            HookId::LineEnds,
            format!("line_ends() reads the cells beyond a run's ends along its line, and lines() gives windows of {k} cells, which have none: give whole lines, such as lines::straight({k})'s (around a board whose edges are joined, lines::wrapped, a run has no ends to read)"),
        ));
    }
    let n = load.grid.len();
    t.win = WinCheck::with_ends(n, &t.lines, t.wins[0].clone(), ends);
    t.win_o = if t.sided {
        WinCheck::with_ends(n, &t.lines, t.wins[1].clone(), ends)
    } else {
        t.win.clone()
    };
    // The kernel keeps windows of `k` marks, blind to what lies beyond.
    t.window_list = None;
    t.line_ends = ends;
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::rulebook::Rulebook;
    use std::sync::Arc;

    /// Five in a row on 9×9 whose runs' ends are read as `ends` says,
    /// after `moves`; whether the game is over.
    fn over_after(ends: &str, moves: &str) -> bool {
        let script = format!(
            "fn lines() {{ lines::straight(5) }}\nfn wins(run) {{ run >= 5 }}\nfn line_ends() {{ \"{ends}\" }}"
        );
        let mut game = Game::new(Arc::new(Rulebook::scripted(&script, 9, 9).unwrap()));
        for m in moves.split_whitespace() {
            game.play(game.parse_move(m).unwrap()).unwrap();
        }
        game.is_over()
    }

    #[test]
    fn both_open_wants_an_empty_cell_beyond_each_end() {
        // X's b1–f1: a1 and g1 empty, then O on g1, then from the edge.
        assert!(over_after("both open", "b1 a9 c1 b9 d1 c9 e1 d9 f1"));
        assert!(!over_after("both open", "b1 g1 c1 b9 d1 c9 e1 d9 f1"));
        assert!(!over_after("both open", "a1 a9 b1 b9 c1 c9 d1 d9 e1"));
        // Not both blocked: one end blocked, or the edge, still wins.
        assert!(over_after("not both blocked", "b1 g1 c1 b9 d1 c9 e1 d9 f1"));
        assert!(!over_after(
            "not both blocked",
            "b1 g1 c1 a1 d1 c9 e1 d9 f1"
        ));
    }

    #[test]
    fn a_cell_on_no_line_is_judged_without_a_panic() {
        // The table covers every cell of the board, not only the lines':
        // c3 lies on none (it was out of the table's range).
        let script = "fn lines() { [[cell(0, 0), cell(1, 0), cell(2, 0)]] }\n\
            fn wins(run) { run >= 3 }\nfn line_ends() { \"not both blocked\" }";
        let mut game = Game::new(Arc::new(Rulebook::scripted(script, 3, 3).unwrap()));
        game.play(game.parse_move("c3").unwrap()).unwrap();
        assert!(!game.is_over());
    }

    #[test]
    fn line_ends_refuses_what_judges_lines_another_way() {
        let script = "fn lines() { lines::straight(3) }\nfn wins(run) { run >= 3 }\n\
            fn pieces() { 4 }\nfn removes() { \"any\" }\nfn line_ends() { \"both open\" }";
        let err = Rulebook::scripted(script, 5, 5).unwrap_err().to_string();
        assert!(
            err.contains("line_ends() cannot go with removes()"),
            "{err}"
        );
    }

    /// Lines given as windows have nothing beyond a run's ends: a torus's
    /// five in a row with "not both blocked" won through O's blocks. It
    /// is refused; whole lines, and mills sharing a point, are not.
    #[test]
    fn line_ends_refuses_lines_given_as_windows() {
        let on = |lines: &str| {
            let script = format!(
                "fn lines() {{ {lines} }}\nfn wins(run) {{ run >= 5 }}\nfn line_ends() {{ \"not both blocked\" }}"
            );
            Rulebook::scripted(&script, 9, 9).map_err(|e| e.to_string())
        };
        let err = on("lines::wrapped(5, true, true)").unwrap_err();
        assert!(err.contains("lines() gives windows of 5 cells"), "{err}");
        let windows = "let w = []; for l in lines::straight(5) { for i in 0..=l.len() - 5 { w.push(l.extract(i, 5)); } } w";
        assert!(on(windows).is_err());
        assert!(on("lines::straight(5)").is_ok());
    }
}
