//! What every hook sees besides its arguments: the board's constants, the
//! params, and what the script's top level left, detached from the top
//! level so that no hook can change what the next one sees.

use crate::error::ScriptError;
use crate::geometry::Grid;
use rhai::{Dynamic, Module, Scope, Shared};

/// The function run after the top level, and the one it calls to hand over
/// the top level's imports: names a script is unlikely to use.
pub(super) const TOP_LEVEL_END: &str = "__gridrules_top_level_end";

pub(super) const KEEP_IMPORTS: &str = "__gridrules_keep_imports";

/// The imports the top level leaves, handed over by [`KEEP_IMPORTS`] while
/// armed (only during the load: a script that calls it later changes nothing).
#[derive(Default)]
pub(super) struct KeptImports {
    pub(super) armed: bool,
    pub(super) modules: Vec<(String, Shared<Module>)>,
}

/// How the top level failed: a variable not found may be one the compile
/// already reported (see [`super::ScriptHost::new`]).
pub(super) enum TopLevelError {
    NotFound(ScriptError),
    Other(ScriptError),
}

/// The constants a script is compiled with: `WIDTH`, `HEIGHT`, the params
/// (upper-cased), then what its top level defined (which may shadow them).
pub(super) fn base_scope(
    grid: Grid,
    params: &[(String, Dynamic)],
    top: &[(String, Dynamic)],
) -> Scope<'static> {
    let mut scope = Scope::new();
    scope.push_constant("WIDTH", i64::from(grid.width()));
    scope.push_constant("HEIGHT", i64::from(grid.height()));
    // Constants, so that a hook cannot assign to them. The engine does not
    // optimize (see `sandboxed_engine`), so none is copied into the code:
    // a hook reads each by name, from the global module.
    for (name, value) in params {
        scope.push_constant_dynamic(name.to_uppercase(), value.clone());
    }
    for (name, value) in top {
        scope.push_constant_dynamic(name.clone(), value.clone());
    }
    scope
}

/// The names in `scope`, each once, for suggestions.
pub(super) fn names(scope: &Scope) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    // `iter_raw` runs newest first and clones nothing.
    for (name, ..) in scope.iter_raw() {
        if seen.insert(name) {
            out.push(name.to_string());
        }
    }
    out.reverse();
    out
}

/// A value the top level left, copied out of any sharing: a closure's
/// captured variables are shared, and a hook that changed one would change
/// what the next call sees (hooks must answer alike for alike positions).
pub(super) fn detach(value: &Dynamic) -> Dynamic {
    let value = match value.flatten_clone().try_cast_result::<rhai::Array>() {
        Ok(items) => return Dynamic::from_array(items.iter().map(detach).collect()),
        Err(value) => value,
    };
    let value = match value.try_cast_result::<rhai::Map>() {
        Ok(mut map) => {
            for item in map.values_mut() {
                *item = detach(item);
            }
            return Dynamic::from_map(map);
        }
        Err(value) => value,
    };
    match value.try_cast_result::<rhai::FnPtr>() {
        Ok(mut f) => {
            for item in f.iter_curry_mut() {
                *item = detach(item);
            }
            Dynamic::from(f)
        }
        Err(value) => value,
    }
}
