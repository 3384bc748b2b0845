//! The repetition rule (`repetition()`): a position seen so many times draws.

use super::load::Load;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "repetition",
    hooks: &[HookId::Repetition],
    build,
};

/// Reads `repetition()`: 2 to 1000, or never.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    t.repetition = match load.call(HookId::Repetition, ())? {
        None => None,
        Some(v) => match load.int(HookId::Repetition, "repetition()", &v)? {
            None | Some(0) => None,
            Some(r) if (2..=1000).contains(&r) => Some(r as u32),
            Some(r) => {
                return Err(load.bad(
                    HookId::Repetition,
                    format!("repetition() is {r}: expected 2 to 1000, or () / 0 for never"),
                ));
            }
        },
    };
    Ok(())
}
