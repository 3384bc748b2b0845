//! The hook registry: every function a rulebook script may define.
//!
//! [`HookId`] names each hook and [`HOOKS`] describes it; this is the one
//! list. Loading checks scripts against it, the table builder and the
//! per-move calls go through it, `rules` prints from it, and the docs test
//! checks the README's hook reference against it.

/// When the engine calls a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    /// Called while loading; the answers are compiled into tables, so the hook
    /// costs nothing during play.
    Load,
    /// Called during play with the live state; slower, and only when defined.
    PerMove,
}

impl HookKind {
    /// `load` or `per move`, as `rules` and the README say it.
    pub fn as_str(self) -> &'static str {
        match self {
            HookKind::Load => "load",
            HookKind::PerMove => "per move",
        }
    }
}

/// Names one hook; indexes [`HOOKS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)] // Each variant is documented by its `HOOKS` entry.
pub enum HookId {
    Shape,
    Lines,
    Wins,
    LineEnds,
    LineResult,
    Marks,
    TurnMarks,
    Support,
    Pieces,
    Steps,
    Jumps,
    Sizes,
    Captures,
    CaptureWins,
    KeepMarks,
    Slides,
    Twists,
    Removes,
    PlacingLines,
    FlyAt,
    LoseAt,
    Forbidden,
    ForbiddenPatterns,
    BothLines,
    Regions,
    RegionLines,
    Redirect,
    RegionName,
    FullRegion,
    NoMoves,
    FullBoard,
    Repetition,
    Refuse,
    Outcome,
}

impl HookId {
    /// The hook's description.
    pub fn spec(self) -> &'static Hook {
        &HOOKS[self as usize]
    }

    /// The Rhai function name.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The hook a function name defines, if any.
    pub fn from_name(name: &str) -> Option<HookId> {
        HOOKS.iter().find(|h| h.name == name).map(|h| h.id)
    }
}

/// A hook a script may define.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hook {
    /// Which hook this is.
    pub id: HookId,
    /// The Rhai function name.
    pub name: &'static str,
    /// Parameter names, in order.
    pub params: &'static [&'static str],
    /// When it is called.
    pub kind: HookKind,
    /// Whether every rulebook must define it.
    pub required: bool,
    /// Whether it may also be written with a last parameter `side` (\"X\" or
    /// \"O\"), to answer for each side apart.
    pub sided: bool,
    /// What it returns, in a line.
    pub doc: &'static str,
}

impl Hook {
    /// The signature as a script writes it, e.g. `steps(cell)`.
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }

    /// The signature with the last parameter `side`, e.g. `wins(run, side)`.
    pub fn sided_signature(&self) -> String {
        format!("{}({}, side)", self.name, self.params.join(", "))
    }
}

const fn load(
    id: HookId,
    name: &'static str,
    params: &'static [&'static str],
    doc: &'static str,
) -> Hook {
    Hook {
        id,
        name,
        params,
        kind: HookKind::Load,
        required: false,
        sided: false,
        doc,
    }
}

/// Every hook, in [`HookId`] order (the order `rules` lists them in).
pub const HOOKS: &[Hook] = &[
    load(
        HookId::Shape,
        "shape",
        &[],
        "the cells of the grid that exist for play (the default: all of them); the others are drawn blank and named by no move",
    ),
    Hook {
        required: true,
        ..load(
            HookId::Lines,
            "lines",
            &[],
            "array of lines, each an array of cells in order along the line",
        )
    },
    Hook {
        required: true,
        sided: true,
        ..load(
            HookId::Wins,
            "wins",
            &["run"],
            "true when an unbroken run of `run` like marks along a line completes it; written `wins(run, side)`, it answers for each side (\"X\" or \"O\") apart: X exactly five, O five or more",
        )
    },
    load(
        HookId::LineEnds,
        "line_ends",
        &[],
        "what the cells just beyond a winning run's ends may hold: \"any\" (the default), \"not both blocked\" (Caro: a run with an opponent mark beyond each end does not win) or \"both open\" (both empty cells)",
    ),
    load(
        HookId::LineResult,
        "line_result",
        &[],
        "what a completed line does: \"owner wins\" (the default), \"owner loses\", \"mover wins\", \"mover loses\", \"X wins\" or \"O wins\"",
    ),
    load(
        HookId::Marks,
        "marks",
        &[],
        "which mark a move places: \"own\" (the default), \"either\" (the mover chooses, `b2=O`) or \"shared\" (both sides place X)",
    ),
    load(
        HookId::TurnMarks,
        "turn_marks",
        &[],
        "marks a side places in its turn, by turn number, the last repeating: [1, 2] is Connect6 (one, then two a turn); [1] (the default) alternates; a turn before the last may name its marks, whoever places them: [[\"X\", \"O\", \"X\"], 1] with the pie rule is the swap opening of five in a row",
    ),
    load(
        HookId::Support,
        "support",
        &["cell"],
        "cells that must be occupied before `cell` may be filled (gravity); [] for none",
    ),
    load(
        HookId::Pieces,
        "pieces",
        &[],
        "pieces per side, after which moves move pieces; () for unlimited (the default)",
    ),
    load(
        HookId::Steps,
        "steps",
        &["cell"],
        "cells a piece on `cell` may step to (when it is empty)",
    ),
    load(
        HookId::Jumps,
        "jumps",
        &["cell"],
        "jumps from `cell`: array of #{ to: cell, over: [cells that must be empty] }",
    ),
    load(
        HookId::Sizes,
        "sizes",
        &[],
        "pieces of several sizes, smallest first: array of [letter, pieces per side], such as [[\"S\", 2], [\"M\", 2], [\"L\", 2]]; a move puts one from hand (`b2=L`) or moves one that shows (`a1-b2`, anywhere unless steps() says) onto an empty cell or over a smaller piece, and lines are judged on the tops after the whole move; () for none",
    ),
    load(
        HookId::Captures,
        "captures",
        &["cell"],
        "captures a mark placed on `cell` makes: array of #{ take: [cells], by: cell }; when every `take` cell holds an opponent mark and `by` an own one, the `take` marks leave the board",
    ),
    load(
        HookId::CaptureWins,
        "capture_wins",
        &[],
        "captures that win the game; () or 0 (the default) for never",
    ),
    load(
        HookId::KeepMarks,
        "keep_marks",
        &[],
        "marks each side keeps on the board: placing one more makes its oldest vanish; () or 0 (the default) for no limit",
    ),
    load(
        HookId::Slides,
        "slides",
        &["cell"],
        "slides that start at `cell`: array of #{ path: [cells from `cell` on], take: \"own\" (the default) or \"own or empty\", put: \"own\" (the default) or \"empty\", name: \"^d\" (optional) }; the mark at `cell` leaves, the others shift one cell back along the path, and the last cell gets `put`",
    ),
    load(
        HookId::Twists,
        "twists",
        &[],
        "twists that follow every placement: array of #{ name: \"1+\", from: [cells], to: [cells] }; the mark on from[i] goes to to[i], all at once; a placement that makes a line ends the move without one",
    ),
    load(
        HookId::Removes,
        "removes",
        &[],
        "a move that completes a line removes one opponent piece instead of ending the game: \"not in a line\" (a piece outside the opponent's completed lines, any when all are in one) or \"any\"",
    ),
    load(
        HookId::PlacingLines,
        "placing_lines",
        &[],
        "with removes(): what a line a placement completes does: \"remove\" (the default), \"count for nothing\" (it stands, and removes nothing) or \"refused\" (no placement may complete one)",
    ),
    load(
        HookId::FlyAt,
        "fly_at",
        &[],
        "with pieces(): a side with this many pieces on the board and none in hand moves one to any empty cell; () for never (the default)",
    ),
    load(
        HookId::LoseAt,
        "lose_at",
        &[],
        "with removes(): a side left with this many pieces, on the board and in hand, loses; () for never (the default)",
    ),
    load(
        HookId::Forbidden,
        "forbidden",
        &["side", "n"],
        "cells `side` (\"X\" or \"O\") may not take on its `n`-th move (from 1); () or [] for none: X's first mark not in the centre. With pieces(), a side's placements only. Not with captures(), keep_marks() or slides()",
    ),
    load(
        HookId::ForbiddenPatterns,
        "forbidden_patterns",
        &["side"],
        "what a move of `side` may not make: an array of \"overline\", \"double four\", \"double three\" (Renju's, judged from the lines and the side's wins; a winning move is never forbidden); () or [] for none",
    ),
    load(
        HookId::BothLines,
        "both_lines",
        &[],
        "after a slide, a twist or a move of sized pieces, lines are judged on the whole board; when both sides have one: \"mover wins\", \"opponent wins\" or \"draw\" (the default)",
    ),
    load(
        HookId::Regions,
        "regions",
        &[],
        "sub-boards: array of cell arrays covering the board; a line then wins its region",
    ),
    load(
        HookId::RegionLines,
        "region_lines",
        &[],
        "lines of region numbers; holding every region of one completes a line of the big board",
    ),
    load(
        HookId::Redirect,
        "redirect",
        &["cell"],
        "region the next move must go to after a move to `cell`; () for anywhere",
    ),
    load(
        HookId::RegionName,
        "region_name",
        &["region"],
        "a region's name in messages, such as \"top-right\"; default `board N (a1–c3)`",
    ),
    load(
        HookId::FullRegion,
        "full_region",
        &[],
        "who holds a region filled without a line: \"nobody\" (the default), \"both\" or \"mover\" (the side that filled it)",
    ),
    load(
        HookId::NoMoves,
        "no_moves",
        &[],
        "result when the side to move has no legal move: \"loss\", \"draw\" (the default), \"win\", \"X wins\" or \"O wins\"",
    ),
    load(
        HookId::FullBoard,
        "full_board",
        &[],
        "result when no cell is left to play, if not `no_moves()`'s: the same words (twelve men's morris: a board filled while placing is a draw, pieces blocked later lose)",
    ),
    load(
        HookId::Repetition,
        "repetition",
        &[],
        "the game is drawn when a position occurs this many times; () or 0 for never",
    ),
    Hook {
        kind: HookKind::PerMove,
        ..load(
            HookId::Refuse,
            "refuse",
            &["state", "move"],
            "() to allow a move the board rules allow, or a string: the reason it is refused",
        )
    },
    Hook {
        kind: HookKind::PerMove,
        ..load(
            HookId::Outcome,
            "outcome",
            &["state"],
            "after each move no line decided: () to play on, or \"X\", \"O\" or \"draw\" to end the game",
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_indexed_by_id() {
        for (i, h) in HOOKS.iter().enumerate() {
            assert_eq!(h.id as usize, i, "{}", h.name);
            assert_eq!(HookId::from_name(h.name), Some(h.id));
        }
    }
}
