//! Turns of several marks (`turn_marks()`): connect6's one, then two; and
//! turns that name their marks, whoever places them: the swap
//! opening, `[["X", "O", "X"], 1]`.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::mechanics::words::Marks;
use crate::position::{Side, UNLIMITED};
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

/// `turn_marks()`: marks per turn, by turn number, each a count of the
/// mover's own marks or the marks named.
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
    let mut named = Vec::new();
    let last = items.len() - 1;
    for (i, item) in items.iter().enumerate() {
        let wrong = |what: String| {
            load.bad(
                hook,
                format!(
                    "turn_marks(), item {}: {what}, found {}",
                    i + 1,
                    describe(item)
                ),
            )
        };
        if item.is_array() {
            if i == last {
                return Err(wrong(
                    "the last item stands for every later turn, so it is a number of the mover's own marks; name marks in the turns before it".into(),
                ));
            }
            let marks = item.clone().into_array().unwrap_or_default();
            if marks.is_empty() || marks.len() > MAX_TURN_MARKS as usize {
                return Err(wrong(format!("a turn names 1 to {MAX_TURN_MARKS} marks")));
            }
            for mark in &marks {
                let side = mark
                    .clone()
                    .into_string()
                    .ok()
                    .and_then(|m| match m.as_str() {
                        "X" => Some(Side::X),
                        "O" => Some(Side::O),
                        _ => None,
                    });
                let Some(side) = side else {
                    return Err(load.bad(
                        hook,
                        format!(
                            "turn_marks(), item {}: a turn's marks are \"X\" or \"O\", found {}",
                            i + 1,
                            describe(mark)
                        ),
                    ));
                };
                named.push(Some(side));
            }
            counts.push(marks.len() as u32);
            continue;
        }
        match item.as_int() {
            Ok(n) if (1..=MAX_TURN_MARKS).contains(&n) => {
                counts.push(n as u32);
                // Past the turns that name marks, none is named.
                if i < last {
                    named.extend(std::iter::repeat_n(None, n as usize));
                }
            }
            _ => {
                return Err(wrong(format!(
                    "a turn places 1 to {MAX_TURN_MARKS} marks, or names them ([\"X\", \"O\"])"
                )));
            }
        }
    }
    if named.iter().any(Option::is_some) && t.marks != Marks::Own {
        return Err(load.bad(
            hook,
            "turn_marks() names marks, which goes only with marks() \"own\": where the mover chooses or both place X, a turn cannot fix them".into(),
        ));
    }
    if counts != [1] && pieces != UNLIMITED {
        return Err(load.bad(
            hook,
            "turn_marks() cannot go with pieces(): a turn of several moves needs marks that are only placed".into(),
        ));
    }
    t.turns = Turns::with_named(counts, named);
    Ok(())
}
