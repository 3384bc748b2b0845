//! Table rules: how people play a variant (clock, rematches, pie rule),
//! as the rulebook's `[table]` section states them. The live table they
//! set up (seats, score, clock) is the REPL's.

/// Longest per-move limit a rulebook or player may set, in seconds.
pub const MAX_CLOCK: u32 = 24 * 3600;

/// The computer's budget, in playouts a search tree, unless a rulebook's
/// `[table] ai_playouts` says otherwise.
pub const DEFAULT_AI_PLAYOUTS: u32 = 20_000;
/// The range `[table] ai_playouts` may take.
pub const AI_PLAYOUTS: std::ops::RangeInclusive<u32> = 100..=10_000_000;

/// Where a move made for a player whose time ran out goes (T2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutMove {
    /// Any legal move, at random.
    Random,
    /// A placement next to (or diagonally touching) a mark already on the
    /// board when there is one, "not in an empty corner".
    Near,
}

/// The `[table]` section, validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRules {
    /// Seconds per move by default; `None` for no clock.
    pub clock: Option<u32>,
    /// The per-move limits a player may choose; empty for any.
    pub clock_options: Vec<u32>,
    /// Whether a rematch swaps marks, so the first move passes to the other seat (G5).
    pub alternate: bool,
    /// Where a timed-out player's move goes.
    pub timeout_move: TimeoutMove,
    /// The pie rule (PI1): the second player may answer the first move
    /// with `swap`, taking the first player's side.
    pub pie: bool,
    /// The computer's budget in playouts a search tree (`ai_playouts`).
    pub ai_playouts: u32,
}

impl Default for TableRules {
    fn default() -> TableRules {
        TableRules {
            clock: None,
            clock_options: Vec::new(),
            alternate: true,
            timeout_move: TimeoutMove::Random,
            pie: false,
            ai_playouts: DEFAULT_AI_PLAYOUTS,
        }
    }
}

impl TableRules {
    /// Whether a per-move limit of `seconds` may be chosen.
    pub fn allows_clock(&self, seconds: u32) -> bool {
        (1..=MAX_CLOCK).contains(&seconds)
            && (self.clock_options.is_empty()
                || self.clock_options.contains(&seconds)
                || self.clock == Some(seconds))
    }
}
