//! The sandboxed Rhai engine every rulebook script runs in: the libraries
//! it offers, the limits it holds, the built-in modules, the output it keeps.

use super::limits;
use crate::builtin;
use rhai::{Dynamic, Engine, EvalAltResult, Module, Scope, Shared};
use std::sync::{Mutex, OnceLock};

/// Sandbox limits. A load-time hook may build a few thousand cells' worth of
/// tables; anything far beyond that is a runaway loop.
pub(super) const MAX_OPERATIONS: u64 = 5_000_000;

pub(super) const MAX_CALL_LEVELS: usize = 48;

pub(super) const MAX_EXPR_DEPTH: usize = 64;

pub(super) const MAX_STRING_SIZE: usize = 64 * 1024;

pub(super) const MAX_ARRAY_SIZE: usize = 100_000;

pub(super) const MAX_MAP_SIZE: usize = 10_000;

/// Lines a script may print between two commands, and characters per line:
/// output waits for the command to end, so it must not grow without bound.
pub(super) const MAX_OUTPUT_LINES: usize = 200;

pub(super) const MAX_OUTPUT_LINE: usize = 500;

/// Runs `call` as one hook call, within the limits of [`limits`].
pub(super) fn with_deadline<T>(
    call: impl FnOnce() -> Result<T, Box<EvalAltResult>>,
) -> Result<T, Box<EvalAltResult>> {
    limits::within_limits(call, |why| {
        Box::new(EvalAltResult::ErrorTerminated(
            Dynamic::from(why),
            rhai::Position::NONE,
        ))
    })
}

rhai::def_package! {
    /// What rulebook scripts may call from Rhai's own libraries.
    ScriptLibrary(lib):
        rhai::packages::ArithmeticPackage,
        rhai::packages::BasicStringPackage,
        rhai::packages::BasicIteratorPackage,
        rhai::packages::BasicFnPackage,
        rhai::packages::LogicPackage,
        rhai::packages::BasicMathPackage,
        rhai::packages::BitFieldPackage,
        rhai::packages::BasicArrayPackage,
        rhai::packages::BasicBlobPackage,
        rhai::packages::BasicMapPackage,
        rhai::packages::MoreStringPackage
    {
        let _ = lib;
    }
}

/// An engine with the language and the libraries rulebook scripts use, and
/// nothing that reaches outside the script: Rhai's `LanguageCorePackage`
/// (`sleep`, `exit`, `parse_json`, function metadata) and
/// `BasicTimePackage` (`timestamp`) are left out, and `curry`, whose
/// arguments escape the size limits, is disabled.
pub(super) fn sandboxed_engine() -> Engine {
    use rhai::packages::Package;
    // One package, built once: functions are looked up in one flat module
    // (as in Rhai's StandardPackage) rather than through eleven.
    static LIBRARY: OnceLock<Shared<Module>> = OnceLock::new();
    let mut engine = Engine::new_raw();
    engine.register_global_module(
        LIBRARY
            .get_or_init(|| ScriptLibrary::new().as_shared_module())
            .clone(),
    );
    engine.disable_symbol("curry");
    // No optimizer: it copies a constant (a param, a top-level value, a
    // function's own `const`) into every place that names it, at compile
    // time, where no limit holds: 600 names of a large array made 1.9 GB
    // of code, and 40 000 functions × 30 000 params took 26 s. Reading
    // them by name costs under 1 % (instructions of a hook rulebook's
    // perft under callgrind).
    engine.set_optimization_level(rhai::OptimizationLevel::None);
    set_limits(&mut engine);
    engine.on_progress(|ops| limits::progress(ops).map(Dynamic::from));
    engine
}

/// The sandbox, set in one place for every engine that compiles or runs scripts.
pub(super) fn set_limits(engine: &mut Engine) {
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH)
        .set_max_string_size(MAX_STRING_SIZE)
        .set_max_array_size(MAX_ARRAY_SIZE)
        .set_max_map_size(MAX_MAP_SIZE)
        .set_max_modules(32);
}

/// Built-in script modules, compiled once per process.
pub(super) fn builtin_modules() -> &'static [(&'static str, Shared<Module>)] {
    static MODULES: OnceLock<Vec<(&'static str, Shared<Module>)>> = OnceLock::new();
    MODULES.get_or_init(|| {
        let mut engine = Engine::new_raw();
        set_limits(&mut engine);
        builtin::SCRIPTS
            .iter()
            .filter_map(|&(name, text)| {
                // A built-in that fails to compile is caught by the unit test
                // `builtin_scripts_compile`; here it is simply not offered.
                let ast = engine.compile(text).ok()?;
                let mut module = Module::eval_ast_as_new(Scope::new(), &ast, &engine).ok()?;
                module.set_id(format!("scripts/{name}.rhai"));
                Some((name, Shared::new(module)))
            })
            .collect()
    })
}

/// Keeps a line a script printed, within the output's bounds: past them
/// the rest is dropped, with one line that says so.
pub(super) fn keep_output(sink: &Mutex<Vec<String>>, text: &str) {
    let mut out = sink.lock().unwrap_or_else(|e| e.into_inner());
    match out.len() {
        n if n < MAX_OUTPUT_LINES => {
            let mut line: String = text.chars().take(MAX_OUTPUT_LINE).collect();
            if line.len() < text.len() {
                line.push_str(" …");
            }
            out.push(line);
        }
        MAX_OUTPUT_LINES => {
            out.push(format!(
                "(the script printed more than {MAX_OUTPUT_LINES} lines: the rest is not shown)"
            ));
        }
        _ => {}
    }
}
