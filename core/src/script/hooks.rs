//! The hook registry: every function a rulebook script may define.
//!
//! This table is the one list of hooks. Loading checks scripts against it, and
//! the README's hook reference mirrors it.

/// When the engine calls a hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookKind {
    /// Called while loading; the answers are compiled into tables, so the hook
    /// costs nothing during play.
    Load,
    /// Called during play with the live state; slower, and only when defined.
    PerMove,
}

/// A hook a script may define.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hook {
    /// The Rhai function name.
    pub name: &'static str,
    /// Parameter names, in order.
    pub params: &'static [&'static str],
    /// When it is called.
    pub kind: HookKind,
    /// Whether every rulebook must define it.
    pub required: bool,
    /// What it returns, in a line.
    pub doc: &'static str,
}

impl Hook {
    /// The signature as a script writes it, e.g. `steps(cell)`.
    pub fn signature(&self) -> String {
        format!("{}({})", self.name, self.params.join(", "))
    }
}

/// Every hook, in the order the engine evaluates the load-time ones.
pub const HOOKS: &[Hook] = &[
    Hook {
        name: "lines",
        params: &[],
        kind: HookKind::Load,
        required: true,
        doc: "array of lines, each an array of cells in order along the line",
    },
    Hook {
        name: "wins",
        params: &["run"],
        kind: HookKind::Load,
        required: true,
        doc: "true when an unbroken run of `run` own marks along a line wins (or wins a region)",
    },
    Hook {
        name: "pieces",
        params: &[],
        kind: HookKind::Load,
        required: false,
        doc: "pieces per side, after which moves move pieces; () for unlimited (the default)",
    },
    Hook {
        name: "steps",
        params: &["cell"],
        kind: HookKind::Load,
        required: false,
        doc: "cells a piece on `cell` may step to (when it is empty)",
    },
    Hook {
        name: "jumps",
        params: &["cell"],
        kind: HookKind::Load,
        required: false,
        doc: "jumps from `cell`: array of #{ to: cell, over: [cells that must be empty] }",
    },
    Hook {
        name: "regions",
        params: &[],
        kind: HookKind::Load,
        required: false,
        doc: "sub-boards: array of cell arrays covering the board; a line then wins its region",
    },
    Hook {
        name: "region_lines",
        params: &[],
        kind: HookKind::Load,
        required: false,
        doc: "lines of region numbers; owning every region of one wins the game",
    },
    Hook {
        name: "redirect",
        params: &["cell"],
        kind: HookKind::Load,
        required: false,
        doc: "region the next move must go to after a move to `cell`; () for anywhere",
    },
    Hook {
        name: "region_name",
        params: &["region"],
        kind: HookKind::Load,
        required: false,
        doc: "a region's name in messages, such as \"top-right\"; default `board N (a1–c3)`",
    },
    Hook {
        name: "no_moves",
        params: &[],
        kind: HookKind::Load,
        required: false,
        doc: "result when the side to move has no legal move: \"loss\", \"draw\" (default) or \"win\"",
    },
    Hook {
        name: "repetition",
        params: &[],
        kind: HookKind::Load,
        required: false,
        doc: "the game is drawn when a position occurs this many times; () or 0 for never",
    },
    Hook {
        name: "refuse",
        params: &["state", "move"],
        kind: HookKind::PerMove,
        required: false,
        doc: "() to allow a move the board rules allow, or a string: the reason it is refused",
    },
    Hook {
        name: "outcome",
        params: &["state"],
        kind: HookKind::PerMove,
        required: false,
        doc: "after each move: () to play on, or \"X\", \"O\" or \"draw\" to end the game",
    },
];

/// The hook of that name.
pub fn hook(name: &str) -> Option<&'static Hook> {
    HOOKS.iter().find(|h| h.name == name)
}
