//! Counts that change the rules (`fly_at()`, `lose_at()`): a side down to
//! so many pieces moves one anywhere, or loses — nine men's morris's
//! flying and its two pieces that lose.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::geometry::Bits;
use crate::position::{Ending, Move, MoveList, Outcome, Position, Side, UNLIMITED};
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "counts",
    hooks: &[HookId::FlyAt, HookId::LoseAt],
    build,
};

/// Reads `fly_at()` (needs `pieces()`) and `lose_at()` (needs `removes()`:
/// without removals no side's count ever falls).
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let limited = t.pieces != UNLIMITED && t.pieces != 0;
    if let Some(v) = load.call(HookId::FlyAt, ())? {
        match load.int(HookId::FlyAt, "fly_at()", &v)? {
            None | Some(0) => {}
            Some(_) if !limited => {
                return Err(load.bad(
                    HookId::FlyAt,
                    "fly_at() needs pieces(): only pieces that move can fly".to_string(),
                ));
            }
            // As many as pieces(): every piece flies once all are placed.
            Some(n) if (1..=i64::from(t.pieces)).contains(&n) => t.fly_at = n as u16,
            Some(n) => {
                return Err(load.bad(
                    HookId::FlyAt,
                    format!(
                        "fly_at() is {n}: expected 1 to {}, at most pieces(), or () for never",
                        t.pieces
                    ),
                ));
            }
        }
    }
    if let Some(v) = load.call(HookId::LoseAt, ())? {
        match load.int(HookId::LoseAt, "lose_at()", &v)? {
            None => {}
            Some(_) if !t.removes() || !limited => {
                return Err(load.bad(
                    HookId::LoseAt,
                    "lose_at() needs pieces() and removes(): only removals bring a side's pieces down"
                        .to_string(),
                ));
            }
            Some(n) if (0..i64::from(t.pieces)).contains(&n) => t.lose_at = Some(n as u16),
            Some(n) => {
                return Err(load.bad(
                    HookId::LoseAt,
                    format!(
                        "lose_at() is {n}: expected 0 to {}, fewer than pieces(), or () for never",
                        t.pieces - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

impl Mechanics {
    /// Whether the side to move may move a piece to any empty cell: its hand
    /// is empty and it is down to `fly_at()` pieces or fewer.
    #[inline(always)]
    pub fn flies(&self, pos: &Position) -> bool {
        self.fly_at != 0
            && *pos.in_hand.get(pos.turn) == 0
            && pos.marks(pos.turn).count() <= u32::from(self.fly_at)
    }

    /// Pushes every flight of the side to move (see [`Self::flies`]): each
    /// piece to each `free` cell. Out of line: the steps' loop stays as
    /// tight as before flying existed.
    #[cold]
    #[inline(never)]
    pub(crate) fn push_flights<const W: usize>(
        &self,
        pos: &Position,
        free: Bits<W>,
        out: &mut MoveList,
    ) {
        for from in pos.marks.get(pos.turn).prefix::<W>() {
            for to in free {
                out.push(Move::Step { from, to });
            }
        }
    }

    /// The pieces a side still has, on the board and in hand.
    pub(crate) fn pieces_left(pos: &Position, side: Side) -> u32 {
        let hand = *pos.in_hand.get(side);
        pos.marks(side).count()
            + if hand == UNLIMITED {
                0
            } else {
                u32::from(hand)
            }
    }

    /// Ends the game when `side` is down to `lose_at()` pieces.
    pub(crate) fn settle_count(&self, p: &mut Position, side: Side) {
        if let Some(at) = self.lose_at {
            let left = Self::pieces_left(p, side);
            if left <= u32::from(at) {
                p.result = Some((
                    Outcome::Win(side.other()),
                    Ending::Reduced(side, left as u16),
                ));
            }
        }
    }

    /// `fly_at()`, if a side ever flies.
    pub fn fly_at(&self) -> Option<u16> {
        (self.fly_at != 0).then_some(self.fly_at)
    }

    /// `lose_at()`, if a count loses.
    pub fn lose_at(&self) -> Option<u16> {
        self.lose_at
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Game;
    use crate::rulebook::Rulebook;
    use std::sync::Arc;

    /// Three pieces on 3×3 whose steps are orthogonal, flying at `fly`.
    fn flying(fly: u32) -> Result<Rulebook, String> {
        let script = format!(
            "fn lines() {{ lines::straight(3) }}\nfn wins(run) {{ run >= 3 }}\nfn pieces() {{ 3 }}\n\
             fn steps(c) {{ movement::orthogonal(c) }}\nfn fly_at() {{ {fly} }}\n"
        );
        Rulebook::scripted(&script, 3, 3).map_err(|e| e.to_string())
    }

    /// `fly_at()` as many as `pieces()`: every piece flies once all are
    /// placed (flying Picaria); it was refused as "fewer than pieces()".
    #[test]
    fn every_piece_may_fly() {
        let mut game = Game::new(Arc::new(flying(3).unwrap()));
        for m in ["a1", "b1", "c2", "a2", "b3", "c3"] {
            game.play(game.parse_move(m).unwrap()).unwrap();
        }
        // c1 is no step from a1 (b1 stands between): a flight.
        let flight = game.parse_move("a1-c1").unwrap();
        assert!(game.play(flight).is_ok());
        let err = flying(4).unwrap_err();
        assert!(
            err.contains("fly_at() is 4: expected 1 to 3, at most pieces()"),
            "{err}"
        );
    }
}
