//! What scripts see: board functions, and the state and move types passed to
//! per-move hooks.

use crate::geometry::{Cell, Grid};
use crate::notation::MoveNames;
use crate::position::{Move, Position, Side};
use crate::turns::{TurnPlace, Turns};
use rhai::{Array, Dynamic, Engine, EvalAltResult, Position as RhaiPos};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

type Fallible<T> = Result<T, Box<EvalAltResult>>;

fn off_board(grid: Grid, what: String) -> Box<EvalAltResult> {
    format!("{what} is off the {}×{} board", grid.width(), grid.height()).into()
}

/// Checks a cell number given by a script.
pub(crate) fn cell_arg(grid: Grid, cell: i64) -> Fallible<Cell> {
    if (0..grid.len() as i64).contains(&cell) {
        Ok(Cell(cell as u16))
    } else {
        Err(off_board(grid, format!("cell {cell}")))
    }
}

/// Registers the board functions every script may call: `width()`, `height()`,
/// `cell(col, row)`, `on_board(col, row)`, `col(cell)`, `row(cell)`,
/// `cells()` and `name(cell)`.
pub(crate) fn register_board(engine: &mut Engine, grid: Grid) {
    engine
        .register_fn("width", move || i64::from(grid.width()))
        .register_fn("height", move || i64::from(grid.height()))
        .register_fn("cell", move |col: i64, row: i64| -> Fallible<i64> {
            grid.cell(col, row)
                .map(|c| c.0 as i64)
                .ok_or_else(|| off_board(grid, format!("cell({col}, {row})")))
        })
        .register_fn("on_board", move |col: i64, row: i64| {
            grid.cell(col, row).is_some()
        })
        .register_fn("col", move |cell: i64| -> Fallible<i64> {
            Ok(i64::from(grid.col(cell_arg(grid, cell)?)))
        })
        .register_fn("row", move |cell: i64| -> Fallible<i64> {
            Ok(i64::from(grid.row(cell_arg(grid, cell)?)))
        })
        .register_fn("cells", move || -> Array {
            grid.cells().map(|c| Dynamic::from(c.0 as i64)).collect()
        })
        .register_fn("name", move |cell: i64| -> Fallible<String> {
            Ok(grid.name(cell_arg(grid, cell)?).to_string())
        });
}

/// The moves that led to a position since the game's start, each with the
/// side that made it, shared by the states passed to hooks (an empty
/// history allocates nothing).
#[derive(Debug, Clone, Default)]
pub struct History(Option<Arc<[(Move, Side)]>>);

impl History {
    /// `moves`, which led to `now`, with their movers: counted back from the
    /// side to move in `now`, a swap keeping it and a mark passing the turn
    /// where the turn structure says so.
    pub(crate) fn new(moves: &[Move], now: &Position, turns: &Turns) -> History {
        if moves.is_empty() {
            return History(None);
        }
        let mut side = now.turn();
        let mut marks = now.marks_played();
        let mut out: Vec<(Move, Side)> = moves
            .iter()
            .rev()
            .map(|&mv| {
                if mv != Move::Swap {
                    marks = marks.saturating_sub(1);
                    side = if turns.is_alternating() {
                        side.other()
                    } else {
                        turns.place(marks).side()
                    };
                }
                (mv, side)
            })
            .collect();
        out.reverse();
        History(Some(out.into()))
    }

    /// `history` and then `mv`, which led to `now`.
    pub(crate) fn after(history: &[Move], mv: Move, now: &Position, turns: &Turns) -> History {
        let moves: Vec<Move> = history.iter().copied().chain([mv]).collect();
        History::new(&moves, now, turns)
    }

    /// The moves and their movers, oldest first.
    pub fn moves(&self) -> &[(Move, Side)] {
        self.0.as_deref().unwrap_or_default()
    }
}

/// The position as a per-move hook sees it (read-only).
#[derive(Debug, Clone)]
pub struct ScriptState {
    pub(crate) pos: Position,
    pub(crate) history: History,
    /// Where the next move falls in the turn structure (`turn_marks()`).
    pub(crate) turn: TurnPlace,
    pub(crate) grid: Grid,
    /// How the rulebook writes its moves.
    pub(crate) names: Arc<MoveNames>,
}

/// A move as a per-move hook sees it.
#[derive(Debug, Clone)]
pub struct ScriptMove {
    pub(crate) mv: Move,
    pub(crate) grid: Grid,
    /// How the rulebook writes its moves.
    pub(crate) names: Arc<MoveNames>,
    /// The side that makes (or made) the move.
    pub(crate) mover: Side,
}

impl ScriptMove {
    fn text(&self) -> String {
        self.names.text(self.grid, self.mv)
    }
}

fn side_arg(text: &str) -> Fallible<Side> {
    let mut chars = text.chars();
    match (chars.next().and_then(Side::from_char), chars.next()) {
        (Some(side), None) => Ok(side),
        _ => Err(format!("`{text}` is not a side: use \"X\" or \"O\"").into()),
    }
}

/// Registers `State` (`to_move`, `mark(cell)`, `in_hand(side)`, `target`,
/// `count(mark)`, `capture_count(side)`, `ages(side)`, `turn_mark`,
/// `turn_marks`, `move_count`, `last_move`, `history`) and `Move` (`from`,
/// `to`, `take`, `mark`, `is_step`, `is_slide`, `text`).
/// `history_read` is set when a hook reads `state.history`.
pub(crate) fn register_types(engine: &mut Engine, history_read: Arc<AtomicBool>) {
    engine
        .register_type_with_name::<ScriptState>("State")
        .register_get("to_move", |s: &mut ScriptState| s.pos.turn().to_string())
        .register_get("move_count", |s: &mut ScriptState| i64::from(s.pos.ply()))
        .register_get("last_move", |s: &mut ScriptState| {
            s.pos.last_move().map_or(Dynamic::UNIT, |mv| {
                // The history knows who made it (a swap, a turn of several
                // marks); without one, the side that is not to move.
                let mover = s
                    .history
                    .moves()
                    .last()
                    .map_or(s.pos.turn().other(), |&(_, mover)| mover);
                Dynamic::from(ScriptMove {
                    mv,
                    grid: s.grid,
                    names: s.names.clone(),
                    mover,
                })
            })
        })
        .register_get("history", move |s: &mut ScriptState| -> Array {
            history_read.store(true, Ordering::Relaxed);
            s.history
                .moves()
                .iter()
                .map(|&(mv, mover)| {
                    Dynamic::from(ScriptMove {
                        mv,
                        grid: s.grid,
                        names: s.names.clone(),
                        mover,
                    })
                })
                .collect()
        })
        .register_get("target", |s: &mut ScriptState| {
            s.pos
                .target()
                .map_or(Dynamic::UNIT, |t| Dynamic::from(t as i64))
        })
        .register_fn(
            "mark",
            |s: &mut ScriptState, cell: i64| -> Fallible<String> {
                let c = cell_arg(s.grid, cell)?;
                Ok(s.pos.mark_at(c).map_or(String::new(), |m| m.to_string()))
            },
        )
        .register_fn(
            "count",
            |s: &mut ScriptState, side: &str| -> Fallible<i64> {
                Ok(i64::from(s.pos.marks(side_arg(side)?).count()))
            },
        )
        // Not `captures`: a method call would reach the script's own
        // `captures(cell)` hook, which Rhai tries first.
        .register_fn(
            "capture_count",
            |s: &mut ScriptState, side: &str| -> Fallible<i64> {
                Ok(i64::from(s.pos.captures(side_arg(side)?)))
            },
        )
        .register_get("turn_mark", |s: &mut ScriptState| {
            i64::from(s.turn.mark) + 1
        })
        .register_get("turn_marks", |s: &mut ScriptState| i64::from(s.turn.of))
        // Where marks vanish (`keep_marks()`): a side's marks oldest first,
        // the next to vanish at [0]; empty where marks do not age.
        .register_fn(
            "ages",
            |s: &mut ScriptState, side: &str| -> Fallible<Array> {
                let ages = s.pos.ages(side_arg(side)?);
                Ok(ages.cells().map(|c| Dynamic::from(c.0 as i64)).collect())
            },
        )
        .register_fn(
            "in_hand",
            |s: &mut ScriptState, side: &str| -> Fallible<Dynamic> {
                let n = s.pos.in_hand(side_arg(side)?);
                Ok(n.map_or(Dynamic::UNIT, |n| Dynamic::from(i64::from(n))))
            },
        )
        .register_type_with_name::<ScriptMove>("Move")
        .register_get("to", |m: &mut ScriptMove| {
            m.mv.to()
                .map_or(Dynamic::UNIT, |c| Dynamic::from(c.0 as i64))
        })
        .register_get("from", |m: &mut ScriptMove| {
            m.mv.from()
                .map_or(Dynamic::UNIT, |c| Dynamic::from(c.0 as i64))
        })
        .register_get("mark", |m: &mut ScriptMove| m.mv.mark(m.mover).to_string())
        // A step that removes (`d6-d7xa1`) is a step too.
        .register_get("is_step", |m: &mut ScriptMove| {
            matches!(m.mv, Move::Step { .. }) || matches!(m.mv, Move::Take(r) if r.from().is_some())
        })
        .register_get("take", |m: &mut ScriptMove| match m.mv {
            Move::Take(r) => Dynamic::from(r.take().0 as i64),
            _ => Dynamic::UNIT,
        })
        .register_get("is_slide", |m: &mut ScriptMove| {
            matches!(m.mv, Move::Slide { .. })
        })
        .register_get("text", |m: &mut ScriptMove| m.text())
        .register_fn("to_string", |m: &mut ScriptMove| m.text());
}

/// The Rhai position of a function definition `fn name(` in `source`, for
/// errors about a hook's answer (Rhai does not expose it).
pub(crate) fn fn_position(source: &str, name: &str) -> Option<(usize, usize)> {
    // A definition starts its line (after indentation and `private`), so
    // a comment that mentions `fn name` is not taken for it.
    source.lines().enumerate().find_map(|(i, line)| {
        let text = line.trim_start();
        let indent = line.len() - text.len();
        let (skip, rest) = match text.strip_prefix("private ") {
            Some(rest) => (text.len() - rest.len(), rest),
            None => (0, text),
        };
        let after = rest.strip_prefix("fn ")?.trim_start().strip_prefix(name)?;
        after
            .starts_with(|c: char| c == '(' || c.is_whitespace())
            .then_some((i + 1, indent + skip + 1))
    })
}

/// Converts a Rhai position (1-based) to line and column, if it has one.
pub(crate) fn rhai_line_col(pos: RhaiPos) -> Option<(usize, usize)> {
    Some((pos.line()?, pos.position().unwrap_or(1)))
}

#[cfg(test)]
mod tests {
    use super::fn_position;

    #[test]
    fn a_hook_is_found_at_its_definition_not_in_a_comment() {
        let source = "//! see fn marks() below\nfn mark() {}\n  private fn marks() { 1 }\n";
        assert_eq!(fn_position(source, "marks"), Some((3, 11)));
        assert_eq!(fn_position(source, "mark"), Some((2, 1)));
        assert_eq!(fn_position(source, "lines"), None);
    }
}
