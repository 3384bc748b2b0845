//! Turns of several marks (`turn_marks()`): connect6's one, then two.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::position::UNLIMITED;
use crate::script::describe;
use crate::script::hooks::HookId;
use crate::turns::Turns;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "turns",
    hooks: &[HookId::TurnMarks],
    build,
};

/// The most marks one turn may place.
const MAX_TURN_MARKS: i64 = 16;

/// `turn_marks()`: marks per turn, by turn number.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let pieces = t.pieces;
    let Some(v) = load.call(HookId::TurnMarks, ())? else {
        return Ok(());
    };
    let hook = HookId::TurnMarks;
    let items = load.array(hook, "turn_marks()", v)?;
    if items.is_empty() {
        return Err(load.bad(
            hook,
            "turn_marks() is empty: expected marks per turn, such as [1, 2]".into(),
        ));
    }
    let mut counts = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        match item.as_int() {
            Ok(n) if (1..=MAX_TURN_MARKS).contains(&n) => counts.push(n as u32),
            _ => {
                return Err(load.bad(
                    hook,
                    format!(
                        "turn_marks(), item {}: a turn places 1 to {MAX_TURN_MARKS} marks, found {}",
                        i + 1,
                        describe(item)
                    ),
                ));
            }
        }
    }
    if counts != [1] && pieces != UNLIMITED {
        return Err(load.bad(
            hook,
            "turn_marks() cannot go with pieces(): a turn of several moves needs marks that are only placed".into(),
        ));
    }
    t.turns = Turns::new(counts);
    Ok(())
}
