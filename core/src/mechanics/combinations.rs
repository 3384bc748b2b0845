//! Primitives that cannot go together, refused at the hook that adds the
//! second one. Not a mechanic of its own: a load step between them, run
//! once the mechanics it weighs are read.

use super::load::Load;
use super::words::Marks;
use super::{Mechanic, Mechanics};
use crate::error::RulebookError;
use crate::position::UNLIMITED;
use crate::script::hooks::HookId;

pub(super) const MECHANIC: Mechanic = Mechanic {
    name: "combinations",
    hooks: &[],
    build,
};

/// Refuses primitives that cannot go together, at the hook that adds the
/// second one.
fn build(load: &Load<'_>, t: &mut Mechanics) -> Result<(), RulebookError> {
    let (pieces, marks, line_result, gravity) = (t.pieces, t.marks, t.line_result, t.gravity);
    // No pieces at all (every move a slide) is not a moving phase.
    let moving = pieces != UNLIMITED && pieces != 0;
    if gravity && moving {
        return Err(load.bad(
            HookId::Support,
            "support() cannot go with pieces(): a piece that moves away would leave the marks above it unsupported".into(),
        ));
    }
    if marks != Marks::Own && moving {
        return Err(load.bad(
            HookId::Marks,
            format!(
                "marks() is \"{}\": with pieces() each side moves its own pieces, so marks must be \"own\"",
                if marks == Marks::Either { "either" } else { "shared" }
            ),
        ));
    }
    if marks == Marks::Shared && line_result.needs_owner() {
        let hook = if load.host.defines(HookId::LineResult) {
            HookId::LineResult
        } else {
            HookId::Marks
        };
        return Err(load.bad(
            hook,
            "with a shared mark a line has no owner: line_result() must be \"mover wins\", \"mover loses\", \"X wins\" or \"O wins\"".into(),
        ));
    }
    if load.host.defines(HookId::FullRegion) && t.regions.is_empty() {
        return Err(load.bad(
            HookId::FullRegion,
            "`full_region` needs regions: define `regions()` too".into(),
        ));
    }
    Ok(())
}
