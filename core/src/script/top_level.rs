//! Running the script's top level once, and sharing what it leaves with
//! every hook: constants, imported modules, within the kept-memory limit.

use super::engine::with_deadline;
use super::limits;
use super::scope::{
    KEEP_IMPORTS, KeptImports, TOP_LEVEL_END, TopLevelError, base_scope, detach, names,
};
use super::syntax::{code_only, compile, syntax_error};
use super::{ScriptHost, modules};
use crate::error::{ScriptError, ScriptErrorKind, Snippet};
use crate::geometry::Grid;
use rhai::{CallFnOptions, Dynamic, EvalAltResult, Module, Scope, Shared};
use std::sync::Mutex;

impl ScriptHost {
    /// Makes what the top level left in its scope visible to every hook:
    /// constants in a global module, which hooks read by name (`LINES`,
    /// `LINES[i]`, `LINES.len()`); the script is compiled again with them
    /// in scope, so that strict variables know them. Recompiles only when
    /// there is something to share or a name was not found.
    pub(super) fn share_top_level(
        &mut self,
        grid: Grid,
        params: &[(String, Dynamic)],
        top: &[(String, Dynamic)],
        recompile: bool,
    ) -> Result<(), ScriptError> {
        let scope = base_scope(grid, params, top);
        let mut module = Module::new();
        // In order, so that a later definition of a name replaces an earlier.
        for (name, _, value) in scope.iter() {
            module.set_var(name, value);
        }
        self.engine.register_global_module(Shared::new(module));
        self.constants = names(&scope);
        if top.is_empty() && !recompile {
            return Ok(());
        }
        let ast = compile(&mut self.engine, &scope, &self.source, true)
            .map_err(|e| syntax_error(e, &scope, &self.source))?;
        self.functions = ast.clone_functions_only();
        self.ast = ast;
        Ok(())
    }

    /// Runs the script's top-level code, once, at load (it used to run again
    /// before every load-time hook call). The modules it imports are kept
    /// for every hook, the per-move ones included, as the built-in modules
    /// are. Returns the constants and variables it defines, each name once
    /// with its last value.
    pub(super) fn run_top_level(
        &mut self,
        mut scope: Scope<'static>,
        keep: &Mutex<KeptImports>,
    ) -> Result<Vec<(String, Dynamic)>, TopLevelError> {
        // A function after the top level, which Rhai calls with the top
        // level's imports still in place, hands them over; the scope keeps
        // the top level's variables. A top-level `return` still reaches it.
        let end = self
            .engine
            .compile(format!("fn {TOP_LEVEL_END}() {{ {KEEP_IMPORTS}() }}"))
            .map_err(|e| {
                TopLevelError::Other(ScriptError {
                    kind: ScriptErrorKind::Runtime,
                    hook: None,
                    location: None,
                    message: format!("the engine could not run the script's top level: {e}"),
                    snippet: None,
                    help: None,
                })
            })?;
        let whole = self.ast.merge(&end);
        let given = scope.len();
        keep.lock().unwrap_or_else(|e| e.into_inner()).armed = true;
        let options = CallFnOptions::new().eval_ast(true).rewind_scope(false);
        let result = with_deadline(|| {
            self.engine.call_fn_with_options::<Dynamic>(
                options,
                &mut scope,
                &whole,
                TOP_LEVEL_END,
                (),
            )
        });
        let modules = {
            let mut kept = keep.lock().unwrap_or_else(|e| e.into_inner());
            kept.armed = false;
            std::mem::take(&mut kept.modules)
        };
        if let Err(e) = result {
            let not_found = matches!(*e, EvalAltResult::ErrorVariableNotFound(..));
            let error = self.script_error("", *e);
            return Err(if not_found {
                TopLevelError::NotFound(error)
            } else {
                TopLevelError::Other(error)
            });
        }
        self.check_kept(&scope, given, &modules)
            .map_err(TopLevelError::Other)?;
        for (alias, imported) in modules {
            self.engine.register_static_module(alias, imported);
        }
        let mut defined: Vec<(String, Dynamic)> = Vec::new();
        for (name, _, value) in scope.iter().skip(given) {
            defined.retain(|(n, _)| n != name);
            defined.push((name.to_string(), detach(&value)));
        }
        Ok(defined)
    }

    /// Refuses a top level that leaves more than [`limits::KEPT_MIB`] in
    /// its variables (past the `given` ones) and the modules it imported,
    /// counted through closures, or values nested deeper than
    /// [`limits::KEPT_DEPTH`]: the hooks keep all of it for as long as the
    /// rulebook is loaded. Names the largest variable.
    pub(super) fn check_kept(
        &self,
        scope: &Scope,
        given: usize,
        modules: &[(String, Shared<Module>)],
    ) -> Result<(), ScriptError> {
        const LIMIT: u64 = limits::KEPT_MIB << 20;
        // `iter_raw` runs newest first (Rhai's `iter_rev_inner`) and clones
        // nothing (`iter` would copy every value): the top level's own
        // variables are the first `len - given`.
        let variables = scope
            .iter_raw()
            .take(scope.len() - given)
            .map(|(name, _, value)| (name.to_string(), value));
        let mut total = 0;
        let mut largest = (String::new(), 0);
        let kept = variables
            .map(|(name, value)| (name, Ok(value)))
            .chain(modules.iter().map(|(alias, m)| (alias.clone(), Err(m))));
        for (name, held) in kept {
            let room = LIMIT - total.min(LIMIT);
            let bytes = match held {
                Ok(value) => limits::bytes_held(value, room),
                Err(module) => modules::module_bytes(module, room),
            };
            let Some(bytes) = bytes else {
                return Err(self.kept_error(
                    &name,
                    format!(
                        "`{name}` nests values deeper than {} levels (or a closure captured itself)",
                        limits::KEPT_DEPTH
                    ),
                    "keep plain values at the top level: a closure that captures the variable it is kept in never ends".to_string(),
                ));
            };
            total += bytes;
            if bytes > largest.1 {
                largest = (name, bytes);
            }
            if total > LIMIT {
                let (name, bytes) = largest;
                return Err(self.kept_error(
                    &name,
                    format!(
                        "the top level leaves more than {} MiB for the hooks (closures' captured values counted); `{name}` alone holds {}{} MiB",
                        limits::KEPT_MIB,
                        if bytes > LIMIT { "over " } else { "" },
                        bytes.min(LIMIT + 1) >> 20
                    ),
                    format!(
                        "build large tables in a load-time hook (`lines()`, …), or keep less at the top level: at most {} MiB",
                        limits::KEPT_MIB
                    ),
                ));
            }
        }
        Ok(())
    }

    /// An error about the top-level variable `name`, pointed at where the
    /// script defines it.
    pub(super) fn kept_error(&self, name: &str, message: String, help: String) -> ScriptError {
        let code = code_only(&self.source.text);
        let at = ["let ", "const "].iter().find_map(|kw| {
            let pattern = format!("{kw}{name}");
            code.match_indices(&pattern)
                .map(|(i, _)| i + kw.len())
                .find(|&i| {
                    !code[i + name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                })
        });
        let snippet = at.map(|at| {
            let mut s = Snippet::new(&self.text, at..at + name.len());
            s.label = Some("defined here".to_string());
            Box::new(s)
        });
        ScriptError {
            kind: ScriptErrorKind::Limit,
            hook: None,
            location: at.map(|at| self.text.location(at)),
            message,
            snippet,
            help: Some(help),
        }
    }
}
