//! The Rhai host: one sandboxed engine and one compiled script per rulebook.

pub mod api;
pub mod hooks;
pub mod limits;
mod modules;

pub use limits::{COMMAND_SCRIPT_SECONDS, HOOK_SECONDS, LOAD_SECONDS, ScriptBudget};

use crate::builtin;
use crate::error::{
    Location, Problem, ProblemKind, RulebookError, ScriptError, ScriptErrorKind, Snippet, Source,
};
use crate::geometry::Grid;
use crate::position::{Move, Position};
use crate::turns::TurnPlace;
use api::{History, ScriptMove, ScriptState};
use hooks::{HOOKS, HookId, HookKind};
use rhai::{
    AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Module, NativeCallContext, ParseError,
    Scope, Shared,
};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Sandbox limits. A load-time hook may build a few thousand cells' worth of
/// tables; anything far beyond that is a runaway loop.
const MAX_OPERATIONS: u64 = 5_000_000;
const MAX_CALL_LEVELS: usize = 48;
const MAX_EXPR_DEPTH: usize = 64;
const MAX_STRING_SIZE: usize = 64 * 1024;
const MAX_ARRAY_SIZE: usize = 100_000;
const MAX_MAP_SIZE: usize = 10_000;
/// Lines a script may print between two commands, and characters per line:
/// output waits for the command to end, so it must not grow without bound.
const MAX_OUTPUT_LINES: usize = 200;
const MAX_OUTPUT_LINE: usize = 500;
/// Runs `call` as one hook call, within the limits of [`limits`].
fn with_deadline<T>(
    call: impl FnOnce() -> Result<T, Box<EvalAltResult>>,
) -> Result<T, Box<EvalAltResult>> {
    limits::within_limits(call, |why| {
        Box::new(EvalAltResult::ErrorTerminated(
            Dynamic::from(why),
            rhai::Position::NONE,
        ))
    })
}

/// Where a script came from.
#[derive(Debug, Clone)]
pub struct ScriptSource {
    /// The path shown in messages (`scripts/lines.rhai` for built-ins).
    pub path: String,
    /// The script text (shared with the diagnostics that point into it).
    pub text: Arc<str>,
    /// Directory that `import "file"` resolves against; `None` for built-ins.
    pub dir: Option<PathBuf>,
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
fn sandboxed_engine() -> Engine {
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
fn set_limits(engine: &mut Engine) {
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
fn builtin_modules() -> &'static [(&'static str, Shared<Module>)] {
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

/// A rulebook's script, compiled, with the engine that runs it.
pub struct ScriptHost {
    engine: Engine,
    ast: AST,
    /// The script's functions, without its top-level code (run once, at
    /// load): every hook is called here.
    functions: AST,
    source: ScriptSource,
    /// The script's text as loaded, which diagnostics point into.
    text: Source,
    /// The texts of the modules it imported from files, likewise.
    module_texts: Arc<Mutex<Vec<Source>>>,
    /// The words of its code (not its comments or strings), read once:
    /// a rulebook asks about each of its params.
    words: OnceLock<std::collections::HashSet<String>>,
    output: Arc<Mutex<Vec<String>>>,
    /// Set the first time a hook reads `state.history`: from then on a
    /// position's value may depend on the way to it.
    history_read: Arc<AtomicBool>,
    per_move: Vec<HookId>,
    /// Every hook the script defines, in registry order.
    defined: Vec<HookId>,
    /// What the author may have got wrong without breaking the load: a
    /// function one slip from a hook's name, which the engine never calls.
    warnings: Vec<Problem>,
    /// The constants every hook sees (`WIDTH`, `HEIGHT`, the params), for
    /// suggestions when a name is not found.
    constants: Vec<String>,
    /// Whether moves name their mark (`b2=O`), for the move texts hooks see;
    /// set once the tables say which marks a move places.
    pub(crate) explicit_mark: bool,
}

impl std::fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptHost")
            .field("path", &self.source.path)
            .field("per_move", &self.per_move)
            .finish_non_exhaustive()
    }
}

impl ScriptHost {
    /// Compiles `source` for a board of `grid`, with `params` as constants.
    ///
    /// # Errors
    /// A syntax error, or a hook defined with the wrong number of parameters.
    pub fn new(
        grid: Grid,
        params: &[(String, Dynamic)],
        source: ScriptSource,
    ) -> Result<ScriptHost, RulebookError> {
        let mut engine = sandboxed_engine();
        engine.set_strict_variables(true);
        api::register_board(&mut engine, grid);
        let history_read = Arc::new(AtomicBool::new(false));
        api::register_types(&mut engine, history_read.clone());
        let output = Arc::new(Mutex::new(Vec::new()));
        let sink = output.clone();
        engine.on_print(move |s| keep_output(&sink, s));
        let sink = output.clone();
        engine.on_debug(move |s, _, _| keep_output(&sink, s));

        let mut builtins = Vec::new();
        for (name, module) in builtin_modules() {
            engine.register_static_module(*name, module.clone());
            builtins.push((*name, module.clone()));
        }
        let module_texts = Arc::new(Mutex::new(Vec::new()));
        engine.set_module_resolver(modules::Modules::new(
            builtins,
            source.dir.as_deref(),
            module_texts.clone(),
        ));

        let keep = Arc::new(Mutex::new(KeptImports::default()));
        let sink = keep.clone();
        engine.register_fn(KEEP_IMPORTS, move |ctx: NativeCallContext| {
            let mut kept = sink.lock().unwrap_or_else(|e| e.into_inner());
            if kept.armed {
                kept.armed = false;
                kept.modules = ctx
                    .iter_imports()
                    .map(|(alias, m)| (alias.to_string(), Shared::new(m.clone())))
                    .collect();
                // Latest first: reversed so that a later import of an alias
                // is registered last, and wins, as it does in the script.
                kept.modules.reverse();
            }
        });

        let params_scope = base_scope(grid, params, &[]);
        // Strict variables catch a misspelt name at load, with a suggestion;
        // but a hook may name what the top level defines, which only running
        // the top level tells. So a name not found sends the script through
        // a lenient compile, its top level, and a strict compile again.
        let first = compile(&mut engine, &params_scope, &source, true);
        let (ast, undefined) = match first {
            Ok(ast) => (ast, None),
            Err(e) if matches!(*e.0, rhai::ParseErrorType::VariableUndefined(_)) => {
                let lenient = compile(&mut engine, &params_scope, &source, false)
                    .map_err(|e| syntax_error(e, &params_scope, &source))?;
                (lenient, Some(e))
            }
            Err(e) => return Err(syntax_error(e, &params_scope, &source).into()),
        };
        let functions = ast.clone_functions_only();
        let text = Source::new(source.path.clone(), source.text.clone());
        let mut host = ScriptHost {
            engine,
            ast,
            functions,
            source,
            text,
            module_texts,
            words: OnceLock::new(),
            output,
            history_read,
            per_move: Vec::new(),
            defined: Vec::new(),
            warnings: Vec::new(),
            constants: names(&params_scope),
            explicit_mark: false,
        };
        host.check_hooks()?;
        host.warn_of_near_hooks();
        let top = match (host.run_top_level(params_scope, &keep), undefined) {
            (Ok(top), undefined) => (top, undefined.is_some()),
            // The top level itself names an undefined variable: the compile
            // error said so first, with its suggestion.
            (Err(TopLevelError::NotFound(_)), Some(first)) => {
                let scope = base_scope(grid, params, &[]);
                return Err(syntax_error(first, &scope, &host.source).into());
            }
            (Err(TopLevelError::NotFound(e) | TopLevelError::Other(e)), _) => {
                return Err(e.into());
            }
        };
        host.share_top_level(grid, params, &top.0, top.1)?;
        Ok(host)
    }

    /// Makes what the top level left in its scope visible to every hook:
    /// constants in a global module, which hooks read by name (`LINES`,
    /// `LINES[i]`, `LINES.len()`); the script is compiled again with them
    /// in scope, so that strict variables know them. Recompiles only when
    /// there is something to share or a name was not found.
    fn share_top_level(
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
    fn run_top_level(
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
    fn check_kept(
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
    fn kept_error(&self, name: &str, message: String, help: String) -> ScriptError {
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

    /// Checks every defined hook's arity and that the required ones exist.
    fn check_hooks(&mut self) -> Result<(), RulebookError> {
        let mut problems = Vec::new();
        let defined: Vec<(String, usize)> = self
            .ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        for hook in HOOKS {
            let arities: Vec<usize> = defined
                .iter()
                .filter(|(n, _)| n == hook.name)
                .map(|(_, a)| *a)
                .collect();
            if arities.is_empty() {
                if hook.required {
                    // `fn line()` for `fn lines()`: point at the slip.
                    let slip =
                        crate::suggest::nearest(hook.name, defined.iter().map(|(n, _)| n.as_str()));
                    let message = format!(
                        "missing hook `{}`: every rulebook script must define it ({})",
                        hook.signature(),
                        hook.doc
                    );
                    problems.push(match slip.and_then(|n| self.fn_name_range(n)) {
                        Some(range) => {
                            Problem::spanned(ProblemKind::MissingHook, &self.text, range, message)
                                .with_label("not a hook")
                                .with_help(Some(format!(
                                    "is `fn {}` meant to be it? name it `{}`",
                                    slip.unwrap_or_default(),
                                    hook.name
                                )))
                        }
                        None => Problem::at(ProblemKind::MissingHook, self.location(1, 1), message),
                    });
                }
            } else if !arities.contains(&hook.params.len()) {
                let range = self.fn_name_range(hook.name).unwrap_or(0..0);
                problems.push(Problem::spanned(
                    ProblemKind::HookArity,
                    &self.text,
                    range,
                    format!(
                        "hook `{}` takes {} parameter{}, found {}: expected `fn {}`",
                        hook.name,
                        hook.params.len(),
                        if hook.params.len() == 1 { "" } else { "s" },
                        arities[0],
                        hook.signature()
                    ),
                ));
            } else {
                self.defined.push(hook.id);
                if hook.kind == HookKind::PerMove {
                    self.per_move.push(hook.id);
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RulebookError { problems })
        }
    }

    /// Warns of each function whose name is a slip from a hook the script
    /// does not define (`outcom` for `outcome`): as written it is never
    /// called, and the variant quietly plays without that rule.
    fn warn_of_near_hooks(&mut self) {
        let missing: Vec<&str> = HOOKS
            .iter()
            .filter(|h| !self.defined.contains(&h.id))
            .map(|h| h.name)
            .collect();
        let mut seen = Vec::new();
        for f in self.ast.iter_functions() {
            let name = f.name.to_string();
            if HookId::from_name(&name).is_some() || seen.contains(&name) {
                continue;
            }
            if let Some(hook) = crate::suggest::nearest(&name, missing.iter().copied()) {
                let range = self.fn_name_range(&name).unwrap_or(0..0);
                let signature =
                    HookId::from_name(hook).map_or(String::new(), |h| h.spec().signature());
                self.warnings.push(
                    Problem::spanned(
                        ProblemKind::NotAHook,
                        &self.text,
                        range,
                        format!("function `{name}` is not a hook, so the engine never calls it"),
                    )
                    .with_label("not a hook")
                    .with_help(Some(format!("did you mean `fn {signature}`?"))),
                );
            }
            seen.push(name);
        }
    }

    /// For a name not found, the nearest name that exists: a constant
    /// (params are upper-case: `K`, not `k`) for a variable, a script or
    /// module function for a call.
    fn nearest_name(&self, err: &EvalAltResult) -> Option<String> {
        match err {
            EvalAltResult::ErrorVariableNotFound(name, _) => variable_hint(name, &self.constants),
            EvalAltResult::ErrorFunctionNotFound(signature, _) => {
                // `lines::stright (i64)`: the name is before the arguments.
                let name = signature.split(" (").next().unwrap_or(signature).trim();
                let mut known: Vec<String> = self
                    .ast
                    .iter_functions()
                    .map(|f| f.name.to_string())
                    .collect();
                for sig in self.engine.gen_fn_signatures(false) {
                    if let Some(n) = sig
                        .strip_prefix("fn ")
                        .or(Some(&sig))
                        .and_then(|s| s.split('(').next())
                    {
                        known.push(n.trim().to_string());
                    }
                }
                crate::suggest::did_you_mean(name, known.iter().map(String::as_str))
            }
            _ => None,
        }
    }

    /// Whether the script's code (not its comments or strings) names `word`.
    pub fn mentions(&self, word: &str) -> bool {
        self.words
            .get_or_init(|| {
                code_only(&self.source.text)
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .filter(|w| !w.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .contains(word)
    }

    /// What the author may have got wrong without breaking the load.
    pub fn warnings(&self) -> &[Problem] {
        &self.warnings
    }

    fn location(&self, line: usize, col: usize) -> Location {
        Location {
            path: self.source.path.clone(),
            line,
            col,
        }
    }

    /// The script's path as shown in messages.
    pub fn path(&self) -> &str {
        &self.source.path
    }

    /// The script's text as loaded (`new-variant --from` copies it).
    pub fn text(&self) -> &str {
        &self.source.text
    }

    /// Whether the script defines `hook` (with the right arity, checked at load).
    pub fn defines(&self, hook: HookId) -> bool {
        self.defined.contains(&hook)
    }

    /// The hooks the script defines, in registry order.
    pub fn hooks(&self) -> &[HookId] {
        &self.defined
    }

    /// Whether a hook has read `state.history` (so far, in this process).
    pub fn has_read_history(&self) -> bool {
        self.history_read.load(Ordering::Relaxed)
    }

    /// Whether the script defines the per-move hook `hook`.
    pub fn has_per_move(&self, hook: HookId) -> bool {
        self.per_move.contains(&hook)
    }

    /// Calls a load-time hook (the top-level code has run, once, at load).
    ///
    /// # Errors
    /// The script's error or a tripped limit, located in the script.
    pub fn call_load(
        &self,
        hook: HookId,
        args: impl rhai::FuncArgs,
    ) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false);
        with_deadline(|| {
            self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                args,
            )
        })
        .map_err(|e| self.script_error(hook.name(), *e))
    }

    /// Calls a per-move hook with the state (and the move, for `refuse`);
    /// `history` holds the moves that led to `pos`.
    ///
    /// # Errors
    /// The script's error or a tripped limit, located in the script.
    pub fn call_per_move(
        &self,
        hook: HookId,
        grid: Grid,
        pos: &Position,
        history: &History,
        turn: TurnPlace,
        mv: Option<Move>,
    ) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false);
        let explicit_mark = self.explicit_mark;
        let state = Dynamic::from(ScriptState {
            pos: *pos,
            history: history.clone(),
            turn,
            grid,
            explicit_mark,
        });
        let result = with_deadline(|| match mv {
            Some(mv) => self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                (
                    state,
                    Dynamic::from(ScriptMove {
                        mv,
                        grid,
                        explicit_mark,
                        mover: pos.turn(),
                    }),
                ),
            ),
            None => self.engine.call_fn_with_options(
                options,
                &mut Scope::new(),
                &self.functions,
                hook.name(),
                (state,),
            ),
        });
        result.map_err(|e| self.script_error(hook.name(), *e))
    }

    /// Where hook `name` is defined in the script, when it is.
    pub fn hook_location(&self, name: &str) -> Option<Location> {
        self.fn_name_range(name)
            .map(|range| self.text.location(range.start))
    }

    /// The range of `name` in its `fn name(…)` definition.
    fn fn_name_range(&self, name: &str) -> Option<Range<usize>> {
        let (line, col) = api::fn_position(&self.source.text, name)?;
        let at = self.text.offset(line, col);
        let fn_at = at + self.text.text[at..].find("fn ")? + 3;
        let name_at = fn_at + self.text.text[fn_at..].find(name)?;
        Some(name_at..name_at + name.len())
    }

    /// An error about what hook `hook` answered: the engine cannot tell
    /// which expression made the value, so it points at the hook's name.
    pub(crate) fn bad_value(&self, hook: HookId, message: String) -> ScriptError {
        let snippet = self.fn_name_range(hook.name()).map(|range| {
            let mut s = Snippet::new(&self.text, range);
            s.label = Some("this hook's answer".to_string());
            s
        });
        ScriptError {
            kind: ScriptErrorKind::BadValue,
            hook: Some(hook.name()),
            location: self.hook_location(hook.name()),
            message,
            snippet: snippet.map(Box::new),
            help: None,
        }
    }

    /// Takes what the script printed since the last call.
    pub fn take_output(&self) -> Vec<String> {
        std::mem::take(&mut *self.output.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Turns a Rhai error into a located [`ScriptError`], naming the innermost
    /// function and the file (the script, or a built-in module) it failed in.
    fn script_error(&self, hook: &str, mut err: EvalAltResult) -> ScriptError {
        let mut path = self.source.path.clone();
        let mut at = err.position();
        loop {
            match err {
                EvalAltResult::ErrorInFunctionCall(_, src, inner, pos) => {
                    if !src.is_empty() {
                        path = src;
                    }
                    // The innermost known position is the most precise one.
                    if !inner.position().is_none() {
                        at = inner.position();
                    } else if at.is_none() {
                        at = pos;
                    }
                    err = *inner;
                }
                EvalAltResult::ErrorInModule(src, inner, _) => {
                    path = src;
                    at = inner.position();
                    err = *inner;
                }
                _ => break,
            }
        }
        let kind = match err {
            EvalAltResult::ErrorTerminated(..)
            | EvalAltResult::ErrorTooManyOperations(_)
            | EvalAltResult::ErrorStackOverflow(_)
            | EvalAltResult::ErrorDataTooLarge(..)
            | EvalAltResult::ErrorTooManyModules(_) => ScriptErrorKind::Limit,
            _ => ScriptErrorKind::Runtime,
        };
        let mut help = None;
        let message = match err {
            // What stopped it says why (see `limits`).
            EvalAltResult::ErrorTerminated(why, _) => why.to_string(),
            EvalAltResult::ErrorTooManyOperations(_) => {
                format!("ran more than {MAX_OPERATIONS} operations (an endless loop?)")
            }
            EvalAltResult::ErrorStackOverflow(_) => {
                format!("calls nested deeper than {MAX_CALL_LEVELS} levels (runaway recursion?)")
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                // Rhai says "Size of array/blob", "Length of string", …
                let thing = ["array", "string", "map"]
                    .into_iter()
                    .find(|t| what.to_lowercase().contains(t))
                    .unwrap_or("value");
                format!(
                    "{thing} too large (arrays hold at most {MAX_ARRAY_SIZE} items, maps {MAX_MAP_SIZE}, strings {MAX_STRING_SIZE} bytes)"
                )
            }
            // `throw "reason"` and errors raised by registered functions carry
            // their message as a value; Rhai's own prefix adds nothing.
            EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
            mut other => {
                let _ = other.take_position();
                help = self.nearest_name(&other);
                other.to_string().to_lowercase_first()
            }
        };
        // Rhai resets the position of a tripped limit to the call site at
        // each function return, and a hook's call site is outside the script;
        // point at the hook's definition instead.
        let (location, snippet) = match api::rhai_line_col(at) {
            Some((line, col)) => match self.text_of(&path) {
                Some(text) => {
                    let range = text.token_at_line_col(line, col);
                    (
                        Some(text.location(range.start)),
                        Some(Snippet::new(&text, range)),
                    )
                }
                None => (Some(Location { path, line, col }), None),
            },
            None => {
                let snippet = self.fn_name_range(hook).map(|range| {
                    let mut s = Snippet::new(&self.text, range);
                    s.label = Some("while this hook ran".to_string());
                    s
                });
                (self.hook_location(hook), snippet)
            }
        };
        ScriptError {
            kind,
            hook: HookId::from_name(hook).map(HookId::name),
            location,
            message,
            snippet: snippet.map(Box::new),
            help,
        }
    }

    /// The text of `path`: the script's own, or a built-in module's.
    fn text_of(&self, path: &str) -> Option<Source> {
        if path == self.text.path {
            return Some(self.text.clone());
        }
        let imported = self.module_texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(text) = imported.iter().find(|t| t.path == path) {
            return Some(text.clone());
        }
        drop(imported);
        let name = path.strip_prefix("scripts/")?.strip_suffix(".rhai")?;
        builtin::script(name).map(|text| Source::new(path, text))
    }
}

/// The function run after the top level, and the one it calls to hand over
/// the top level's imports: names a script is unlikely to use.
const TOP_LEVEL_END: &str = "__gridrules_top_level_end";
const KEEP_IMPORTS: &str = "__gridrules_keep_imports";

/// The imports the top level leaves, handed over by [`KEEP_IMPORTS`] while
/// armed (only during the load: a script that calls it later changes nothing).
#[derive(Default)]
struct KeptImports {
    armed: bool,
    modules: Vec<(String, Shared<Module>)>,
}

/// How the top level failed: a variable not found may be one the compile
/// already reported (see [`ScriptHost::new`]).
enum TopLevelError {
    NotFound(ScriptError),
    Other(ScriptError),
}

/// The constants a script is compiled with: `WIDTH`, `HEIGHT`, the params
/// (upper-cased), then what its top level defined (which may shadow them).
fn base_scope(
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
fn names(scope: &Scope) -> Vec<String> {
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

/// Compiles `source` with the constants of `scope`, with or without strict
/// variables (the engine is left strict).
fn compile(
    engine: &mut Engine,
    scope: &Scope,
    source: &ScriptSource,
    strict: bool,
) -> Result<AST, ParseError> {
    engine.set_strict_variables(strict);
    let ast = engine.compile_with_scope(scope, &source.text);
    engine.set_strict_variables(true);
    ast
}

/// A compile error, located in the script and drawn there, with the
/// nearest name for one not found, where an unclosed bracket opened, and
/// the reason `curry` is missing.
fn syntax_error(e: ParseError, scope: &Scope, source: &ScriptSource) -> ScriptError {
    let text = Source::new(source.path.clone(), source.text.clone());
    // Rhai places an error at the end of the file past its last line; the
    // end of the last line is where a reader looks.
    let end = source.text.trim_end().len();
    let at = api::rhai_line_col(e.1).map(|(line, col)| text.offset(line, col).min(end));
    let location = at.map(|at| text.location(at));
    let mut message = e.0.to_string().to_lowercase_first();
    let mut help = None;
    if let rhai::ParseErrorType::VariableUndefined(name) = &*e.0 {
        help = variable_hint(name, &names(scope));
    }
    if disabled_at(&source.text, location.as_ref()) {
        message = "`curry` is not available to rulebook scripts: its arguments would escape the size limits".to_string();
    }
    let mut unclosed_help = None;
    let snippet = at.map(|at| {
        let mut snippet = Snippet::new(&text, text.token_at(at));
        if at == end {
            snippet.label = Some("the file ends here".to_string());
        }
        // An unclosed bracket is found at the end of the file; where it
        // opened is what the author needs to see.
        // So is any error at the end of the file or at a `fn` (a function
        // defined inside another): a bracket left open is the likely cause.
        let at_fn = ["fn ", "private fn ", "///"]
            .iter()
            .any(|p| source.text[at..].starts_with(p));
        let open = match &*e.0 {
            rhai::ParseErrorType::MissingToken(token, _)
                if matches!(token.as_str(), "}" | ")" | "]") =>
            {
                unclosed(&source.text, at, Some(token))
            }
            rhai::ParseErrorType::WrongFnDefinition => unclosed(&source.text, at, None),
            _ if at == end || at_fn => unclosed(&source.text, at, None),
            _ => None,
        };
        if let Some(open) = open {
            let bracket = &source.text[open..open + 1];
            snippet
                .context
                .push((open..open + 1, format!("this `{bracket}` is never closed")));
            let closer = match bracket {
                "{" => "}",
                "(" => ")",
                _ => "]",
            };
            unclosed_help = Some(format!("close the `{bracket}` with a `{closer}`"));
        }
        Box::new(snippet)
    });
    ScriptError {
        kind: ScriptErrorKind::Syntax,
        hook: None,
        location,
        message,
        snippet,
        help: help.or(unclosed_help),
    }
}

/// A value the top level left, copied out of any sharing: a closure's
/// captured variables are shared, and a hook that changed one would change
/// what the next call sees (hooks must answer alike for alike positions).
fn detach(value: &Dynamic) -> Dynamic {
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

/// For a variable not found, the nearest of `constants` (`WIDTH`,
/// `HEIGHT`, the params): params are upper-case, so `k` means `K`.
fn variable_hint(name: &str, constants: &[String]) -> Option<String> {
    let upper = name.to_uppercase();
    if upper != name && constants.contains(&upper) {
        return Some(format!(
            "did you mean `{upper}`? (params are upper-case constants)"
        ));
    }
    crate::suggest::did_you_mean(name, constants.iter().map(String::as_str))
}

/// `text` with its comments and string contents blanked, for looking up
/// names.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |from: usize, to: usize, out: &mut Vec<u8>| {
        for b in &mut out[from..to.min(bytes.len())] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        let start = i;
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                blank(start, i, &mut out);
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                blank(start, i, &mut out);
            }
            quote @ (b'"' | b'`' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                blank(start, i, &mut out);
            }
            _ => i += 1,
        }
    }
    // Only ASCII bytes were blanked, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// The offset of the bracket that a missing `token` (`}`, `)`, `]`; any
/// for `None`) should close: the innermost one still open at `end`, outside
/// strings and comments.
fn unclosed(text: &str, end: usize, token: Option<&str>) -> Option<usize> {
    let open = match token {
        Some("}") => Some(b'{'),
        Some(")") => Some(b'('),
        Some("]") => Some(b'['),
        Some(_) => return None,
        None => None,
    };
    let code = code_only(text);
    let mut stack = Vec::new();
    for (i, b) in code.bytes().take(end).enumerate() {
        match b {
            b'{' | b'(' | b'[' => stack.push((b, i)),
            b'}' | b')' | b']' => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack
        .iter()
        .rev()
        .find(|&&(b, _)| open.is_none_or(|o| b == o))
        .map(|&(_, at)| at)
}

/// Whether a syntax error at `loc` stands on the disabled `curry`: Rhai
/// then only says it expected something else.
fn disabled_at(text: &str, loc: Option<&Location>) -> bool {
    let Some(loc) = loc else { return false };
    let Some(line) = text.lines().nth(loc.line.saturating_sub(1)) else {
        return false;
    };
    let from: String = line.chars().skip(loc.col.saturating_sub(1)).collect();
    from.starts_with("curry")
}

/// Keeps a line a script printed, within the output's bounds: past them
/// the rest is dropped, with one line that says so.
fn keep_output(sink: &Mutex<Vec<String>>, text: &str) {
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

/// A value as shown in messages: its type and, when short, the value.
pub(crate) fn describe(v: &Dynamic) -> String {
    if v.is_unit() {
        return "()".to_string();
    }
    let text = v.to_string();
    if text.len() <= 40 {
        format!("{} `{text}`", v.type_name())
    } else {
        v.type_name().to_string()
    }
}

trait LowercaseFirst {
    fn to_lowercase_first(&self) -> String;
}

impl LowercaseFirst for String {
    fn to_lowercase_first(&self) -> String {
        let mut chars = self.chars();
        match chars.next() {
            Some(c) => c.to_lowercase().chain(chars).collect(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_scripts_compile() {
        let engine = sandboxed_engine();
        for (name, text) in builtin::SCRIPTS {
            if let Err(e) = engine.compile(text) {
                panic!("scripts/{name}.rhai: {e}");
            }
        }
        assert_eq!(builtin_modules().len(), builtin::SCRIPTS.len());
    }

    /// A script on a 3×3 board with `k = 3` and `sizes = [1, 2]`.
    fn host(text: &str) -> Result<ScriptHost, RulebookError> {
        let grid = Grid::new(3, 3).expect("3×3 is a board");
        let sizes: rhai::Array = vec![Dynamic::from(1_i64), Dynamic::from(2_i64)];
        let params = [
            ("k".to_string(), Dynamic::from(3_i64)),
            ("sizes".to_string(), Dynamic::from_array(sizes)),
        ];
        let source = ScriptSource {
            path: "t.rhai".to_string(),
            text: text.into(),
            dir: None,
        };
        ScriptHost::new(grid, &params, source)
    }

    fn wins(host: &ScriptHost, run: i64) -> Dynamic {
        host.call_load(HookId::Wins, (run,))
            .unwrap_or_else(|e| panic!("{}", e.describe()))
    }

    #[test]
    fn hooks_see_what_the_top_level_defines() {
        // A constant table, a variable, a map and an imported module: read
        // whole, and by index or method, each by name.
        let host = host(
            "import \"lines\" as l;\n\
             const LINES = l::straight(K);\n\
             let need = K;\n\
             let table = #{ a: [1, 2] };\n\
             fn lines() { LINES }\n\
             fn wins(run) {\n\
                 run >= need && LINES.len() == 8 && LINES[7].len() == 3\n\
                     && table.a[1] == 2 && l::straight(K) == LINES\n\
             }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let lines = host
            .call_load(HookId::Lines, ())
            .unwrap_or_else(|e| panic!("{}", e.describe()));
        assert_eq!(lines.into_array().map(|a| a.len()), Ok(8));
        assert!(wins(&host, 3).as_bool().unwrap_or(false));
        assert!(!wins(&host, 2).as_bool().unwrap_or(true));
    }

    #[test]
    fn a_params_array_may_be_indexed_in_a_hook() {
        // `SIZES[1]` is read by name when the hook runs.
        let host =
            host("fn lines() { [cells()] }\nfn wins(run) { run >= SIZES[1] + SIZES.len() }\n")
                .unwrap_or_else(|e| panic!("{e}"));
        assert!(wins(&host, 4).as_bool().unwrap_or(false));
        assert!(!wins(&host, 3).as_bool().unwrap_or(true));
    }

    #[test]
    fn the_top_level_runs_once_and_a_return_keeps_what_came_before() {
        let host = host(
            "import \"lines\" as l;\nprint(\"ran\");\nconst N = 8;\nif N > 0 { return; }\n\
             fn lines() { [cells()] }\nfn wins(run) { l::straight(K).len() == N }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..3 {
            assert!(wins(&host, 3).as_bool().unwrap_or(false));
        }
        assert_eq!(host.take_output(), ["ran"]);
    }

    #[test]
    fn a_hook_cannot_change_what_the_next_call_sees() {
        // A closure's captured variable is shared; the hooks get a copy, so
        // a call that pushes to it leaves the next call's copy as it was.
        let host = host(
            "let seen = [];\nlet count = || { seen.push(1); seen.len() };\n\
             fn lines() { [cells()] }\nfn wins(run) { count.call() == 1 }\n",
        )
        .unwrap_or_else(|e| panic!("{e}"));
        for _ in 0..3 {
            assert!(wins(&host, 3).as_bool().unwrap_or(false));
        }
    }

    #[test]
    fn an_undefined_name_is_still_refused_at_load_with_a_suggestion() {
        let problem = |text: &str| {
            let err = host(text).expect_err("refused");
            let p = &err.problems[0];
            assert_eq!(p.kind, ProblemKind::ScriptSyntax, "{p}");
            (
                p.location.as_ref().map(|l| (l.line, l.col)),
                format!("{}: {}", p.message, p.help.as_deref().unwrap_or_default()),
            )
        };
        // In a hook: the top level's names are suggested too.
        let (at, message) = problem(
            "const LINES = lines::straight(K);\nfn lines() { LINSE }\nfn wins(run) { run >= K }\n",
        );
        assert_eq!(at, Some((2, 14)));
        assert!(
            message.contains("undefined variable: LINSE")
                && message.ends_with("did you mean `LINES`?"),
            "{message}"
        );
        // In the top level itself, before it runs, even when a hook names
        // what the top level defines.
        let (at, message) = problem(
            "const LINES = lines::straight(k);\nfn lines() { LINES }\nfn wins(run) { run >= K }\n",
        );
        assert_eq!(at, Some((1, 31)));
        assert!(message.contains("did you mean `K`?"), "{message}");
    }
}
